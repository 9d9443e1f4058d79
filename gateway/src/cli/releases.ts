#!/usr/bin/env node
import { existsSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REMOTE_IDS } from 'shared-contracts';
import { HEALTH_WINDOWS, type CanaryGuard } from 'shared-contracts/console';
import { REPO_ROOT } from '../config.js';
import {
  createReleaseService,
  isHealthWindow,
  ReleaseError,
  type ReleaseActor,
  type ReleaseService,
} from '../releases/release-service.js';
import { AuditRepository } from '../store/audit.repository.js';
import { openDatabase } from '../store/database.js';
import { migrateToLatest } from '../store/migrator.js';
import { ReleaseHealthRepository } from '../store/release-health.repository.js';
import { ReleaseRepository } from '../store/release.repository.js';
import { UsageError, runCli } from './cli-support.js';

const USAGE = `usage: releases <command> [--reason TEXT]
  publish <remote-id> <distDir>          store a build (version = package version + content hash)
  publish-all                            publish every mfe-*/dist of the repository and make each active
  promote <remote-id> <version>          make a published version active for everyone
  canary <remote-id> <version> <percent> serve a version to 1–99 % of browsers (0 ends the canary)
  rollback <remote-id>                   return to the previously active version
  guard <remote-id> [--min-page-loads N] [--min-failure-rate R] [--ratio X]
                                         show or set the canary guard (defaults 100, 0.02, 2)
  history [remote-id] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                                         the release history, newest first
  health <remote-id> [--window 15m|1h|24h]
                                         page loads, load failures and client errors per version
  list                                   show the registry
--reason TEXT: why (recorded with the change in the history and the audit trail)
--unchecked: publish, promote or canary without the compatibility check (a build requiring another major of react,
react-dom or shared-contracts than the shell provides is refused otherwise); for testing the browser's own refusal
env: DATABASE_URL (PostgreSQL) or DATA_DIR (./data, SQLite file identity.db): the store every gateway serves from;
every running gateway serves a change within seconds. SHELL_DIST: the shell build whose shared versions a build
must be compatible with (default shell/dist)`;

/** The CLI's actor in the history and the audit trail: `cli:<os user>`. */
export function cliActor(reason?: string): ReleaseActor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container's random uid): still the CLI.
  }
  return { actor: `cli:${user}`, userId: null, reason: reason ?? null };
}

const percentText = (rate: number | null) => (rate === null ? '-' : `${(rate * 100).toFixed(2)}%`);

function number(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${option} must be a number`);
  return value;
}

function guardLine(id: string, guard: CanaryGuard): string {
  return `${id} guard: at least ${guard.minPageLoads} page loads, failure rate above ${percentText(guard.minFailureRate)} and above ${guard.ratio}× the active version's`;
}

/** Runs one release command through the release service; `out` receives the lines to print. */
export async function runReleasesCommand(
  args: string[],
  service: ReleaseService,
  out: (line: string) => void,
  actorOf: (reason?: string) => ReleaseActor = cliActor,
): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('. ')[0]! : String(error);
    throw new UsageError(`${message} (releases help)`);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const by = actorOf(values.reason);
  const checks = { unchecked: values.unchecked === true };
  const need = (n: number, max = n) => {
    if (rest.length < n || rest.length > max)
      throw new UsageError(`${command} takes ${n === max ? n : `${n}–${max}`} argument(s) (releases help)`);
  };
  switch (command) {
    case 'publish': {
      need(2);
      const { version, created } = await service.publish(rest[0]!, path.resolve(rest[1]!), by, checks);
      out(`${rest[0]} ${version} ${created ? 'published' : 'already published'}`);
      return;
    }
    case 'publish-all': {
      need(0);
      let count = 0;
      for (const id of REMOTE_IDS) {
        const dist = path.join(REPO_ROOT, id, 'dist');
        if (!existsSync(path.join(dist, 'remoteEntry.js'))) {
          out(`${id}: no build at ${dist}, skipped`);
          continue;
        }
        const { version, created } = await service.publish(id, dist, by, { ...checks, activate: true });
        out(`${id} ${version} ${created ? 'published' : 'already published'}, active`);
        count += 1;
      }
      if (count === 0 && !readdirSync(REPO_ROOT).some((n) => n.startsWith('mfe-'))) out('no remotes found');
      return;
    }
    case 'promote':
      need(2);
      await service.promote(rest[0]!, rest[1]!, by, checks);
      out(`${rest[0]} ${rest[1]} active`);
      return;
    case 'canary': {
      need(3);
      const percent = Number(rest[2]);
      await service.canary(rest[0]!, rest[1]!, percent, by, checks);
      out(percent === 0 ? `${rest[0]} canary ended` : `${rest[0]} ${rest[1]} canary at ${percent}%`);
      return;
    }
    case 'rollback':
      need(1);
      out(`${rest[0]} rolled back to ${await service.rollback(rest[0]!, by)}`);
      return;
    case 'guard': {
      need(1);
      const id = rest[0]!;
      const current = (await service.view()).remotes.find((r) => r.id === id)?.guard;
      if (!current) throw new ReleaseError(`unknown remote "${id}" (one of ${REMOTE_IDS.join(', ')})`);
      const next: CanaryGuard = {
        minPageLoads: number(values['min-page-loads'], 'min-page-loads') ?? current.minPageLoads,
        minFailureRate: number(values['min-failure-rate'], 'min-failure-rate') ?? current.minFailureRate,
        ratio: number(values.ratio, 'ratio') ?? current.ratio,
      };
      const changing = ['min-page-loads', 'min-failure-rate', 'ratio'].some((o) => o in values);
      if (changing) await service.setGuard(id, next, by);
      out(guardLine(id, changing ? next : current));
      return;
    }
    case 'history': {
      need(0, 1);
      const events = await service.history({ remote: rest[0], from: values.from, to: values.to });
      if (events.length === 0) out('no release events');
      for (const e of events) {
        const figures = e.figures
          ? ` (${Object.entries(e.figures)
              .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(4)}`)
              .join(', ')})`
          : '';
        out(
          [
            e.at,
            e.remote,
            e.action,
            e.version ?? '',
            e.percent === null ? '' : `${e.percent}%`,
            `by ${e.actor}`,
            e.reason ? `— ${e.reason}` : '',
          ]
            .filter(Boolean)
            .join(' ') + figures,
        );
      }
      return;
    }
    case 'health': {
      need(1);
      const window = values.window ?? '1h';
      if (!isHealthWindow(window))
        throw new UsageError(`--window must be one of ${HEALTH_WINDOWS.join(', ')}`);
      const health = await service.health(rest[0]!, window);
      out(`${health.remote} over ${window}:`);
      if (health.versions.length === 0) out('  nothing served');
      for (const v of health.versions)
        out(
          `  ${v.role} ${v.version}: ${v.pageLoads} page loads, ${v.loadFailures} load failures, ${v.clientErrors} client errors, failure rate ${percentText(v.failureRate)}`,
        );
      return;
    }
    case 'list': {
      need(0);
      const data = await service.read();
      for (const id of REMOTE_IDS) {
        const r = data.remotes[id];
        if (!r) {
          out(`${id}: nothing published`);
          continue;
        }
        const canary = r.canary ? `, canary ${r.canary.version} at ${r.canary.percent}%` : '';
        out(`${id}: active ${r.active ?? '-'}${canary}; versions ${Object.keys(r.versions).join(', ')}`);
      }
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      reason: { type: 'string' },
      unchecked: { type: 'boolean' },
      'min-page-loads': { type: 'string' },
      'min-failure-rate': { type: 'string' },
      ratio: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      window: { type: 'string' },
    },
  });
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  runCli(async () => {
    const args = process.argv.slice(2);
    if (args[0] === undefined || ['help', '--help', '-h'].includes(args[0])) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    const dataDir = path.resolve(process.env.DATA_DIR || './data');
    // The same store the gateway opens (runtime.ts), without its keys: releases hold nothing secret.
    const database = openDatabase({
      databaseUrl: process.env.DATABASE_URL || undefined,
      sqliteFile: path.join(dataDir, 'identity.db'),
    });
    try {
      await migrateToLatest(database);
      const service = createReleaseService(
        {
          releases: new ReleaseRepository(database.db, database.dialect),
          releaseHealth: new ReleaseHealthRepository(database.db),
          audit: new AuditRepository(database.db),
        },
        path.resolve(process.env.SHELL_DIST || path.join(REPO_ROOT, 'shell', 'dist')),
      );
      const print = (line: string) => process.stdout.write(`${line}\n`);
      // An install from before ADR 0033 kept its releases in DATA_DIR/releases: taken over once.
      for (const line of await service.importLegacy(dataDir)) print(line);
      await runReleasesCommand(args, service, print);
    } finally {
      await database.close();
    }
  }, [ReleaseError]);
}
