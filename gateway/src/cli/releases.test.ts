import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.js';
import { shellProvides } from '../releases/compatibility.js';
import { createReleaseService, type ReleaseService } from '../releases/release-service.js';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { UsageError } from './cli-support.js';
import { runReleasesCommand } from './releases.js';

const GATEWAY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHELL_DIST = path.join(REPO_ROOT, 'shell', 'dist');
const run = promisify(execFile);

/** A remote's build whose federation manifest requires this React range. */
function build(root: string, label: string, react: string): string {
  const dist = path.join(root, `cli-${label}`, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, '..', 'package.json'), JSON.stringify({ version: '0.1.0' }));
  writeFileSync(path.join(dist, 'remoteEntry.js'), `/* ${label} */`);
  writeFileSync(
    path.join(dist, 'mf-manifest.json'),
    JSON.stringify({ shared: [{ name: 'react', version: react.slice(1), requiredVersion: react }] }),
  );
  return dist;
}

describe('the releases CLI', () => {
  let gw: TestGateway;
  let service: ReleaseService;
  const react = shellProvides(SHELL_DIST).react!;
  const cli = async (args: string[]) => {
    const out: string[] = [];
    await runReleasesCommand(
      args,
      service,
      (l) => out.push(l),
      (reason) => ({
        actor: 'cli:tester',
        userId: null,
        reason: reason ?? null,
      }),
    );
    return out;
  };
  beforeAll(async () => {
    gw = await startTestGateway();
    service = createReleaseService(gw.store, SHELL_DIST, () => gw.clock.now());
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('records its actor and reason, and shows the history of a remote within days', async () => {
    const [published] = await cli(['publish', 'mfe-mfa', build(gw.dataDir, 'one', `^${react}`)]);
    const first = /^mfe-mfa (\S+) published$/.exec(published!)![1]!;
    await cli(['promote', 'mfe-mfa', first, '--reason', 'first light']);
    const [again] = await cli(['publish', 'mfe-mfa', build(gw.dataDir, 'two', `^${react}`)]);
    const second = /^mfe-mfa (\S+) published$/.exec(again!)![1]!;
    expect(await cli(['canary', 'mfe-mfa', second, '25', '--reason', 'a quarter'])).toEqual([
      `mfe-mfa ${second} canary at 25%`,
    ]);
    const history = await cli(['history', 'mfe-mfa']);
    expect(history).toHaveLength(4);
    expect(history[0]).toMatch(
      new RegExp(`^\\S+Z mfe-mfa canaryStarted ${second} 25% by cli:tester — a quarter$`),
    );
    expect(history[2]).toMatch(new RegExp(`promoted ${first} by cli:tester — first light$`));
    const today = new Date(gw.clock.now()).toISOString().slice(0, 10);
    expect(await cli(['history', '--from', today, '--to', today])).toEqual(history);
    expect(await cli(['history', 'mfe-mfa', '--to', '2001-01-01'])).toEqual(['no release events']);
    await expect(cli(['history', '--from', 'yesterday'])).rejects.toThrow(/"yesterday" is not a day/);
  });

  it('shows and sets the canary guard', async () => {
    expect(await cli(['guard', 'mfe-mfa'])).toEqual([
      "mfe-mfa guard: at least 100 page loads, failure rate above 2.00% and above 2× the active version's",
    ]);
    expect(await cli(['guard', 'mfe-mfa', '--min-page-loads', '20', '--ratio', '3'])).toEqual([
      "mfe-mfa guard: at least 20 page loads, failure rate above 2.00% and above 3× the active version's",
    ]);
    expect((await cli(['history', 'mfe-mfa']))[0]).toMatch(/guardChanged by cli:tester \(minPageLoads 20/);
    await expect(cli(['guard', 'mfe-mfa', '--ratio', 'lots'])).rejects.toThrow(UsageError);
    await expect(cli(['guard', 'mfe-mfa', '--ratio', '0.5'])).rejects.toThrow(/ratio must be 1–100/);
    await expect(cli(['guard', 'mfe-nope'])).rejects.toThrow(/unknown remote "mfe-nope"/);
    await expect(cli(['guard', 'mfe-mfa', '--bogus', '1'])).rejects.toThrow(
      /^Unknown option '--bogus' \(releases help\)$/,
    );
    await expect(cli(['guard'])).rejects.toThrow(/^guard takes 1 argument\(s\)/);
  });

  it('shows health per version over a window', async () => {
    const view = (await service.view()).remotes.find((r) => r.id === 'mfe-mfa')!;
    await gw.store.releaseHealth.addHealth([
      {
        minute: Math.floor(gw.clock.now() / 60_000) * 60_000,
        remote: 'mfe-mfa',
        version: view.canary!.version,
        kind: 'pageLoad',
        count: 8,
      },
    ]);
    expect(await cli(['health', 'mfe-mfa', '--window', '15m'])).toEqual([
      'mfe-mfa over 15m:',
      `  active ${view.active}: 0 page loads, 0 load failures, 0 client errors, failure rate -`,
      `  canary ${view.canary!.version}: 8 page loads, 0 load failures, 0 client errors, failure rate 0.00%`,
    ]);
    await expect(cli(['health', 'mfe-mfa', '--window', '2d'])).rejects.toThrow(/--window must be one of/);
  });

  it('refuses to publish a build requiring React 20 with one line naming both versions', async () => {
    const refused = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/releases.ts',
        'publish',
        'mfe-login',
        build(gw.dataDir, 'react-20', '^20.0.0'),
      ],
      { cwd: GATEWAY, env: { ...process.env, DATA_DIR: gw.dataDir, DATABASE_URL: '', SHELL_DIST } },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2 });
    const stderr = (refused as { stderr: string }).stderr;
    expect(stderr).toMatch(
      new RegExp(
        `^error: mfe-login 0\\.1\\.0-[0-9a-f]{10} requires react \\^20\\.0\\.0; the shell provides react ${react.replace(/\./g, '\\.')}\\n$`,
      ),
    );
    // The browser's own refusal is tested with such a build: `--unchecked` publishes it, audited as unchecked.
    const version = /(0\.1\.0-[0-9a-f]{10})/.exec(stderr)![1]!;
    expect(
      await cli(['publish', 'mfe-login', build(gw.dataDir, 'react-20', '^20.0.0'), '--unchecked']),
    ).toEqual([`mfe-login ${version} published`]);
    await expect(cli(['promote', 'mfe-login', version])).rejects.toThrow(/requires react \^20\.0\.0/);
    await cli(['promote', 'mfe-login', version, '--unchecked']);
    const audited = await gw.store.audit.list({ kinds: ['release.promoted'] });
    expect(audited[0]?.data).toMatchObject({ subject: `mfe-login@${version}`, unchecked: true });
  });
});
