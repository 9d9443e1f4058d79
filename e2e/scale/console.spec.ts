/**
 * The releases console on two replicas behind nginx (issue 51, "Proof"; the cluster of helpers/cluster.ts, as
 * replicas.spec.ts): the release manager signs in through the balancer with a code and starts a 50 % canary of a new
 * mfe-login build with the console's call on replica 1; replica 2 serves it and its console lists it within 3 s.
 * Then page loads of /account/login in the canary's bucket, some on each replica, are counted once each in the shared
 * store: ReleaseHealth asked of either replica shows their sum for the canary version.
 *
 * Skipped, with the reason, when nginx, initdb/pg_ctl or redis-server are missing.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { clusterTools, startCluster, type Cluster, type Replica } from '../helpers/cluster.js';
import { consoleCall, signInWithCode } from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';
import { publishVariant } from '../helpers/variant-builds.js';

const tools = clusterTools();
test.skip(
  !tools.ok,
  `${tools.ok ? '' : tools.reason}; .ci/run installs nginx from Debian when it runs as root`,
);
test.describe.configure({ mode: 'serial' });

/** A bucket inside a 50 % canary, and how many page loads each replica serves in it. */
const CANARY_BUCKET = 10;
const LOADS_PER_REPLICA = 3;

let cluster: Cluster;
let canary = '';
/** The release manager's console on each replica (one browser, one session: the cookie is the host's). */
const consoles = new Map<string, Page>();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  cluster = await startCluster(Number(process.env.E2E_SCALE_PORT));
  const [first] = cluster.replicas;
  canary = await publishVariant('new', { env: first!.env });
  const page = await (await browser.newContext()).newPage();
  await signInWithCode(page, CONSOLE_USERS.releasemanager, {
    baseUrl: cluster.url,
    dataDir: first!.env.DATA_DIR,
  });
  for (const replica of cluster.replicas) {
    const tab = await page.context().newPage();
    await tab.goto(`${replica.url}/admin/releases`);
    consoles.set(replica.name, tab);
  }
});

test.afterAll(async () => {
  await [...consoles.values()][0]?.context().close();
  await cluster?.stop();
});

const consoleOn = (replica: Replica) => consoles.get(replica.name)!;

/** mfe-login's version the replica serves a browser in `bucket`. */
async function servedBy(replica: Replica, bucket: number): Promise<string> {
  const res = await fetch(`${replica.url}/remotes/manifest.json`, {
    headers: { cookie: `idp.bucket=${bucket}` },
  });
  return ((await res.json()) as { remotes: Record<string, { version: string }> }).remotes['mfe-login']!
    .version;
}

async function canaryListedBy(replica: Replica): Promise<string | null> {
  const answer = await consoleCall(consoleOn(replica), 'Releases');
  expect(answer.status).toBe(200);
  const remotes = (answer.body as { remotes: { id: string; canary: { version: string } | null }[] }).remotes;
  return remotes.find((remote) => remote.id === 'mfe-login')?.canary?.version ?? null;
}

async function canaryPageLoadsSeenBy(replica: Replica): Promise<number> {
  const answer = await consoleCall(consoleOn(replica), 'ReleaseHealth', {
    remote: 'mfe-login',
    window: '15m',
  });
  expect(answer.status).toBe(200);
  const versions = (answer.body as { versions: { version: string; pageLoads: number }[] }).versions;
  return versions.find((health) => health.version === canary)?.pageLoads ?? 0;
}

/** `count` loads of /account/login on `replica` itself by a browser in the canary's bucket. */
async function loadsOn(browser: Browser, replica: Replica, count: number) {
  const context = await browser.newContext();
  try {
    await context.addCookies([{ name: 'idp.bucket', value: String(CANARY_BUCKET), url: replica.url }]);
    for (let i = 0; i < count; i += 1) {
      const page = await context.newPage();
      const entry = page.waitForResponse((res) => res.url().includes(`/remotes/mfe-login/${canary}/`));
      await page.goto(`${replica.url}/account/login`);
      await entry;
      await page.close();
    }
  } finally {
    await context.close();
  }
}

test('a canary started in the console on one replica is served and listed by the other within 3 s', async () => {
  const [first, second] = cluster.replicas;
  const started = await consoleCall(consoleOn(first!), 'StartCanary', {
    remote: 'mfe-login',
    version: canary,
    percent: 50,
    reason: 'e2e: scale',
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await expect.poll(() => servedBy(second!, CANARY_BUCKET), { timeout: 3000 }).toBe(canary);
  await expect.poll(() => canaryListedBy(second!), { timeout: 3000 }).toBe(canary);
  expect(await servedBy(first!, CANARY_BUCKET)).toBe(canary);
});

test("page loads on both replicas are counted together: either replica's ReleaseHealth shows the sum", async ({
  browser,
}) => {
  const [first, second] = cluster.replicas;
  for (const replica of [first!, second!]) expect(await canaryPageLoadsSeenBy(replica)).toBe(0);
  for (const replica of [first!, second!]) await loadsOn(browser, replica, LOADS_PER_REPLICA);
  // Each replica flushes its counts to the shared store every few seconds.
  for (const replica of [first!, second!])
    await expect
      .poll(() => canaryPageLoadsSeenBy(replica), { timeout: 20_000, intervals: [500] })
      .toBe(2 * LOADS_PER_REPLICA);
});
