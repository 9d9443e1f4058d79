/**
 * The Partners console on two replicas behind nginx (issue 52, "Proof"; the cluster of helpers/cluster.ts): the
 * platform administrator signs in through the balancer with a code and changes the demo partner's colour with the
 * console's call on replica 1; a fresh sign-in page from replica 2 shows it within the config cache's few seconds
 * (ADR 0062). The colour is put back the same way through replica 2, and replica 1 shows that.
 *
 * Skipped, with the reason, when nginx, initdb/pg_ctl or redis-server are missing.
 */
import { expect, test, type Page } from '@playwright/test';
import { clusterTools, startCluster, type Cluster, type Replica } from '../helpers/cluster.js';
import { consoleCall, signInWithCode } from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';

const tools = clusterTools();
test.skip(
  !tools.ok,
  `${tools.ok ? '' : tools.reason}; .ci/run installs nginx from Debian when it runs as root`,
);
test.describe.configure({ mode: 'serial' });

const DEMO_COLOUR = '#1f4e79';
const NEW_COLOUR = '#7a1f5c';

let cluster: Cluster;
/** The platform administrator's console on each replica (one browser, one session). */
const consoles = new Map<string, Page>();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  cluster = await startCluster(Number(process.env.E2E_SCALE_PORT));
  const [first] = cluster.replicas;
  const page = await (await browser.newContext()).newPage();
  await signInWithCode(page, CONSOLE_USERS.platformadmin, {
    baseUrl: cluster.url,
    dataDir: first!.env.DATA_DIR,
    returnUrl: '/admin/partners',
  });
  for (const replica of cluster.replicas) {
    const tab = await page.context().newPage();
    await tab.goto(`${replica.url}/admin/partners`);
    consoles.set(replica.name, tab);
  }
});

test.afterAll(async () => {
  await [...consoles.values()][0]?.context().close();
  await cluster?.stop();
});

/** The first HTML of a fresh sign-in page from `replica`: whether it carries `colour`. */
async function signInPageShows(replica: Replica, colour: string): Promise<boolean> {
  return (await (await fetch(`${replica.url}/account/login`)).text()).includes(colour);
}

async function setColour(replica: Replica, colour: string) {
  const answer = await consoleCall(consoles.get(replica.name)!, 'UpdatePartner', {
    id: 'demo',
    backgroundColor: colour,
    reason: 'e2e: scale',
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

test('a colour saved in the console on one replica shows on a fresh sign-in page of the other', async () => {
  const [first, second] = cluster.replicas;
  expect(await signInPageShows(second!, DEMO_COLOUR)).toBe(true);
  await setColour(first!, NEW_COLOUR);
  await expect.poll(() => signInPageShows(first!, NEW_COLOUR), { timeout: 2_000 }).toBe(true);
  await expect.poll(() => signInPageShows(second!, NEW_COLOUR), { timeout: 10_000 }).toBe(true);
  await setColour(second!, DEMO_COLOUR);
  await expect.poll(() => signInPageShows(first!, DEMO_COLOUR), { timeout: 10_000 }).toBe(true);
});
