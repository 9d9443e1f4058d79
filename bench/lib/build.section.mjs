// Section 5: cold build of every package, and the rebuild + publish of one remote after a one-line change.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO, runGatewayCli } from './gateway.mjs';
import { summarize } from './stats.mjs';
import { row, textRow } from './table.mjs';

const S = '5';
const execFileP = promisify(execFile);
const TURBO = path.join(REPO, 'node_modules', '.bin', 'turbo');
export const TOUCHED_REMOTE = 'mfe-tenant';
const TOUCHED_FILE = path.join(REPO, TOUCHED_REMOTE, 'src', 'remote.ts');

async function timed(fn) {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

/** `turbo run build` at the repo root; `force` bypasses turbo's cache (a cold build). */
export async function turboBuild({ force = false, filter } = {}) {
  const args = ['run', 'build', '--output-logs=errors-only'];
  if (force) args.push('--force');
  if (filter) args.push(`--filter=${filter}`);
  try {
    await execFileP(TURBO, args, {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    });
  } catch (e) {
    throw new Error(
      `turbo ${args.join(' ')} failed:\n${(e.stdout ?? '').slice(-4000)}${(e.stderr ?? '').slice(-2000)}`,
    );
  }
}

/** Cold build rounds (each one `turbo run build --force`). The last round leaves every dist/ fresh. */
export async function measureColdBuild(rounds, log) {
  const secs = [];
  for (let i = 0; i < rounds; i += 1) {
    secs.push(await timed(() => turboBuild({ force: true })));
    log(`cold build round ${i + 1}: ${secs[i].toFixed(1)} s`);
  }
  return summarize(secs);
}

/**
 * One-line change in a remote: append a comment to its exposed module, build that remote alone, publish it to the
 * running gateway's release store, then take the line out again (only our line, so a teammate's concurrent edit
 * of the file survives).
 */
export async function measureRemoteRebuild(gw, rounds, log) {
  const build = [];
  const publish = [];
  const outputs = [];
  for (let i = 0; i < rounds; i += 1) {
    const marker = `// bench: one-line change ${Date.now()}-${i}`;
    writeFileSync(TOUCHED_FILE, `${readFileSync(TOUCHED_FILE, 'utf8')}${marker}\n`);
    try {
      build.push(await timed(() => turboBuild({ filter: TOUCHED_REMOTE })));
      publish.push(
        await timed(async () => {
          const { stdout } = await runGatewayCli(gw, 'releases', [
            'publish',
            TOUCHED_REMOTE,
            path.join(REPO, TOUCHED_REMOTE, 'dist'),
          ]);
          outputs.push(stdout.trim());
        }),
      );
    } finally {
      const now = readFileSync(TOUCHED_FILE, 'utf8');
      writeFileSync(TOUCHED_FILE, now.replace(`${marker}\n`, ''));
    }
    log(
      `${TOUCHED_REMOTE} rebuild round ${i + 1}: build ${build[i].toFixed(1)} s, publish ${publish[i].toFixed(2)} s`,
    );
  }
  // A comment leaves the minified output unchanged, so the release store may answer "already published" (same
  // content hash): the publish figure then is the hash-and-compare path. Kept in the data for the reader.
  return {
    build: summarize(build),
    publish: summarize(publish),
    total: summarize(build.map((b, i) => b + publish[i])),
    outputs,
  };
}

/** Rows for section 5 from the measurements above (cold build measured before the gateway starts). */
export function buildRows(cold, rebuild) {
  const rows = [];
  if (cold instanceof Error)
    rows.push(textRow(S, 'cold build, all packages', 'n/a', cold.message.split('\n')[0]));
  else if (cold) rows.push(row(S, 'cold build, all packages (turbo run build --force)', 's', cold));
  else rows.push(textRow(S, 'cold build, all packages', 'skipped', '--no-build'));
  if (rebuild instanceof Error)
    rows.push(textRow(S, `${TOUCHED_REMOTE} rebuild + publish`, 'n/a', rebuild.message.split('\n')[0]));
  else if (rebuild) {
    rows.push(
      row(
        S,
        `${TOUCHED_REMOTE} rebuild after a one-line change (turbo, cache hit for the rest)`,
        's',
        rebuild.build,
      ),
    );
    const already = rebuild.outputs.some((o) => /already published/.test(o));
    rows.push(
      row(
        S,
        `    publish to the release store (releases.js publish)`,
        's',
        rebuild.publish,
        already ? 'output unchanged by a comment: "already published"' : '',
      ),
    );
    rows.push(row(S, '    change → published', 's', rebuild.total));
  }
  return rows;
}
