#!/usr/bin/env node
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_IDS } from 'shared-contracts';
import { REPO_ROOT } from '../config.js';
import { ReleaseCommands, ReleaseError } from '../releases/release-commands.js';
import { openDatabase } from '../store/database.js';
import { migrateToLatest } from '../store/migrator.js';
import { ReleaseRepository } from '../store/release.repository.js';
import { UsageError, runCli } from './cli-support.js';

const USAGE = `usage: releases <command>
  publish <remote-id> <distDir>          store a build (version = package version + content hash)
  publish-all                            publish every mfe-*/dist of the repository and make each active
  promote <remote-id> <version>          make a published version active for everyone
  canary <remote-id> <version> <percent> serve a version to a share of browsers (0 ends the canary)
  rollback <remote-id>                   return to the previously active version
  list                                   show the registry
env: DATABASE_URL (PostgreSQL) or DATA_DIR (./data, SQLite file identity.db): the store every gateway serves from;
every running gateway serves a change within seconds`;

/** Runs one release command against the store; `out` receives the lines to print. */
export async function runReleasesCommand(
  args: string[],
  releases: ReleaseRepository,
  out: (line: string) => void,
): Promise<void> {
  const commands = new ReleaseCommands(releases);
  const [command, ...rest] = args;
  const need = (n: number) => {
    if (rest.length !== n) throw new UsageError(`${command} takes ${n} argument(s)\n${USAGE}`);
  };
  switch (command) {
    case 'publish': {
      need(2);
      const { version, created } = await commands.publish(rest[0]!, path.resolve(rest[1]!));
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
        const { version, created } = await commands.publish(id, dist, { activate: true });
        out(`${id} ${version} ${created ? 'published' : 'already published'}, active`);
        count += 1;
      }
      if (count === 0 && !readdirSync(REPO_ROOT).some((n) => n.startsWith('mfe-'))) out('no remotes found');
      return;
    }
    case 'promote':
      need(2);
      await commands.promote(rest[0]!, rest[1]!);
      out(`${rest[0]} ${rest[1]} active`);
      return;
    case 'canary': {
      need(3);
      const percent = Number(rest[2]);
      await commands.canary(rest[0]!, rest[1]!, percent);
      out(percent === 0 ? `${rest[0]} canary ended` : `${rest[0]} ${rest[1]} canary at ${percent}%`);
      return;
    }
    case 'rollback':
      need(1);
      out(`${rest[0]} rolled back to ${await commands.rollback(rest[0]!)}`);
      return;
    case 'list': {
      need(0);
      const data = await commands.read();
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
      const releases = new ReleaseRepository(database.db, database.dialect);
      const print = (line: string) => process.stdout.write(`${line}\n`);
      // An install from before ADR 0033 kept its releases in DATA_DIR/releases: taken over once.
      for (const line of await new ReleaseCommands(releases).importLegacy(dataDir)) print(line);
      await runReleasesCommand(args, releases, print);
    } finally {
      await database.close();
    }
  }, [ReleaseError]);
}
