#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { parseRole, safeCssColour, safeHttpUrl, type PartnerLanguage, type RoleName } from 'shared-contracts';
import { ConfigError, loadConfig } from '../config.js';
import { hashPassword } from '../identity/passwords.service.js';
import { revokeOidcArtefactsOfAccount, type OidcArtefactStore } from '../oidc/account-revocation.js';
import { DEFAULT_KEY_POLL_INTERVAL_MS, loadSigningKeys, rotateSigningKeys } from '../oidc/signing-keys.js';
import type { OidcDatabase } from '../oidc/types.js';
import { openStore, type Store } from '../store/store.js';
import type { Partner } from '../store/partner.repository.js';
import { UsageError, runCli } from './cli-support.js';

/** Commands that revoke a user's OIDC sessions and grants, and so need Redis when it holds them. */
const REVOKING_COMMANDS = ['sessions revoke', 'users disable'];

const USAGE = `usage: admin <area> <command> [options]
  users add --username U --email E --password P [--display-name N] [--phone P] [--roles EMPLOYEE,2]
            [--partner ID] [--require-2fa] [--expired]
  users set-password --username U --password P      users expire-password --username U
  users require-2fa --username U [--off]             users disable --username U [--enable]
  users roles --username U --roles MANAGER,7         users list
  partners add|update --id ID [--name N] [--domains a.example,b.example] [--background-color #123456]
            [--privacy-url URL] [--default-language en-GB] [--languages en-GB:English,de:Deutsch]
            [--logo FILE] [--show-login-providers true|false] [--show-language-options true|false]
            [--show-background-images true|false] [--default]
  partners list
  customers add --id ID --name N [--partner ID]      customers list
  memberships add --username U --customer ID [--roles EMPLOYEE]    memberships list
  clients add --id ID --name N --redirect-uri URL[,URL] [--secret S | --public] [--post-logout-uri URL[,URL]]
            [--backchannel-logout-uri URL] [--third-party]
  clients list
  keys rotate [--now]        new token signing keys: published at once, signing after ${(2 * DEFAULT_KEY_POLL_INTERVAL_MS) / 1000} s (every running
                             gateway re-reads the keys every ${DEFAULT_KEY_POLL_INTERVAL_MS / 1000} s); --now signs at once (one replica only)
  sessions revoke --user U   ends every session, OIDC session and refresh token of a user at once
env: DATA_DIR, DATABASE_URL, REDIS_URL, DATA_ENCRYPTION_KEY (as the server)`;

const OPTIONS = {
  username: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'display-name': { type: 'string' },
  phone: { type: 'string' },
  roles: { type: 'string' },
  partner: { type: 'string' },
  'require-2fa': { type: 'boolean' },
  expired: { type: 'boolean' },
  off: { type: 'boolean' },
  enable: { type: 'boolean' },
  id: { type: 'string' },
  name: { type: 'string' },
  domains: { type: 'string' },
  'background-color': { type: 'string' },
  'privacy-url': { type: 'string' },
  'default-language': { type: 'string' },
  languages: { type: 'string' },
  logo: { type: 'string' },
  'show-login-providers': { type: 'string' },
  'show-language-options': { type: 'string' },
  'show-background-images': { type: 'string' },
  default: { type: 'boolean' },
  customer: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  secret: { type: 'string' },
  public: { type: 'boolean' },
  'post-logout-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  'third-party': { type: 'boolean' },
  now: { type: 'boolean' },
  user: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function list(value: string | string[] | undefined): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

function roles(value: string | undefined): RoleName[] {
  return list(value).map((text) => {
    const role = parseRole(text);
    if (!role)
      throw new UsageError(
        `unknown role "${text}" (1–7 or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN)`,
      );
    return role;
  });
}

function url(text: string, option: string): string {
  try {
    const parsed = new URL(text);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    return text;
  } catch {
    throw new UsageError(`--${option}: "${text}" is not an http(s) URL`);
  }
}

function flag(text: string | undefined, option: string): boolean | undefined {
  if (text === undefined) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new UsageError(`--${option} must be true or false`);
}

function password(text: string): string {
  // S1: at least 8 characters; any characters, never trimmed.
  if (text.length < 8) throw new UsageError('--password must have at least 8 characters');
  if (text.length > 1024) throw new UsageError('--password must have at most 1024 characters');
  return text;
}

function email(text: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text))
    throw new UsageError(`--email: "${text}" is not an e-mail address`);
  return text;
}

async function findUser(store: Store, username: string) {
  const user = await store.users.findByLogin(username);
  if (!user) throw new UsageError(`no user "${username}"`);
  return user;
}

function partnerFields(values: Values): Partial<Omit<Partner, 'id'>> {
  const fields: Partial<Omit<Partner, 'id'>> = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values.domains !== undefined) fields.domains = list(values.domains).map((d) => d.toLowerCase());
  const colour = values['background-color'];
  // The same checks the shell applies before using a value (S34, shared-contracts/src/branding.ts).
  if (colour !== undefined) {
    const safe = safeCssColour(colour);
    if (!safe)
      throw new UsageError(
        `--background-color: "${colour}" is not a colour (#rgb, #rrggbb, rgb(), hsl() or a name)`,
      );
    fields.backgroundColor = safe;
  }
  const privacy = values['privacy-url'];
  if (privacy !== undefined) {
    const safe = safeHttpUrl(privacy);
    if (!safe)
      throw new UsageError(`--privacy-url: "${privacy}" is not an absolute http(s) URL without user info`);
    fields.privacyPolicyUrl = safe;
  }
  if (values['default-language'] !== undefined) fields.defaultLanguage = values['default-language'];
  if (values.languages !== undefined) {
    fields.availableLanguages = list(values.languages).map((entry): PartnerLanguage => {
      const [name, description] = entry.split(':');
      if (!name || !description) throw new UsageError(`--languages: "${entry}" must be code:Description`);
      return { name, description };
    });
  }
  if (values.logo !== undefined) {
    const file = path.resolve(values.logo);
    const types: Record<string, string> = {
      '.png': 'image/png',
      '.jpg': 'image/jpeg',
      '.jpeg': 'image/jpeg',
      '.svg': 'image/svg+xml',
      '.webp': 'image/webp',
    };
    const type = types[path.extname(file).toLowerCase()];
    if (!type) throw new UsageError('--logo must be a .png, .jpg, .svg or .webp file');
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      throw new UsageError(`--logo: cannot read ${file}`);
    }
    if (bytes.length > 512 * 1024) throw new UsageError('--logo must be at most 512 KB');
    fields.logo = bytes.toString('base64');
    fields.logoContentType = type;
  }
  const login = flag(values['show-login-providers'], 'show-login-providers');
  if (login !== undefined) fields.showLoginProviders = login;
  const languages = flag(values['show-language-options'], 'show-language-options');
  if (languages !== undefined) fields.showLanguageOptions = languages;
  const images = flag(values['show-background-images'], 'show-background-images');
  if (images !== undefined) fields.showBackgroundImages = images;
  if (values.default) fields.isDefault = true;
  return fields;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return (
    e.code === '23505' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    /UNIQUE constraint/.test(String(e.message))
  );
}

/**
 * Runs one admin command against the store; `out` receives the lines to print. `oidc` says where the provider keeps
 * its artefacts (the store's table unless Redis is given), for `sessions revoke`.
 */
export async function runAdminCommand(
  store: Store,
  args: string[],
  out: (line: string) => void,
  oidc: Omit<OidcArtefactStore, 'db'> = {},
): Promise<void> {
  const oidcDb = store.database.db as unknown as Kysely<OidcDatabase>;
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const [area, command, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const key = `${area ?? ''} ${command ?? ''}`;
  try {
    switch (key) {
      case 'users add': {
        const user = await store.users.create({
          username: required(values, 'username'),
          email: email(required(values, 'email')),
          passwordHash: await hashPassword(password(required(values, 'password'))),
          displayName: values['display-name'] ?? required(values, 'username'),
          phone: values.phone ?? null,
          roles: values.roles ? roles(values.roles) : ['EMPLOYEE'],
          partnerId: values.partner ?? null,
          requiresTwoFactor: values['require-2fa'] ?? false,
          passwordExpiresAt: values.expired ? Date.now() - 1000 : null,
        });
        out(`user ${user.username} added (id ${user.id})`);
        return;
      }
      case 'users set-password': {
        const user = await findUser(store, required(values, 'username'));
        await store.users.update(user.id, {
          passwordHash: await hashPassword(password(required(values, 'password'))),
          passwordExpiresAt: null,
        });
        out(`password of ${user.username} set`);
        return;
      }
      case 'users expire-password': {
        const user = await findUser(store, required(values, 'username'));
        await store.users.update(user.id, { passwordExpiresAt: Date.now() - 1000 });
        out(`password of ${user.username} expired; the next sign-in must change it`);
        return;
      }
      case 'users require-2fa': {
        const user = await findUser(store, required(values, 'username'));
        await store.users.update(user.id, { requiresTwoFactor: !values.off });
        out(`${user.username} ${values.off ? 'no longer requires' : 'requires'} a second factor`);
        return;
      }
      case 'users disable': {
        const user = await findUser(store, required(values, 'username'));
        await store.users.update(user.id, { disabled: !values.enable });
        if (values.enable) {
          out(`${user.username} enabled`);
          return;
        }
        // S29: disabling ends every session and token of the account at once, on every replica.
        await store.users.rotateSecurityStamp(user.id);
        const revoked = await revokeOidcArtefactsOfAccount({ db: oidcDb, ...oidc }, user.id);
        out(
          `${user.username} disabled; every sign-in session ended; ${revoked.sessions} OIDC session(s) and ${revoked.grants} grant(s) with their tokens revoked`,
        );
        return;
      }
      case 'users roles': {
        const user = await findUser(store, required(values, 'username'));
        const next = roles(required(values, 'roles'));
        await store.users.update(user.id, { roles: next });
        out(`${user.username}: ${next.join(', ')}`);
        return;
      }
      case 'users list':
        for (const u of await store.users.list()) {
          const state = [
            u.disabled && 'disabled',
            u.requiresTwoFactor && '2fa',
            u.passwordExpiresAt !== null && u.passwordExpiresAt <= Date.now() && 'expired',
          ].filter(Boolean);
          out(`${u.username}\t${u.email ?? '-'}\t${u.roles.join(',')}\t${state.join(',') || 'active'}`);
        }
        return;
      case 'partners add': {
        const partner = await store.partners.create({
          id: required(values, 'id'),
          name: required(values, 'name'),
          ...partnerFields(values),
        });
        out(`partner ${partner.id} added`);
        return;
      }
      case 'partners update': {
        const id = required(values, 'id');
        if (!(await store.partners.findById(id))) throw new UsageError(`no partner "${id}"`);
        await store.partners.update(id, partnerFields(values));
        out(`partner ${id} updated`);
        return;
      }
      case 'partners list':
        for (const p of await store.partners.list())
          out(`${p.id}\t${p.name}\t${p.domains.join(',') || '-'}${p.isDefault ? '\tdefault' : ''}`);
        return;
      case 'customers add': {
        const partnerId = values.partner ?? null;
        if (partnerId && !(await store.partners.findById(partnerId)))
          throw new UsageError(`no partner "${partnerId}"`);
        await store.customers.create({
          id: required(values, 'id'),
          name: required(values, 'name'),
          partnerId,
        });
        out(`customer ${values.id} added`);
        return;
      }
      case 'customers list':
        for (const c of await store.customers.list()) out(`${c.id}\t${c.name}\t${c.partnerId ?? '-'}`);
        return;
      case 'memberships add': {
        const user = await findUser(store, required(values, 'username'));
        const customerId = required(values, 'customer');
        if (!(await store.customers.findById(customerId)))
          throw new UsageError(`no customer "${customerId}"`);
        await store.customers.addMembership({
          userId: user.id,
          customerId,
          roles: values.roles ? roles(values.roles) : user.roles,
        });
        out(`${user.username} is a member of ${customerId}`);
        return;
      }
      case 'memberships list':
        for (const m of await store.customers.listMemberships())
          out(`${m.userId}\t${m.customerId}\t${m.roles.join(',')}`);
        return;
      case 'clients add': {
        const redirectUris = list(values['redirect-uri']).map((u) => url(u, 'redirect-uri'));
        if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required');
        if (values.secret !== undefined && values.public)
          throw new UsageError('give either --secret or --public');
        if (values.secret === undefined && !values.public)
          throw new UsageError('give --secret S for a confidential client or --public for a PKCE-only one');
        if (values.secret !== undefined && values.secret.length < 16)
          throw new UsageError('--secret must have at least 16 characters');
        const backchannel = values['backchannel-logout-uri'];
        const client = await store.clients.create({
          clientId: required(values, 'id'),
          name: required(values, 'name'),
          redirectUris,
          postLogoutRedirectUris: list(values['post-logout-uri']).map((u) => url(u, 'post-logout-uri')),
          ...(backchannel ? { backchannelLogoutUri: url(backchannel, 'backchannel-logout-uri') } : {}),
          ...(values.secret !== undefined ? { clientSecret: values.secret } : {}),
          firstParty: !values['third-party'],
        });
        out(`client ${client.clientId} added (${client.clientSecret ? 'confidential' : 'public, PKCE'})`);
        return;
      }
      case 'clients list':
        for (const c of await store.clients.list())
          out(
            `${c.clientId}\t${c.name}\t${c.clientSecret ? 'confidential' : 'public'}\t${c.redirectUris.join(',')}`,
          );
        return;
      case 'keys rotate': {
        // Published everywhere before anything is signed with them (S41): two poll intervals of grace.
        const activateAfterMs = values.now ? 0 : 2 * DEFAULT_KEY_POLL_INTERVAL_MS;
        const before = new Set((await loadSigningKeys(oidcDb)).map((k) => k.kid));
        const keys = await rotateSigningKeys(oidcDb, { activateAfterMs });
        const fresh = keys.filter((k) => !before.has(k.kid)).map((k) => k.kid);
        out(
          `new signing keys ${fresh.join(', ')} published; they sign ${activateAfterMs > 0 ? `from ${new Date(Date.now() + activateAfterMs).toISOString()}` : 'from the next key check'}`,
        );
        out(
          `running gateways re-read the keys every ${DEFAULT_KEY_POLL_INTERVAL_MS / 1000} s; ${keys.length / 2} generations kept for verification`,
        );
        return;
      }
      case 'sessions revoke': {
        const user = await findUser(store, required(values, 'user'));
        await store.users.rotateSecurityStamp(user.id);
        const revoked = await revokeOidcArtefactsOfAccount({ db: oidcDb, ...oidc }, user.id);
        out(
          `${user.username}: every sign-in session ended; ${revoked.sessions} OIDC session(s) and ${revoked.grants} grant(s) with their tokens revoked`,
        );
        return;
      }
      default:
        throw new UsageError(area ? `unknown command "${key.trim()}"\n${USAGE}` : USAGE);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new UsageError(`${area?.replace(/s$/, '')} already exists`);
    throw error;
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  runCli(async () => {
    const [first] = process.argv.slice(2);
    if (first === undefined || ['help', '--help', '-h'].includes(first)) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    let config;
    try {
      config = loadConfig();
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.problems.join('; '));
      throw error;
    }
    const store = await openStore({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(config.dataDir, 'identity.db'),
      dataEncryptionKey: config.dataEncryptionKey,
    });
    // Only the commands that end a user's OIDC artefacts touch Redis (they live there when REDIS_URL is set).
    const redis =
      config.redisUrl && REVOKING_COMMANDS.includes(process.argv.slice(2, 4).join(' '))
        ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 })
        : undefined;
    try {
      await runAdminCommand(store, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`), {
        redis,
      });
    } finally {
      redis?.disconnect();
      await store.database.close();
    }
  });
}
