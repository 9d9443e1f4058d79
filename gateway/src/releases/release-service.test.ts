import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.js';
import { openTestBackends, type TestBackends } from '../testing/backends.js';
import { BACKENDS } from '../testing/test-gateway.js';
import { CanaryGuard, judge } from './canary-guard.js';
import { incompatibility, requiresOf, satisfies, shellProvides } from './compatibility.js';
import { createReleaseService, ReleaseError, type ReleaseService } from './release-service.js';

/** The shell this repository builds: what it provides is read from its package and what is installed for it. */
const SHELL_DIST = path.join(REPO_ROOT, 'shell', 'dist');
const installed = shellProvides(SHELL_DIST);

/**
 * A remote's build folder with an MF 2 federation manifest (`mf-manifest.json`, the shape @module-federation/sdk's
 * `ManifestShared` gives each shared entry) requiring `react` and `shared-contracts` in these ranges.
 */
function build(root: string, label: string, requires: { react: string; contracts: string }): string {
  const dist = path.join(root, `build-${label}`, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, '..', 'package.json'), JSON.stringify({ version: '0.1.0' }));
  writeFileSync(path.join(dist, 'remoteEntry.js'), `/* entry ${label} */`);
  writeFileSync(path.join(dist, 'page.js'), `/* ${label} */ ${'console.log("x");'.repeat(100)}`);
  const shared = (name: string, requiredVersion: string) => ({
    id: `mfe_login:${name}`,
    name,
    version: requiredVersion.replace(/^[\^~]/, ''),
    singleton: true,
    requiredVersion,
    hash: '',
    assets: { js: { async: [], sync: [] }, css: { async: [], sync: [] } },
  });
  writeFileSync(
    path.join(dist, 'mf-manifest.json'),
    JSON.stringify({
      id: 'mfe_login',
      name: 'mfe_login',
      metaData: {},
      shared: [
        shared('react', requires.react),
        shared('react/jsx-runtime', requires.react),
        shared('react-dom', requires.react),
        shared('shared-contracts', requires.contracts),
        shared('shared-contracts/api', requires.contracts),
      ],
      remotes: [],
      exposes: [],
    }),
  );
  return dist;
}

const cli = { actor: 'cli:tester', userId: null, reason: null };

describe('compatibility of a build with the shell', () => {
  it('reads ranges the way builds write them', () => {
    expect(satisfies('19.3.1', '^19.3.1')).toBe(true);
    expect(satisfies('19.4.0', '^19.3.1')).toBe(true);
    expect(satisfies('19.3.0', '^19.3.1')).toBe(false);
    expect(satisfies('19.3.1', '^20.0.0')).toBe(false);
    expect(satisfies('0.2.1', '^0.2.0')).toBe(true);
    expect(satisfies('0.3.0', '^0.2.0')).toBe(false);
    expect(satisfies('1.2.9', '~1.2.0')).toBe(true);
    expect(satisfies('1.3.0', '~1.2.0')).toBe(false);
    expect(satisfies('19.0.0', '>=18 <20')).toBe(true);
    expect(satisfies('20.0.0', '>=18 <20')).toBe(false);
    expect(satisfies('20.1.0', '^19.0.0 || ^20.0.0')).toBe(true);
    expect(satisfies('19.3.1', '19.x')).toBe(true);
    expect(satisfies('19.3.1', '*')).toBe(true);
    expect(satisfies('19.3.1', 'workspace:latest')).toBeUndefined();
  });

  it('names the package and both versions in one line, and passes what the shell can provide', () => {
    expect(
      incompatibility('mfe-login', '0.1.0-1a2b3c4d5e', { react: '^20.0.0' }, { react: '19.3.1' })?.line,
    ).toBe('mfe-login 0.1.0-1a2b3c4d5e requires react ^20.0.0; the shell provides react 19.3.1');
    expect(
      incompatibility('mfe-login', '1', { 'shared-contracts': '^2.0.0' }, { 'shared-contracts': '1.0.0' })
        ?.package,
    ).toBe('shared-contracts');
    expect(incompatibility('mfe-login', '1', { react: '^19.0.0' }, { react: '19.3.1' })).toBeUndefined();
    // A package the shell does not share is not this check's business (the runtime still checks at load).
    expect(incompatibility('mfe-login', '1', { 'left-pad': '^9.0.0' }, { react: '19.3.1' })).toBeUndefined();
  });

  it('reads what a build requires from its federation manifest, a package once', () => {
    expect(
      requiresOf(
        JSON.stringify({
          shared: [
            { name: 'react', requiredVersion: '^19.3.1' },
            { name: 'react/jsx-runtime', requiredVersion: '^18.0.0' },
            { name: '@reduxjs/toolkit/query', requiredVersion: '^2.0.0' },
          ],
        }),
      ),
    ).toEqual({ react: '^19.3.1', '@reduxjs/toolkit': '^2.0.0' });
    expect(requiresOf('not json')).toEqual({});
    expect(requiresOf(undefined)).toEqual({});
  });

  it("knows the versions of the repository's shell", () => {
    expect(installed.react).toMatch(/^\d+\.\d+\.\d+/);
    expect(installed['shared-contracts']).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('the guard rule', () => {
  const guard = { minPageLoads: 100, minFailureRate: 0.02, ratio: 2 };
  const healthy = { pageLoads: 1000, loadFailures: 5, clientErrors: 5 };
  it('ends a canary over the minimum sample failing above both limits, with the figures', () => {
    expect(judge({ pageLoads: 100, loadFailures: 5, clientErrors: 0 }, healthy, guard)).toEqual({
      canaryPageLoads: 100,
      canaryFailures: 5,
      canaryFailureRate: 0.05,
      activePageLoads: 1000,
      activeFailures: 10,
      activeFailureRate: 0.01,
      minPageLoads: 100,
      minFailureRate: 0.02,
      ratio: 2,
    });
  });
  it('leaves a canary below the sample, below the floor, or not worse than the ratio says', () => {
    expect(judge({ pageLoads: 99, loadFailures: 99, clientErrors: 0 }, healthy, guard)).toBeUndefined();
    expect(judge({ pageLoads: 1000, loadFailures: 20, clientErrors: 0 }, healthy, guard)).toBeUndefined();
    expect(
      judge(
        { pageLoads: 100, loadFailures: 5, clientErrors: 0 },
        { pageLoads: 100, loadFailures: 3, clientErrors: 0 },
        guard,
      ),
    ).toBeUndefined();
  });
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the release service (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let backends: TestBackends;
      let service: ReleaseService;
      let now = Date.parse('2026-11-28T09:00:00.000Z');
      const later = (ms: number) => (now += ms);
      let current: string;
      beforeAll(async () => {
        backends = await openTestBackends({ sql: backend.name === 'sqlite' ? 'sqlite' : 'postgres' });
        service = createReleaseService(backends.store, SHELL_DIST, () => now);
        const fits = { react: `^${installed.react!}`, contracts: `^${installed['shared-contracts']!}` };
        ({ version: current } = await service.publish(
          'mfe-login',
          build(backends.dir, 'current', fits),
          cli,
          { activate: true },
        ));
      });
      afterAll(async () => {
        await backends?.close();
      });

      const kinds = async () =>
        (await backends.store.audit.list({ kinds: ['release'] })).map((e) => [e.kind, e.data]);

      it('refuses a build requiring React 20 with its one line, and accepts the current build', async () => {
        const next = build(backends.dir, 'react-20', { react: '^20.0.0', contracts: '^1.0.0' });
        const refusal = await service.publish('mfe-login', next, cli).catch((e: unknown) => e);
        expect(refusal).toBeInstanceOf(ReleaseError);
        expect((refusal as ReleaseError).message).toMatch(
          new RegExp(
            `^mfe-login 0\\.1\\.0-[0-9a-f]{10} requires react \\^20\\.0\\.0; the shell provides react ${installed.react!.replace(/\./g, '\\.')}$`,
          ),
        );
        expect((await service.read()).remotes['mfe-login']?.versions).toHaveProperty([current]);
        expect(Object.keys((await service.read()).remotes['mfe-login']!.versions)).toHaveLength(1);
        const view = (await service.view()).remotes.find((r) => r.id === 'mfe-login')!;
        expect(view.versions[0]).toMatchObject({
          version: current,
          publishedBy: 'cli:tester',
          activatedBy: 'cli:tester',
          requires: { react: `^${installed.react!}` },
        });
        expect(view.versions[0]!.bytesOnWire).toBeGreaterThan(0);
      });

      it('records each change in the history and the audit trail with its actor, subject and reason', async () => {
        const { version: next } = await service.publish(
          'mfe-login',
          build(backends.dir, 'next', { react: `^${installed.react!}`, contracts: '^1.0.0' }),
          cli,
        );
        const manager = { actor: 'releasemanager', userId: 'u-1', reason: 'try it on a few' };
        later(60_000);
        await service.canary('mfe-login', next, 10, manager);
        const started = (await service.view()).remotes.find((r) => r.id === 'mfe-login')!.canary;
        later(60_000);
        await service.canary('mfe-login', next, 50, { ...manager, reason: null });
        // A changed share keeps the canary's start: the guard counts from there.
        expect((await service.view()).remotes.find((r) => r.id === 'mfe-login')!.canary).toEqual({
          ...started,
          percent: 50,
        });
        later(60_000);
        await service.promote('mfe-login', next, manager);
        later(60_000);
        expect(await service.rollback('mfe-login', cli)).toBe(current);

        const history = await service.history({ remote: 'mfe-login' });
        expect(history.map((e) => [e.action, e.version, e.percent, e.actor, e.reason])).toEqual([
          ['rolledBack', current, null, 'cli:tester', null],
          ['promoted', next, null, 'releasemanager', 'try it on a few'],
          ['canaryChanged', next, 50, 'releasemanager', null],
          ['canaryStarted', next, 10, 'releasemanager', 'try it on a few'],
          ['published', next, null, 'cli:tester', null],
          ['promoted', current, null, 'cli:tester', null],
          ['published', current, null, 'cli:tester', null],
        ]);
        expect(await kinds()).toEqual(
          expect.arrayContaining([
            [
              'release.canary.started',
              {
                actor: 'releasemanager',
                subject: `mfe-login@${next}`,
                reason: 'try it on a few',
                percent: 10,
              },
            ],
            ['release.rolled-back', { actor: 'cli:tester', subject: `mfe-login@${current}`, reason: null }],
          ]),
        );
        const audited = await backends.store.audit.list({ kinds: ['release.promoted'] });
        expect(audited.find((e) => e.data.actor === 'releasemanager')?.userId).toBe('u-1');

        // Days are inclusive, in UTC.
        expect(await service.history({ from: '2026-11-28', to: '2026-11-28' })).toHaveLength(7);
        expect(await service.history({ to: '2026-11-27' })).toEqual([]);
        await expect(service.history({ from: '2026-02-30' })).rejects.toMatchObject({ field: 'from' });
      });

      it('publishing an active build again (publish-all at every start) records nothing', async () => {
        const fits = { react: `^${installed.react!}`, contracts: `^${installed['shared-contracts']!}` };
        const again = await service.publish('mfe-devices', build(backends.dir, 'devices', fits), cli, {
          activate: true,
        });
        const count = async () => (await backends.store.audit.list({ kinds: ['release'] })).length;
        const events = async () => (await service.history({ remote: 'mfe-devices' })).length;
        const before = { audit: await count(), events: await events() };
        expect(
          await service.publish('mfe-devices', build(backends.dir, 'devices', fits), cli, { activate: true }),
        ).toEqual({ ...again, created: false });
        expect({ audit: await count(), events: await events() }).toEqual(before);
      });

      it('refuses what cannot apply with a clear code', async () => {
        const refused = (run: Promise<unknown>) =>
          run.then(() => undefined).catch((e: ReleaseError) => e.code);
        expect(await refused(service.promote('mfe-login', current, cli))).toBe('releaseAlreadyActive');
        expect(await refused(service.canary('mfe-login', current, 5, cli))).toBe('releaseAlreadyActive');
        expect(await refused(service.endCanary('mfe-login', cli))).toBe('releaseNoCanary');
        expect(await refused(service.rollback('mfe-devices', cli))).toBe('releaseNoEarlierVersion');
        expect(await refused(service.promote('mfe-login', '9.9.9-nope', cli))).toBe('unknownVersion');
        expect(await refused(service.canary('mfe-login', current, 100, cli))).toBe('invalidValue');
        expect(
          await refused(service.setGuard('mfe-login', { minPageLoads: 0, minFailureRate: 0, ratio: 1 }, cli)),
        ).toBe('invalidValue');
      });

      it('ends a failing canary once, however many replicas judge it, audited with the figures', async () => {
        const { version: broken } = await service.publish(
          'mfe-login',
          build(backends.dir, 'broken', { react: `^${installed.react!}`, contracts: '^1.0.0' }),
          cli,
        );
        await service.setGuard('mfe-login', { minPageLoads: 10, minFailureRate: 0.02, ratio: 2 }, cli);
        expect((await service.view()).remotes.find((r) => r.id === 'mfe-login')!.guard).toEqual({
          minPageLoads: 10,
          minFailureRate: 0.02,
          ratio: 2,
        });
        later(60_000);
        await service.canary('mfe-login', broken, 50, cli);
        const counts = (version: string, kind: string, count: number) => ({
          minute: Math.floor(now / 60_000) * 60_000,
          remote: 'mfe-login',
          version,
          kind,
          count,
        });
        // Every replica's counts, as their flushes left them in the store.
        await backends.store.releaseHealth.addHealth([
          counts(current, 'pageLoad', 40),
          counts(broken, 'pageLoad', 9),
          counts(broken, 'loadFailure', 3),
        ]);
        const guards = [0, 1].map(
          () =>
            new CanaryGuard({
              releases: backends.store.releases,
              health: backends.store.releaseHealth,
              service,
            }),
        );
        // Below the minimum sample: left alone.
        expect(await guards[0]!.check()).toEqual([]);
        await backends.store.releaseHealth.addHealth([counts(broken, 'pageLoad', 1)]);
        await backends.store.releaseHealth.addClientErrors([counts(current, 'boundary', 1)]);
        const ended = await Promise.all(guards.map((g) => g.check()));
        expect(ended.flat()).toEqual(['mfe-login']);
        expect((await service.read()).remotes['mfe-login']?.canary).toBeUndefined();
        const [event] = await service.history({ remote: 'mfe-login' });
        expect(event).toMatchObject({
          action: 'canaryEndedByGuard',
          version: broken,
          actor: 'guard',
          figures: { canaryPageLoads: 10, canaryFailures: 3, activePageLoads: 40, activeFailures: 1 },
        });
        const audited = await backends.store.audit.list({ kinds: ['release.canary.ended-by-guard'] });
        expect(audited).toHaveLength(1);
        expect(audited[0]).toMatchObject({
          userId: null,
          data: { actor: 'guard', subject: `mfe-login@${broken}`, reason: null, figures: event!.figures },
        });

        const health = await service.health('mfe-login', '15m');
        expect(health.versions.map((v) => [v.role, v.version, v.pageLoads, v.failureRate])).toEqual([
          ['active', current, 40, 1 / 40],
          ['earlier', broken, 10, 0.3],
        ]);

        // Started again in the same minute: the minute's counts so far are its baseline, not its sample.
        await service.canary('mfe-login', broken, 50, cli);
        const started = (await backends.store.releases.read()).registry.remotes['mfe-login']?.canaryStarted;
        expect(started?.baseline).toEqual(
          expect.arrayContaining([
            { version: broken, pageLoads: 10, loadFailures: 3, clientErrors: 0 },
            { version: current, pageLoads: 40, loadFailures: 0, clientErrors: 1 },
          ]),
        );
        expect(await guards[0]!.check()).toEqual([]);
        expect((await service.read()).remotes['mfe-login']?.canary).toEqual({ version: broken, percent: 50 });
      });
    },
  );
}
