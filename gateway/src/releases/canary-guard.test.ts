import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeReleases } from '../testing/releases.js';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { CanaryGuard } from './canary-guard.js';
import { createReleaseService, type ReleaseService } from './release-service.js';

const cli = { actor: 'cli:tester', userId: null, reason: null };

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the canary guard on a running gateway', () => {
  let gw: TestGateway;
  let service: ReleaseService;
  let guard: CanaryGuard;
  beforeAll(async () => {
    gw = await startTestGateway();
    await storeReleases(
      gw.store,
      gw.releases,
      'mfe-login',
      { active: '1.0.0', previous: [], canary: undefined },
      ['1.0.0', '1.1.0', '1.2.0'],
    );
    service = createReleaseService(gw.store, gw.shellDist, () => gw.clock.now());
    await service.setGuard('mfe-login', { minPageLoads: 10, minFailureRate: 0.02, ratio: 2 }, cli);
    guard = new CanaryGuard({
      releases: gw.store.releases,
      health: gw.store.releaseHealth,
      service,
      intervalMs: 50,
    }).start();
  });
  afterAll(async () => {
    await guard?.stop();
    await gw?.close();
  });

  const versionFor = async (bucket: number) =>
    (
      (await request(gw.app).get('/remotes/manifest.json').set('Cookie', `idp.bucket=${bucket}`)).body as {
        remotes: Record<string, { version: string }>;
      }
    ).remotes['mfe-login']?.version;

  /** Page loads of the sign-in page in one bucket, each with `errors` client error reports of mfe-login. */
  async function loads(bucket: number, count: number, errors: number) {
    for (let i = 0; i < count; i++) {
      await request(gw.app).get('/account/login').set('Cookie', `idp.bucket=${bucket}`).expect(200);
      for (let e = 0; e < errors; e++)
        await request(gw.app)
          .post('/api/ops/client-errors')
          .set('Cookie', `idp.bucket=${bucket}`)
          .set('X-Forwarded-For', `10.9.${bucket}.${i}`)
          .send({
            message: 'render failed',
            url: 'http://localhost/account/login',
            kind: 'boundary',
            origin: 'mfe-login',
          })
          .expect(202);
    }
    await gw.healthCounts.flush();
  }

  /** mfe-login's canary once the guard running in the background has ended it (or as it is after 5 s). */
  const canaryOnceEnded = () =>
    waitFor(
      async () => (await service.read()).remotes['mfe-login']?.canary,
      (canary) => canary === undefined,
      5000,
    );

  it('ends a canary whose pages fail; its browsers get the active version on their next load', async () => {
    await service.canary('mfe-login', '1.1.0', 50, cli);
    await gw.releases.refresh();
    expect(await versionFor(10)).toBe('1.1.0');
    await loads(70, 10, 0);
    await loads(10, 10, 1);
    expect(await canaryOnceEnded()).toBeUndefined();
    await gw.releases.refresh();
    expect(await versionFor(10)).toBe('1.0.0');
    const [event] = await service.history({ remote: 'mfe-login' });
    expect(event).toMatchObject({
      action: 'canaryEndedByGuard',
      version: '1.1.0',
      actor: 'guard',
      figures: { canaryPageLoads: 10, canaryFailures: 10, canaryFailureRate: 1, activeFailureRate: 0 },
    });
  });

  it('leaves an equally loaded healthy canary alone', async () => {
    await service.canary('mfe-login', '1.2.0', 50, cli);
    await loads(10, 10, 0);
    await loads(70, 10, 0);
    expect(await guard.check()).toEqual([]);
    expect((await service.read()).remotes['mfe-login']?.canary).toEqual({ version: '1.2.0', percent: 50 });
    expect((await service.history({ remote: 'mfe-login' }))[0]).toMatchObject({ action: 'canaryStarted' });
  });

  it('judges a canary started again within the minute by what came after its start, not the minute before', async () => {
    // The clock stands still: the first test's 10 failing loads of 1.1.0 are in this very minute's counts.
    await service.canary('mfe-login', '1.1.0', 50, cli);
    await gw.releases.refresh();
    expect(await versionFor(10)).toBe('1.1.0');
    expect(await guard.check()).toEqual([]);
    expect((await service.read()).remotes['mfe-login']?.canary).toEqual({ version: '1.1.0', percent: 50 });

    await loads(10, 10, 0);
    expect(await guard.check()).toEqual([]);
    expect((await service.read()).remotes['mfe-login']?.canary).toEqual({ version: '1.1.0', percent: 50 });

    await loads(10, 10, 1);
    expect(await canaryOnceEnded()).toBeUndefined();
    const [event] = await service.history({ remote: 'mfe-login' });
    expect(event).toMatchObject({
      action: 'canaryEndedByGuard',
      version: '1.1.0',
      figures: { canaryPageLoads: 20, canaryFailures: 10, canaryFailureRate: 0.5, activePageLoads: 0 },
    });
  });
});
