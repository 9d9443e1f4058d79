import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleRole } from 'shared-contracts/console';
import {
  releaseHealthSchema,
  releaseHistorySchema,
  releasesViewSchema,
  type ReleasesView,
} from 'shared-contracts/console';
import type { Express } from 'express';
import { REPO_ROOT } from '../config.js';
import { shellProvides } from '../releases/compatibility.js';
import { createReleaseService } from '../releases/release-service.js';
import { releaseFile, storeReleases } from '../testing/releases.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';
const SHELL_DIST = path.join(REPO_ROOT, 'shell', 'dist');

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's release calls (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      /** The gateway with the release service checking builds against this repository's shell. */
      let app: Express;
      let manager: { b: Browser; username: string; id: string };
      let employee: Browser;

      /** Grants a console role (none: an employee) to a new account with a passkey, signed in just now. */
      async function operator(role: ConsoleRole | null) {
        const user = await gw.addUser();
        if (role)
          await gw.store.consoleGrants.add({
            userId: user.id,
            role,
            partnerId: null,
            customerId: null,
            grantedBy: 'cli:test',
          });
        const b = await browser(app);
        expect((await b.signIn(user.username)).status).toBe(209);
        const registration = await b.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
        const { payload } = new SoftwareAuthenticator(gw.config.publicUrl).register(registration.body);
        expect((await b.post('/api/Account/RegisterCredential', payload)).status).toBe(209);
        b.token = (await b.agent.get('/api/Account/Antiforgery').expect(200)).body.token;
        return { b, username: user.username, id: user.id };
      }

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, config: { metricsToken: METRICS_TOKEN } });
        app = gw.appWith({
          releaseService: createReleaseService(gw.store, SHELL_DIST, () => gw.clock.now()),
        });
        await storeReleases(
          gw.store,
          gw.releases,
          'mfe-login',
          { active: '1.0.0', previous: [], canary: undefined },
          ['1.0.0', '1.1.0'],
        );
        manager = await operator('releaseManager');
        employee = (await operator(null)).b;
      });
      afterAll(async () => {
        await gw?.close();
      });

      const view = async (): Promise<ReleasesView> =>
        releasesViewSchema.parse((await manager.b.agent.get('/api/Account/Releases').expect(200)).body);
      const login = async () => (await view()).remotes.find((r) => r.id === 'mfe-login')!;
      const versionFor = async (bucket: number) =>
        (
          (await request(app).get('/remotes/manifest.json').set('Cookie', `idp.bucket=${bucket}`)).body as {
            remotes: Record<string, { version: string }>;
          }
        ).remotes['mfe-login']?.version;

      it('lists every remote with its active version, canary, guard and versions', async () => {
        const releases = await view();
        expect(releases.remotes.map((r) => r.id)).toContain('mfe-devices');
        expect(await login()).toMatchObject({
          active: '1.0.0',
          canary: null,
          guard: { minPageLoads: 100, minFailureRate: 0.02, ratio: 2 },
        });
        expect((await login()).versions.map((v) => v.version).sort()).toEqual(['1.0.0', '1.1.0']);
      });

      it('starts a canary that browsers in its buckets get, recorded with the operator as actor', async () => {
        const started = await manager.b.post('/api/Account/StartCanary', {
          remote: 'mfe-login',
          version: '1.1.0',
          percent: 50,
          reason: 'half of them',
        });
        expect(started.status).toBe(200);
        expect(
          releasesViewSchema.parse(started.body).remotes.find((r) => r.id === 'mfe-login')?.canary,
        ).toMatchObject({ version: '1.1.0', percent: 50, startedBy: manager.username });
        await gw.releases.refresh();
        expect(await versionFor(10)).toBe('1.1.0');
        expect(await versionFor(70)).toBe('1.0.0');
        const audited = await gw.store.audit.list({ kinds: ['release.canary.started'] });
        expect(audited[0]).toMatchObject({
          userId: manager.id,
          data: { actor: manager.username, subject: 'mfe-login@1.1.0', reason: 'half of them', percent: 50 },
        });
        // Where from, as for every audit event: the request's context.
        expect(audited[0]!.ip).toBeTruthy();
      });

      it('counts page loads and load failures per version, over every replica, in health and /metrics', async () => {
        const page = (bucket: number) =>
          request(app).get('/account/login').set('Cookie', `idp.bucket=${bucket}`).expect(200);
        await page(10);
        await page(10);
        await page(70);
        // A page the shell renders counts for no remote.
        await request(app).get('/').set('Cookie', 'idp.bucket=10').expect(200);
        await request(app)
          .post('/api/ops/client-errors')
          .set('Cookie', 'idp.bucket=10')
          .send({
            message: 'boom',
            url: 'http://localhost/account/login',
            kind: 'remote-load',
            origin: 'mfe-login',
          })
          .expect(202);
        // Another replica's traffic, already in the store.
        await gw.store.releaseHealth.addHealth([
          {
            minute: Math.floor(gw.clock.now() / 60_000) * 60_000,
            remote: 'mfe-login',
            version: '1.0.0',
            kind: 'pageLoad',
            count: 3,
          },
        ]);
        const before = releaseHealthSchema.parse(
          (await manager.b.agent.get('/api/Account/ReleaseHealth?remote=mfe-login&window=15m').expect(200))
            .body,
        );
        expect(before.versions.find((v) => v.role === 'canary')?.pageLoads).toBe(0);
        await gw.healthCounts.flush();
        const health = releaseHealthSchema.parse(
          (await manager.b.agent.get('/api/Account/ReleaseHealth?remote=mfe-login&window=15m').expect(200))
            .body,
        );
        expect(health.versions).toEqual([
          {
            version: '1.0.0',
            role: 'active',
            pageLoads: 4,
            loadFailures: 0,
            clientErrors: 0,
            failureRate: 0,
          },
          {
            version: '1.1.0',
            role: 'canary',
            pageLoads: 2,
            loadFailures: 1,
            clientErrors: 0,
            failureRate: 0.5,
          },
        ]);
        const metrics = await request(app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
        expect(metrics.text).toContain('release_page_loads_total{remote="mfe-login",version="1.1.0"} 2');
        expect(metrics.text).toContain('release_page_loads_total{remote="mfe-login",version="1.0.0"} 1');
        expect(metrics.text).toContain('release_load_failures_total{remote="mfe-login",version="1.1.0"} 1');
      });

      it("gives a browser's first page its bucket, and counts the page under the version that bucket gets", async () => {
        const metric = async (version: string) => {
          const text = (await request(app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`))
            .text;
          const line = text
            .split('\n')
            .find((l) => l.startsWith(`release_page_loads_total{remote="mfe-login",version="${version}"}`));
          return Number(line?.split(' ')[1] ?? 0);
        };
        const before = { canary: await metric('1.1.0'), active: await metric('1.0.0') };
        const first = await request(app).get('/account/login').expect(200);
        const bucket = Number(/idp\.bucket=(\d+)/.exec(String(first.headers['set-cookie']))?.[1]);
        expect(bucket).toBeGreaterThanOrEqual(0);
        const version = bucket < 50 ? '1.1.0' : '1.0.0';
        expect(await versionFor(bucket)).toBe(version);
        expect({ canary: await metric('1.1.0'), active: await metric('1.0.0') }).toEqual(
          version === '1.1.0'
            ? { ...before, canary: before.canary + 1 }
            : { ...before, active: before.active + 1 },
        );
        // A browser with its bucket keeps it: no new cookie.
        const next = await request(app)
          .get('/account/login')
          .set('Cookie', `idp.bucket=${bucket}`)
          .expect(200);
        expect(String(next.headers['set-cookie'])).not.toContain('idp.bucket');
      });

      it('answers bad input with the errors map, never a 500', async () => {
        const bad = await manager.b.post('/api/Account/StartCanary', {
          remote: 'mfe-nope',
          version: '',
          percent: 150,
        });
        expect(bad.status).toBe(400);
        expect(Object.keys(bad.body.errors as object).sort()).toEqual(['percent', 'remote', 'version']);
        const unknown = await manager.b.post('/api/Account/PromoteRelease', {
          remote: 'mfe-login',
          version: '9.9.9-nope',
        });
        expect({ status: unknown.status, errors: unknown.body.errors }).toEqual({
          status: 400,
          errors: { version: ['releaseUnknownVersion'] },
        });
        const guard = await manager.b.post('/api/Account/SetCanaryGuard', {
          remote: 'mfe-login',
          minPageLoads: 0,
          minFailureRate: 2,
          ratio: 1,
        });
        expect(Object.keys(guard.body.errors as object).sort()).toEqual(['minFailureRate', 'minPageLoads']);
        await manager.b.agent.get('/api/Account/ReleaseHealth?remote=mfe-login&window=2d').expect(400);
        await manager.b.agent.get('/api/Account/ReleaseHistory?from=2026-13-01').expect(400);
        await manager.b.agent.get('/api/Account/ReleaseHistory?from=2026-02-30').expect(400);
        await manager.b.agent.get('/api/Account/ReleaseHistory?remote=mfe-login&remote=mfe-mfa').expect(400);
      });

      it('refuses a canary or promotion of a build the shell cannot run, naming both versions', async () => {
        const react = shellProvides(SHELL_DIST).react!;
        await gw.store.releases.publish('mfe-login', '2.0.0-react20', {
          contentHash: 'react20',
          files: [releaseFile('remoteEntry.js', '/* react 20 */')],
          publishedAt: gw.clock.now(),
          publishedBy: 'cli:tester',
          requires: { react: '^20.0.0' },
        });
        for (const [call, body] of [
          ['StartCanary', { remote: 'mfe-login', version: '2.0.0-react20', percent: 10 }],
          ['PromoteRelease', { remote: 'mfe-login', version: '2.0.0-react20' }],
        ] as const) {
          const refused = await manager.b.post(`/api/Account/${call}`, body);
          expect(refused.status).toBe(400);
          expect(refused.body.errors).toEqual({
            version: [
              `releaseIncompatible|${JSON.stringify({ remote: 'mfe-login', version: '2.0.0-react20', package: 'react', required: '^20.0.0', provided: react })}`,
            ],
          });
          expect(refused.body.detail).toBe(
            `mfe-login 2.0.0-react20 requires react ^20.0.0; the shell provides react ${react}.`,
          );
        }
        expect((await login()).active).toBe('1.0.0');
      });

      it('ends, promotes, rolls back and sets the guard; what cannot apply is a 409 with its code', async () => {
        expect((await manager.b.post('/api/Account/EndCanary', { remote: 'mfe-login' })).status).toBe(200);
        const again = await manager.b.post('/api/Account/EndCanary', { remote: 'mfe-login' });
        expect({ status: again.status, errors: again.body.errors }).toEqual({
          status: 409,
          errors: { '': ['releaseNoCanary'] },
        });
        const promoted = await manager.b.post('/api/Account/PromoteRelease', {
          remote: 'mfe-login',
          version: '1.1.0',
        });
        expect(promoted.status).toBe(200);
        expect((await login()).versions.find((v) => v.version === '1.1.0')).toMatchObject({
          activatedBy: manager.username,
        });
        const twice = await manager.b.post('/api/Account/PromoteRelease', {
          remote: 'mfe-login',
          version: '1.1.0',
        });
        expect({ status: twice.status, errors: twice.body.errors }).toEqual({
          status: 409,
          errors: { version: ['releaseAlreadyActive'] },
        });
        expect((await manager.b.post('/api/Account/RollBackRelease', { remote: 'mfe-login' })).status).toBe(
          200,
        );
        await gw.releases.refresh();
        expect(await versionFor(10)).toBe('1.0.0');
        const none = await manager.b.post('/api/Account/RollBackRelease', { remote: 'mfe-tenant' });
        expect({ status: none.status, errors: none.body.errors }).toEqual({
          status: 409,
          errors: { '': ['releaseNoEarlierVersion'] },
        });
        const set = await manager.b.post('/api/Account/SetCanaryGuard', {
          remote: 'mfe-login',
          minPageLoads: 20,
          minFailureRate: 0.05,
          ratio: 3,
        });
        expect(set.status).toBe(200);
        expect((await login()).guard).toEqual({ minPageLoads: 20, minFailureRate: 0.05, ratio: 3 });

        const history = releaseHistorySchema.parse(
          (await manager.b.agent.get('/api/Account/ReleaseHistory?remote=mfe-login').expect(200)).body,
        );
        expect(history.events.map((e) => [e.action, e.version, e.actor])).toEqual([
          ['guardChanged', null, manager.username],
          ['rolledBack', '1.0.0', manager.username],
          ['promoted', '1.1.0', manager.username],
          ['canaryEnded', '1.1.0', manager.username],
          ['canaryStarted', '1.1.0', manager.username],
        ]);
        expect(history.events[0]!.figures).toEqual({ minPageLoads: 20, minFailureRate: 0.05, ratio: 3 });
      });

      it('refuses an account without a console grant', async () => {
        expect((await employee.agent.get('/api/Account/Releases')).status).toBe(403);
        const refused = await employee.post('/api/Account/StartCanary', {
          remote: 'mfe-login',
          version: '1.1.0',
          percent: 5,
        });
        expect(refused.status).toBe(403);
        expect((await login()).canary).toBeNull();
      });
    },
  );
}
