#!/usr/bin/env node
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { ConfigError, loadConfig } from '../config.js';
import type { OidcArtefactStore } from '../oidc/account-revocation.js';
import type { OidcDatabase } from '../oidc/types.js';
import { openStore, type Store } from '../store/store.js';
import type { AdminCommand, AdminContext, ParsedValues } from './admin-command.js';
import { UsageError, runCli } from './cli-support.js';
import { commandOidc } from './command-oidc.js';
import { ADMIN_COMMANDS, ALL_OPTIONS, adminUsage, commandName, findCommand } from './command-table.js';

/** A command line resolved to its command, with values checked against that command's options. */
export interface AdminCommandLine {
  command: AdminCommand;
  values: ParsedValues;
  /** The positional argument of a command that declares one; empty otherwise. */
  argument: string;
}

/** Finds the command `args` names and checks its options; every mistake is a {@link UsageError}. */
export function parseAdminCommandLine(args: string[]): AdminCommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args, options: ALL_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // An unknown option or a missing value: the operator's mistake, reported like every other one.
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'))
      throw new UsageError((error as Error).message);
    throw error;
  }
  const { values, positionals } = parsed;
  const [area, name, ...extra] = positionals;
  if (area === undefined) throw new UsageError('no command given; "admin help" lists the commands');
  let command = findCommand(area, name);
  let rest = extra;
  if (!command && name !== undefined && findCommand(area, undefined)) {
    // `outbox` takes no sub-command: what follows it is a stray argument, not an unknown command.
    command = findCommand(area, undefined);
    rest = [name, ...extra];
  }
  let argument = '';
  if (command?.argument) {
    if (rest.length === 0 || rest[0]!.trim() === '') throw new UsageError(`${command.argument} is required`);
    argument = rest.shift()!;
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (!command) {
    // One line, like every other mistake; the area's own commands are the likeliest intended ones.
    const known = ADMIN_COMMANDS.filter((c) => c.area === area).map((c) => c.name);
    const hint =
      known.length > 0
        ? `${area}: ${known.join(', ')}`
        : `areas: ${[...new Set(ADMIN_COMMANDS.map((c) => c.area))].join(', ')}`;
    throw new UsageError(
      `unknown command "${[area, name].join(' ').trim()}" (${hint}; "admin help" shows the usage)`,
    );
  }
  for (const option of Object.keys(values)) {
    if (!(option in command.options)) throw new UsageError(`"${commandName(command)}" takes no --${option}`);
  }
  for (const [option, spec] of Object.entries(command.options)) {
    if (!spec.required) continue;
    const value: unknown = values[option];
    const given = Array.isArray(value)
      ? value.some((v) => typeof v === 'string' && v.trim() !== '')
      : typeof value === 'string' && value.trim() !== '';
    if (!given) throw new UsageError(`--${option} is required`);
  }
  return { command, values, argument };
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

/** The operating-system account running the CLI, for the audit trail. */
function operator(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/**
 * Every command run is an audit event `admin.<area>[.<name>]` with its outcome, the option names given (never
 * their values: passwords and secrets are options) and the user it names; the actor is the OS account.
 */
async function recordAdminAction(
  { command, values }: AdminCommandLine,
  ctx: AdminContext,
  outcome: 'success' | 'failure',
): Promise<void> {
  await ctx.store.audit.record({
    at: Date.now(),
    kind: `admin.${command.area}${command.name ? `.${command.name}` : ''}`,
    outcome,
    userId: null,
    ip: null,
    userAgent: `admin-cli (${operator()})`,
    data: {
      options: Object.keys(values).sort(),
      ...(typeof values.username === 'string' ? { username: values.username } : {}),
      ...(typeof values.user === 'string' ? { user: values.user } : {}),
    },
  });
}

async function execute(line: AdminCommandLine, ctx: AdminContext): Promise<void> {
  const { command, values, argument } = line;
  try {
    await command.run(ctx, values, argument);
  } catch (error) {
    await recordAdminAction(line, ctx, 'failure').catch(() => undefined);
    if (isUniqueViolation(error)) throw new UsageError(`${command.area.replace(/s$/, '')} already exists`);
    throw error;
  }
  await recordAdminAction(line, ctx, 'success');
}

/**
 * Runs one admin command against the store; `out` receives the lines to print. `oidc` says where the provider keeps
 * its artefacts (the store's table unless Redis is given), for the commands that end a user's OIDC sessions.
 */
export async function runAdminCommand(
  store: Store,
  args: string[],
  out: (line: string) => void,
  oidc: Omit<OidcArtefactStore, 'db'> = {},
  publicUrl = 'http://localhost:8080',
): Promise<void> {
  const db = store.database.db as unknown as Kysely<OidcDatabase>;
  // Back-channel logout tokens are signed by a provider over this store, with `publicUrl` as the issuer.
  const made = commandOidc(store, { redis: oidc.redis, redisPrefix: oidc.redisPrefix, issuer: publicUrl });
  try {
    await execute(parseAdminCommandLine(args), {
      store,
      out,
      oidc: { db, provider: made.artefacts.provider, ...oidc },
      publicUrl,
    });
  } finally {
    made.close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  runCli(async () => {
    const args = process.argv.slice(2);
    if (args[0] === undefined || ['help', '--help', '-h'].includes(args[0])) {
      process.stdout.write(`${adminUsage()}\n`);
      return;
    }
    // A mistyped command is refused before the database is opened (or created, or migrated).
    const line = parseAdminCommandLine(args);
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
      config.redisUrl && line.command.needsRedis
        ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 })
        : undefined;
    // The applications of the sessions a command ends are told by back-channel logout, signed as the server signs.
    const oidc = commandOidc(store, { redis, issuer: config.publicUrl, secretKey: config.secretKey });
    try {
      await execute(line, {
        store,
        out: (text) => process.stdout.write(`${text}\n`),
        oidc: oidc.artefacts,
        publicUrl: config.publicUrl,
      });
    } finally {
      oidc.close();
      redis?.disconnect();
      await store.database.close();
    }
  });
}
