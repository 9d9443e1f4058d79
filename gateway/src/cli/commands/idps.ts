import { upstreamJwksPath } from 'shared-contracts';
import { UPSTREAM_TOKEN_AUTH_METHODS, type UpstreamTokenAuthMethod } from 'shared-contracts/console';
import { cliActor } from '../../identity/console/console-actor.js';
import { probeUpstream, type UpstreamSettings } from '../../identity/external/upstreams.js';
import { recordConsoleAction } from '../../identity/console/console-audit.js';
import { endEverySignInOfAccount } from '../../identity/sign-out/account-sign-ins.js';
import { revokeOidcArtefactsOfAccount } from '../../oidc/account-revocation.js';
import { isVendor } from '../../store/roles.js';
import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { flag, roles, url } from '../option-values.js';
import type { Store } from '../../store/store.js';
import type { IdentityProvider } from '../../store/identity-provider.repository.js';

const ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

function providerId(text: string): string {
  if (!ID.test(text))
    throw new UsageError(
      `--id: "${text}" must be 1–63 lower-case letters, digits, "-" or "_" (it is part of the callback address)`,
    );
  return text;
}

function scopes(text: string): string {
  const list = text.split(/[\s,]+/).filter(Boolean);
  if (!list.includes('openid')) throw new UsageError('--scopes must include openid');
  if (list.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s)))
    throw new UsageError(`--scopes: "${text}" is not a list of scope names`);
  return list.join(' ');
}

function nonBlank(text: string, option: string, max = 200): string {
  const value = text.trim();
  if (!value) throw new UsageError(`--${option} must not be blank`);
  if (value.length > max) throw new UsageError(`--${option} must have at most ${max} characters`);
  return value;
}

/** `--token-auth-method`: one of ours, or `auto` (undefined: chosen from the provider's discovery). */
function tokenAuthMethod(text: string): UpstreamTokenAuthMethod | null {
  if (text === 'auto') return null;
  if ((UPSTREAM_TOKEN_AUTH_METHODS as readonly string[]).includes(text))
    return text as UpstreamTokenAuthMethod;
  throw new UsageError(
    `--token-auth-method: "${text}" is not one of ${UPSTREAM_TOKEN_AUTH_METHODS.join(', ')}, auto`,
  );
}

/**
 * Reads the provider's discovery before saving (ADR 0064): a method it does not list is refused; one that does not
 * answer is saved all the same (it is discovered when it answers) with a note. The lines to print after saving.
 */
async function discoveryLines(
  settings: UpstreamSettings & { id: string },
  publicUrl: string,
): Promise<{ lines: string[]; inUse?: UpstreamTokenAuthMethod }> {
  const result = await probeUpstream(settings);
  if (!result.ok && result.field === 'tokenAuthMethod')
    throw new UsageError(
      `--token-auth-method: the provider does not list ${result.method} among its token endpoint methods (${result.supported.join(', ') || 'none listed: client_secret_basic'})`,
    );
  const jwks = `${publicUrl.replace(/\/$/, '')}${upstreamJwksPath(settings.id)}`;
  if (!result.ok)
    return {
      lines: [
        `discovery failed (${result.detail}); the token endpoint method is chosen when the provider answers`,
        ...(settings.tokenAuthMethod === 'private_key_jwt' ? [`register its JWKS URL: ${jwks}`] : []),
      ],
    };
  return {
    inUse: result.tokenAuthMethod,
    lines: [
      `token endpoint authentication: ${result.tokenAuthMethod} (${settings.tokenAuthMethod ? 'chosen' : `from discovery: ${result.supported?.join(', ') ?? 'none listed'}`})`,
      ...(result.tokenAuthMethod === 'private_key_jwt' ? [`register its JWKS URL: ${jwks}`] : []),
    ],
  };
}

function secret(text: string): string {
  if (text.length === 0) throw new UsageError('--client-secret must not be empty');
  return text;
}

async function partner(store: Store, id: string): Promise<string> {
  if (!(await store.partners.findById(id))) throw new UsageError(`no partner "${id}"`);
  return id;
}

/** A vendor provider's roles: vendor roles only (SPEC.md §6: a vendor is support, operations or partner). */
function vendorRoles(text: string | undefined) {
  const list = roles(text);
  const others = list.filter((r) => !isVendor([r]));
  if (others.length > 0)
    throw new UsageError(
      `--roles: ${others.join(', ')} is not a vendor role (VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER)`,
    );
  return [...new Set(list)];
}

/** One line of `idps list`; never the client secret. */
export function describeProvider(p: IdentityProvider): string {
  return [
    p.id,
    p.name,
    p.issuer,
    `client ${p.clientId}`,
    p.vendor ? `vendor ${p.roles.join(',') || '-'}` : 'login provider',
    `token auth ${p.tokenAuthMethod ?? 'auto'}${p.tokenAuthMethodInUse ? ` (in use: ${p.tokenAuthMethodInUse})` : ''}`,
    `partner ${p.partnerId ?? '*'}`,
    `scopes "${p.scopes}"`,
    ...(p.buttonLabel ? [`button "${p.buttonLabel}"`] : []),
    ...(p.trustUpstreamMfa ? ['trusts upstream MFA'] : []),
  ].join('\t');
}

const shared = {
  scopes: { type: 'string', value: '"openid profile email"' },
  partner: { type: 'string', value: 'ID' },
  roles: { type: 'string', value: 'VENDOR_SUPPORT,4' },
  'button-label': { type: 'string', value: 'TEXT' },
  'trust-upstream-mfa': { type: 'string', value: 'true|false' },
  'token-auth-method': {
    type: 'string',
    value: 'client_secret_basic|client_secret_post|private_key_jwt|auto',
  },
} as const;

export const idpsCommands = [
  defineCommand({
    area: 'idps',
    name: 'add',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N', required: true },
      issuer: { type: 'string', value: 'URL', required: true },
      'client-id': { type: 'string', value: 'X', required: true },
      'client-secret': { type: 'string', value: 'Y' },
      vendor: { type: 'boolean' },
      ...shared,
    },
    summary: [
      'an external OpenID Connect provider; register <PUBLIC_URL>/signin/<ID>/callback as its redirect URI and',
      '<PUBLIC_URL>/account/loggedout as its post-logout redirect URI',
      "--vendor: a vendor company's provider (/account/login/vendor?vendorId=ID); its accounts get --roles",
      'otherwise a login provider: a button on the sign-in page of --partner (all partners without it)',
      '--trust-upstream-mfa true: an upstream amr with a second factor stands for the local one',
      '--token-auth-method: how the gateway authenticates at its token endpoint; auto (the default):',
      "the first of client_secret_post, private_key_jwt, client_secret_basic the provider's discovery lists;",
      'private_key_jwt needs no --client-secret: register <PUBLIC_URL>/signin/<ID>/jwks as its JWKS URL',
    ],
    async run({ store, out, publicUrl }, values) {
      const id = providerId(values.id);
      if (await store.identityProviders.findById(id))
        throw new UsageError(`identity provider "${id}" exists`);
      const vendor = values.vendor === true;
      const roleList = vendorRoles(values.roles);
      if (!vendor && roleList.length > 0) throw new UsageError('--roles is for --vendor providers only');
      if (vendor && roleList.length === 0)
        throw new UsageError(
          'a --vendor provider needs --roles (VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER)',
        );
      const trust = flag(values['trust-upstream-mfa'], 'trust-upstream-mfa');
      const method =
        values['token-auth-method'] !== undefined ? tokenAuthMethod(values['token-auth-method']) : null;
      if (values['client-secret'] === undefined && method !== 'private_key_jwt')
        throw new UsageError('--client-secret is required unless --token-auth-method is private_key_jwt');
      const settings = {
        id,
        issuer: url(values.issuer, 'issuer').replace(/\/$/, ''),
        clientId: nonBlank(values['client-id'], 'client-id', 500),
        clientSecret: values['client-secret'] !== undefined ? secret(values['client-secret']) : '',
        tokenAuthMethod: method ?? undefined,
      };
      const discovered = await discoveryLines(settings, publicUrl);
      const created = await store.identityProviders.create({
        ...settings,
        name: nonBlank(values.name, 'name'),
        ...(values.scopes !== undefined ? { scopes: scopes(values.scopes) } : {}),
        ...(values.partner !== undefined ? { partnerId: await partner(store, values.partner) } : {}),
        vendor,
        roles: roleList,
        ...(values['button-label'] !== undefined
          ? { buttonLabel: nonBlank(values['button-label'], 'button-label', 80) }
          : {}),
        ...(trust !== undefined ? { trustUpstreamMfa: trust } : {}),
      });
      await recordConsoleAction(store.audit, {
        kind: 'console.upstreams.created',
        actor: cliActor(),
        subject: created.id,
        data: { vendor: created.vendor },
      });
      if (discovered.inUse) await store.identityProviders.recordMethodInUse(created.id, discovered.inUse);
      out(`identity provider ${created.id} added (${created.vendor ? 'vendor' : 'login provider'})`);
      for (const line of discovered.lines) out(line);
    },
  }),
  defineCommand({
    area: 'idps',
    name: 'update',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N' },
      issuer: { type: 'string', value: 'URL' },
      'client-id': { type: 'string', value: 'X' },
      'client-secret': { type: 'string', value: 'Y' },
      ...shared,
    },
    summary: [
      'changes only the options given; --partner - and --button-label - clear them; --token-auth-method auto',
      "chooses from the provider's discovery again",
    ],
    async run({ store, out, publicUrl }, values) {
      const found = await store.identityProviders.findById(values.id);
      if (!found) throw new UsageError(`no identity provider "${values.id}"`);
      const roleList = values.roles !== undefined ? vendorRoles(values.roles) : undefined;
      if (roleList && !found.vendor) throw new UsageError('--roles is for vendor providers only');
      if (roleList && roleList.length === 0)
        throw new UsageError('a vendor provider needs at least one role');
      const trust = flag(values['trust-upstream-mfa'], 'trust-upstream-mfa');
      const label = values['button-label'];
      const method =
        values['token-auth-method'] !== undefined ? tokenAuthMethod(values['token-auth-method']) : undefined;
      const settings = {
        id: found.id,
        issuer: values.issuer !== undefined ? url(values.issuer, 'issuer').replace(/\/$/, '') : found.issuer,
        clientId:
          values['client-id'] !== undefined
            ? nonBlank(values['client-id'], 'client-id', 500)
            : found.clientId,
        clientSecret:
          values['client-secret'] !== undefined ? secret(values['client-secret']) : found.clientSecret,
        tokenAuthMethod: method === undefined ? found.tokenAuthMethod : (method ?? undefined),
      };
      if (!settings.clientSecret && settings.tokenAuthMethod !== 'private_key_jwt')
        throw new UsageError('--client-secret is required unless --token-auth-method is private_key_jwt');
      const rediscover =
        values.issuer !== undefined ||
        values['client-id'] !== undefined ||
        values['client-secret'] !== undefined ||
        method !== undefined;
      const discovered = rediscover ? await discoveryLines(settings, publicUrl) : undefined;
      await store.identityProviders.update(found.id, {
        ...(method !== undefined ? { tokenAuthMethod: method } : {}),
        ...(values.name !== undefined ? { name: nonBlank(values.name, 'name') } : {}),
        ...(values.issuer !== undefined ? { issuer: url(values.issuer, 'issuer').replace(/\/$/, '') } : {}),
        ...(values['client-id'] !== undefined
          ? { clientId: nonBlank(values['client-id'], 'client-id', 500) }
          : {}),
        ...(values['client-secret'] !== undefined ? { clientSecret: secret(values['client-secret']) } : {}),
        ...(values.scopes !== undefined ? { scopes: scopes(values.scopes) } : {}),
        ...(values.partner !== undefined
          ? { partnerId: values.partner === '-' ? null : await partner(store, values.partner) }
          : {}),
        ...(roleList ? { roles: roleList } : {}),
        ...(label !== undefined
          ? { buttonLabel: label === '-' ? null : nonBlank(label, 'button-label', 80) }
          : {}),
        ...(trust !== undefined ? { trustUpstreamMfa: trust } : {}),
      });
      // The console's record (ADR 0062): which options changed, never the secret.
      const changed = Object.keys(values).filter(
        (key) => key !== 'id' && values[key as keyof typeof values] !== undefined,
      );
      await recordConsoleAction(store.audit, {
        kind: 'console.upstreams.updated',
        actor: cliActor(),
        subject: found.id,
        data: { changed },
      });
      if (discovered?.inUse) await store.identityProviders.recordMethodInUse(found.id, discovered.inUse);
      out(`identity provider ${found.id} updated`);
      for (const line of discovered?.lines ?? []) out(line);
    },
  }),
  defineCommand({
    area: 'idps',
    name: 'remove',
    options: { id: { type: 'string', value: 'ID', required: true } },
    summary: [
      'also forgets every external identity linked through it; signs out every account of a vendor provider',
      'at once: each session, OIDC session and refresh token ends, as `users disable` does (ADR 0041)',
    ],
    needsRedis: true,
    async run({ store, out, oidc }, values) {
      const found = await store.identityProviders.findById(values.id);
      if (!found) throw new UsageError(`no identity provider "${values.id}"`);
      // The accounts are read before the links go; a vendor account keeps its vendor_id, so it never becomes a
      // local account that could be given credentials, and has no way in left.
      const accounts = found.vendor ? await store.users.vendorAccountsOf(found.id) : [];
      if (!(await store.identityProviders.remove(found.id)))
        throw new UsageError(`no identity provider "${values.id}"`);
      let oidcSessions = 0;
      let grants = 0;
      for (const account of accounts) {
        // S29: the one way an account's sessions and tokens end at once, on every replica (as `users disable`).
        const revoked = (await endEverySignInOfAccount(
          { store, revokeOidc: (id) => revokeOidcArtefactsOfAccount(oidc, id) },
          account.id,
        ))!;
        oidcSessions += revoked.sessions;
        grants += revoked.grants;
        await store.audit.record({
          at: Date.now(),
          kind: 'vendor.offboarded',
          userId: account.id,
          ip: null,
          data: { provider: found.id, by: 'admin-cli', ...revoked },
        });
      }
      out(
        found.vendor
          ? `identity provider ${found.id} removed; ${accounts.length} vendor account(s) signed out everywhere; ${oidcSessions} OIDC session(s) and ${grants} grant(s) with their tokens revoked`
          : `identity provider ${found.id} removed`,
      );
    },
  }),
  defineCommand({
    area: 'idps',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const p of await store.identityProviders.list()) out(describeProvider(p));
    },
  }),
];
