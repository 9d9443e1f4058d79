/**
 * Silent sign-in and sign-out (ADR 0020), in Chromium against a gateway of this spec's own (its demo partner gets an
 * idle sign-out, which the shared run must not see) and the demo portal (openid-client):
 * - the partner's idle sign-out signs an idle user out without a prompt and shows the inactivity message; input in
 *   another tab counts; the old session is gone (the browser's clock is Playwright's, so nobody waits a minute);
 * - a remembered user who opens the portal is signed in to it without typing (SilentLogin);
 * - the portal's prompt=none gets login_required without a session and a code with one, never a page.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../helpers/demo-users.js';
import { updateDemoPartner } from '../helpers/partners.js';
import { startIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';
import { appTookOver } from '../helpers/sign-in.js';

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = await startIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
  await identity?.stop();
});

/** The partner metadata the gateway answers now (it caches partners for a few seconds). */
async function idleMinutes(page: Page): Promise<number | undefined> {
  return page.evaluate(async () => {
    const token = /(?:^|;\s*)[^=]*x-csrf-token-value=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const res = await fetch('/api/Account/GetPartnerMetaData', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token-value': decodeURIComponent(token) },
      body: '{}',
    });
    return ((await res.json()) as { idleSignOutMinutes?: number }).idleSignOutMinutes;
  });
}

/** Signs in on the identity service's own sign-in page. */
async function signInOnSite(page: Page, username: string, options: { remember?: boolean } = {}) {
  await page.goto(`${identity.url}/account/login?returnUrl=%2F`);
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  if (options.remember) await page.getByRole('checkbox', { name: 'Remember me' }).check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('You are signed in as Emma Employee.')).toBeVisible();
}

test('the partner idle sign-out signs an idle user out in every tab and shows the inactivity message', async ({
  context,
  page,
}) => {
  test.setTimeout(120_000);
  await context.clock.install();
  await page.goto(`${identity.url}/account/login`);
  updateDemoPartner(['--idle-sign-out-minutes', '1'], identity.env.DATA_DIR!);
  await expect.poll(() => idleMinutes(page), { timeout: 15_000 }).toBe(1);

  // signInOnSite loads the page afresh, so the shell starts with the new setting.
  await signInOnSite(page, 'employee');
  const sessionCookie = (await context.cookies(identity.url)).find((c) => c.name.endsWith('idp.session'));
  expect(sessionCookie).toBeDefined();
  const other = await context.newPage();
  await other.goto(`${identity.url}/`);
  await expect(other.getByText('You are signed in as Emma Employee.')).toBeVisible();

  // Half a minute before the sign-out (a one-minute limit) a warning asks whether anyone is there.
  const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
  // The minute counts from the last input in either tab: one here now, whatever the second tab's load took.
  await page.keyboard.press('Shift');
  await context.clock.fastForward('00:40');
  await expect(warning).toBeVisible();
  await expect(warning.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await expect(warning).toContainText(
    /You will be signed out in \d+ seconds because you have been inactive\./,
  );
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  // Input in the other tab is presence too: the warning goes in this tab as well.
  await other.keyboard.press('Shift');
  await expect(warning).toBeHidden();
  await context.clock.fastForward('00:40');
  await expect(warning).toBeVisible();
  // "Stay signed in" clicked as a person clicks it: the pointer moves there, presses and releases. The dialog stays
  // until the click is done, so the click is the button's, never a link's under it (the home's section links).
  await warning.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(warning).toBeHidden();
  await expect(page).toHaveURL(`${identity.url}/`);
  await context.clock.fastForward('00:40');
  await expect(page.getByText('You are signed in as Emma Employee.')).toBeVisible();
  await expect(page).not.toHaveURL(/loggedout/);

  // A full minute without input anywhere: signed out, no prompt, the inactivity message, in both tabs. Both tabs
  // reach the limit in the same moment; one asks and the other follows it (two calls would renew the cookies under
  // each other and could leave a tab behind on a page of the ended session).
  const silentLogouts: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/Account/SilentLogout') silentLogouts.push(request.url());
  });
  await context.clock.fastForward('00:30');
  await expect(page).toHaveURL(`${identity.url}/account/loggedout?reason=inactivity`);
  await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible();
  await expect(other).toHaveURL(`${identity.url}/account/loggedout?reason=inactivity`);
  await expect(other.getByText('You were signed out after a period of inactivity.')).toBeVisible();
  expect(silentLogouts).toHaveLength(1);

  // The server session is over: the old cookie gets 401, and the browser is anonymous.
  const stale = await fetch(`${identity.url}/api/Account/ProfileImage`, {
    headers: { cookie: `${sessionCookie!.name}=${sessionCookie!.value}` },
  });
  expect(stale.status).toBe(401);
  const me = await page.request.get(`${identity.url}/api/Account/User`);
  expect(await me.json()).toEqual({ isAuthenticated: false });

  updateDemoPartner(['--idle-sign-out-minutes', '0'], identity.env.DATA_DIR!);
});

test('a remembered user opening the portal is signed in to it without typing; prompt=none answers both ways', async ({
  page,
}) => {
  // Without a session, the portal's silent sign-in comes back with login_required, and no page of ours shows.
  const seen: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  await page.goto(`${portal.url}/silent-login`);
  await expect(page.getByText(/login_required/)).toBeVisible();
  expect(seen.some((url) => url.startsWith(`${identity.url}/account/`))).toBe(false);

  // Signed in at the identity service with remember-me (not through the portal).
  await signInOnSite(page, 'employee', { remember: true });

  // The portal's sign-in reaches the sign-in page, whose SilentLogin takes the browser on without the form.
  const silent = page.waitForResponse((r) => r.url().includes('/api/Account/SilentLogin'));
  await page.goto(`${portal.url}/login`);
  expect((await silent).status()).toBe(209);
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');

  // With the session, the portal's prompt=none gets a code: signed in again without any page.
  await page.context().clearCookies({ name: 'portal.session' });
  await page.goto(portal.url);
  await expect(page.locator('#status')).toHaveText('You are signed out');
  seen.length = 0;
  await page.goto(`${portal.url}/silent-login`);
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');
  expect(seen.some((url) => url.startsWith(`${identity.url}/account/`))).toBe(false);
});

test('a user signed in without remember-me meets the choice, not a silent sign-in (shared computer)', async ({
  page,
}) => {
  await signInOnSite(page, 'employee');
  // The sign-in page of an application's sign-in, reached by this browser: SilentLogin declines, the choice shows.
  await page.goto(`${portal.url}/login`);
  await expect(page).toHaveURL(`${portal.url}/`);
  // (Single sign-on within the browser session, as before.) Forcing the sign-in page shows the choice.
  await page.context().clearCookies({ name: 'portal.session' });
  const declined = page.waitForResponse((r) => r.url().includes('/api/Account/SilentLogin'));
  await page.goto(`${identity.url}/account/login?returnUrl=%2Finteraction%2Fnot-a-live-one`);
  await appTookOver(page);
  await expect(page.getByRole('button', { name: 'Sign in as a different user' })).toBeVisible();
  expect(await (await declined).json()).toBe(false);
});
