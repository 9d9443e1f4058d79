/**
 * Two replicas behind nginx on PostgreSQL + Redis, as docs/ops/production.md deploys them (issue 41): a browser
 * signs in through the balancer, the payroll portal's OIDC round trip spans both replicas, a canary published from
 * one replica's CLI is served by both, and then, under a bounded
 * sign-in load, PostgreSQL is restarted, Redis is restarted and a replica is killed. Only the requests in flight
 * fail, as 503 with Retry-After (the killed replica's as nginx's 502), never 500; no replica crashes; no wrong
 * password is ever granted; answers are clean again within 5 s of the dependency's return; each replica logs one
 * line when a dependency goes down and one when it is back, and its /readyz is red meanwhile; a browser signed in
 * before a restart is still signed in after it (S39).
 *
 * PostgreSQL and Redis are the suite's own (started in a temporary folder on free loopback ports), never the
 * machine's services. Skipped, with the reason, when nginx, initdb/pg_ctl or redis-server are missing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { clusterTools, startCluster, waitFor, type Cluster } from '../helpers/cluster.js';
import { DEMO_USERS } from '../helpers/demo-users.js';
import { startPortal, type Portal } from '../helpers/portal.js';
import { appTookOver, signIn } from '../helpers/sign-in.js';
import { runSignInLoad, type CallRecord } from '../helpers/sign-in-load.js';
import { GATEWAY_DIST, REPO } from '../helpers/system.js';

const tools = clusterTools();
test.skip(
  !tools.ok,
  `${tools.ok ? '' : tools.reason}; .ci/run installs nginx from Debian when it runs as root`,
);
test.describe.configure({ mode: 'serial' });

/** How soon after a dependency's return every answer must be clean again. */
const CLEAN_WITHIN_MS = 5000;
const WORKERS = 4;

let cluster: Cluster;
let portal: Portal | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cluster = await startCluster(Number(process.env.E2E_SCALE_PORT));
});

test.afterAll(async () => {
  await portal?.stop();
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readyz(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) })).status;
  } catch {
    return 0;
  }
}

/** How many of a replica's log lines say `message` about `dependency`. */
function logLines(logs: string, message: string, dependency: string): number {
  return logs
    .split('\n')
    .filter((line) => line.includes(`"msg":"${message}"`) && line.includes(`"dependency":"${dependency}"`))
    .length;
}

/**
 * The load's verdict: what failed, and whether each failure is one the outage explains (allowed status, in flight
 * during the window).
 */
function judge(records: CallRecord[], window: { from: number; to: number }, allowed: number[]) {
  const failures = records.filter((r) => !r.ok);
  return {
    total: records.length,
    failures: failures.length,
    serverErrors: records.filter((r) => r.status >= 500 && !allowed.includes(r.status)),
    unexplained: failures.filter(
      // In flight at some moment of the window: ended after it began, started before it closed.
      (r) => !allowed.includes(r.status) || r.endedAt < window.from || r.startedAt > window.to,
    ),
    without503RetryAfter: records.filter((r) => r.status === 503 && r.retryAfter === null),
    wrongfulGrants: records.filter((r) => r.wrongfulGrant),
    cleanAfter: records.filter((r) => r.startedAt > window.to && r.ok).length,
  };
}

test('a browser signs in through the balancer and stays signed in on both replicas', async ({ page }) => {
  await signIn(page, DEMO_USERS.employee);
  // Round-robin without stickiness: consecutive calls land on alternate replicas; all see the one session.
  for (let i = 0; i < 6; i += 1) {
    const user = await page.request.get('/api/Account/User');
    expect(user.status()).toBe(200);
    expect(((await user.json()) as { isAuthenticated: boolean }).isAuthenticated).toBe(true);
  }
});

test('the payroll portal signs a user in with OpenID Connect through the balancer', async ({ page }) => {
  portal = await startPortal({ issuer: cluster.url, gatewayEnv: cluster.replicas[0]!.env });
  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${cluster.url}/account/login`));
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(DEMO_USERS.employee.username);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_USERS.employee.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // authorize, the interaction, token and userinfo went to whichever replica nginx chose.
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');
});

test("a canary published from one replica's CLI is served through the balancer by both replicas", async ({
  page,
  context,
}) => {
  const [first] = cluster.replicas;
  // A new build of mfe-login (one file more than the active one), published and made a canary on replica-1's machine.
  const copy = mkdtempSync(path.join(tmpdir(), 'mfe-login-canary-'));
  let canary = '';
  try {
    cpSync(path.join(REPO, 'mfe-login', 'dist'), copy, { recursive: true });
    writeFileSync(path.join(copy, 'canary.txt'), `canary ${Date.now()}\n`);
    const releases = path.join(GATEWAY_DIST, 'cli', 'releases.js');
    const cli = (args: string[]) => {
      const result = spawnSync(process.execPath, [releases, ...args], { env: first!.env, encoding: 'utf8' });
      expect(result.status, `releases ${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result.stdout;
    };
    canary = /mfe-login (\S+)/.exec(cli(['publish', 'mfe-login', copy]))?.[1] ?? '';
    expect(canary).not.toBe('');
    cli(['canary', 'mfe-login', canary, '50']);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  // Bucket 0 is inside a 50 % canary on every replica (the bucket is the browser's cookie, ADR 0033).
  const host = new URL(cluster.url).hostname;
  await context.addCookies([{ name: 'idp.bucket', value: '0', domain: host, path: '/' }]);
  const servedBy = async (origin: string) => {
    const res = await page.request.get(`${origin}/remotes/manifest.json`);
    return ((await res.json()) as { remotes: Record<string, { version: string }> }).remotes['mfe-login']
      ?.version;
  };
  // Within 3 s on each replica, asked directly, and through the balancer on consecutive (alternating) calls.
  for (const replica of cluster.replicas)
    await expect.poll(() => servedBy(replica.url), { timeout: 3000 }).toBe(canary);
  for (let i = 0; i < 4; i += 1) expect(await servedBy(cluster.url)).toBe(canary);
  // The browser loads the canary's files through the balancer and signs in with it.
  const entry = page.waitForResponse(
    (res) => res.url().includes(`/remotes/mfe-login/${canary}/`) && res.ok(),
  );
  await signIn(page, DEMO_USERS.employee);
  await entry;
});

for (const dependency of ['database', 'redis'] as const) {
  const label = dependency === 'database' ? 'PostgreSQL' : 'Redis';
  const item = dependency === 'database' ? 'S38' : 'S39';
  test(`${item} ${label} restarted under load: only requests in flight fail, as 503 + Retry-After; clean ≤ 5 s after`, async ({
    page,
  }) => {
    const { replicas } = cluster;
    // A browser signed in before the restart (S39: sessions persist, Redis keeps them in its append-only file).
    await signIn(page, DEMO_USERS.employee);
    const logsBefore = replicas.map((r) => r.logs().length);
    const started = Date.now();
    const load = runSignInLoad({
      url: cluster.url,
      workers: WORKERS,
      until: started + 16_000,
      maxLoops: 2000,
      username: DEMO_USERS.employee.username,
      password: DEMO_USERS.employee.password,
      wrongUsername: DEMO_USERS.expired.username,
    });
    await sleep(3000);
    const downAt = Date.now();
    if (dependency === 'database') cluster.postgres.stop();
    else await cluster.redis.stop();
    // /readyz of every replica turns red while the dependency is down.
    await waitFor(
      async () => (await Promise.all(replicas.map((r) => readyz(r.url)))).every((s) => s === 503),
      `both replicas' /readyz to be red without ${label}`,
      5000,
    );
    await sleep(1500);
    if (dependency === 'database') cluster.postgres.start();
    else await cluster.redis.start();
    const backAt = Date.now();
    await waitFor(
      async () => (await Promise.all(replicas.map((r) => readyz(r.url)))).every((s) => s === 200),
      `both replicas' /readyz to be green again after ${label} returned`,
      CLEAN_WITHIN_MS,
    );
    const records = await load;

    const verdict = judge(records, { from: downAt, to: backAt + CLEAN_WITHIN_MS }, [503]);
    test.info().annotations.push({
      type: 'load',
      description: `${verdict.total} calls, ${verdict.failures} failed during the outage (${backAt - downAt} ms)`,
    });
    expect(verdict.serverErrors, 'no 500 or other 5xx than 503').toEqual([]);
    expect(verdict.unexplained, 'failures outside the outage, or not 503').toEqual([]);
    expect(verdict.without503RetryAfter, '503 carries Retry-After').toEqual([]);
    expect(verdict.wrongfulGrants, 'no wrong password granted').toEqual([]);
    expect(verdict.failures, 'the outage was felt by the load').toBeGreaterThan(0);
    expect(verdict.cleanAfter, 'the load ran on after the outage').toBeGreaterThan(10);
    const user = await page.request.get('/api/Account/User');
    expect(((await user.json()) as { isAuthenticated: boolean }).isAuthenticated, 'still signed in').toBe(
      true,
    );
    for (const [i, replica] of replicas.entries()) {
      expect(replica.alive(), `${replica.name} still runs`).toBe(true);
      const logs = replica.logs().slice(logsBefore[i]);
      const key = dependency === 'database' ? 'database' : 'redis';
      expect(
        logLines(logs, 'dependency down', key),
        `${replica.name}: one line when ${label} went down`,
      ).toBe(1);
      expect(logLines(logs, 'dependency recovered', key), `${replica.name}: one line when it was back`).toBe(
        1,
      );
    }
  });
}

test('S40 a replica killed under load: only its requests in flight fail; the other replica answers the rest', async () => {
  const [survivor, victim] = cluster.replicas as [Cluster['replicas'][0], Cluster['replicas'][0]];
  const started = Date.now();
  const load = runSignInLoad({
    url: cluster.url,
    workers: WORKERS,
    until: started + 10_000,
    maxLoops: 2000,
    username: DEMO_USERS.employee.username,
    password: DEMO_USERS.employee.password,
    wrongUsername: DEMO_USERS.expired.username,
  });
  await sleep(3000);
  const killedAt = Date.now();
  victim.process.kill('SIGKILL');
  const records = await load;

  // nginx answers a request the killed replica had received with 502; a new request goes to the other replica.
  const verdict = judge(records, { from: killedAt, to: killedAt + 1000 }, [502]);
  test
    .info()
    .annotations.push({ type: 'load', description: `${verdict.total} calls, ${verdict.failures} failed` });
  expect(verdict.serverErrors, 'no 500 or other 5xx than the 502 of a killed connection').toEqual([]);
  expect(verdict.unexplained, 'failures only around the kill').toEqual([]);
  expect(
    verdict.failures,
    'at most the calls in flight (one per client, two with a reused connection)',
  ).toBeLessThanOrEqual(2 * WORKERS);
  expect(verdict.wrongfulGrants).toEqual([]);
  expect(verdict.cleanAfter).toBeGreaterThan(10);
  expect(survivor.alive()).toBe(true);
  expect(await readyz(survivor.url)).toBe(200);
});
