#!/usr/bin/env node
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_IDS } from 'shared-contracts';
import { REPO_ROOT } from '../config.js';
import { ReleaseError, ReleaseRegistry } from '../releases/release-registry.js';
import { UsageError, runCli } from './cli-support.js';

const USAGE = `usage: releases <command>
  publish <remote-id> <distDir>          copy a build into the store (version = package version + content hash)
  publish-all                            publish every mfe-*/dist of the repository and make each active
  promote <remote-id> <version>          make a published version active for everyone
  canary <remote-id> <version> <percent> serve a version to a share of browsers (0 ends the canary)
  rollback <remote-id>                   return to the previously active version
  list                                   show the registry
env: DATA_DIR (./data): the release store is DATA_DIR/releases`;

/** Runs one release command; `out` receives the lines to print. */
export function runReleasesCommand(args: string[], dataDir: string, out: (line: string) => void): void {
  const registry = new ReleaseRegistry(dataDir);
  const [command, ...rest] = args;
  const need = (n: number) => {
    if (rest.length !== n) throw new UsageError(`${command} takes ${n} argument(s)\n${USAGE}`);
  };
  switch (command) {
    case 'publish': {
      need(2);
      const { version, created } = registry.publish(rest[0]!, path.resolve(rest[1]!));
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
        const { version, created } = registry.publish(id, dist, { activate: true });
        out(`${id} ${version} ${created ? 'published' : 'already published'}, active`);
        count += 1;
      }
      if (count === 0 && !readdirSync(REPO_ROOT).some((n) => n.startsWith('mfe-'))) out('no remotes found');
      return;
    }
    case 'promote':
      need(2);
      registry.promote(rest[0]!, rest[1]!);
      out(`${rest[0]} ${rest[1]} active`);
      return;
    case 'canary': {
      need(3);
      const percent = Number(rest[2]);
      registry.canary(rest[0]!, rest[1]!, percent);
      out(percent === 0 ? `${rest[0]} canary ended` : `${rest[0]} ${rest[1]} canary at ${percent}%`);
      return;
    }
    case 'rollback':
      need(1);
      out(`${rest[0]} rolled back to ${registry.rollback(rest[0]!)}`);
      return;
    case 'list': {
      need(0);
      const data = registry.read();
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
    runReleasesCommand(process.argv.slice(2), path.resolve(process.env.DATA_DIR || './data'), (line) =>
      process.stdout.write(`${line}\n`),
    );
    return Promise.resolve();
  }, [ReleaseError]);
}
