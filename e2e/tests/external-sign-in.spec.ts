/**
 * Vendor and external sign-in through a second, real OpenID Connect provider (ADR 0018): Chromium, a gateway of
 * the suite's own (its demo partner shows login providers), the demo payroll portal, and the tests' upstream
 * provider in a process of its own on 127.0.0.1 (another site than the gateway's localhost), configured with the
 * admin CLI's `idps add` as an operator would.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { appTookOver } from '../helpers/sign-in.js';
import { startIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SECRET = 'e2e-upstream-client-secret';

let identity: IdentityService;
let upstream: Upstream;
let portal: Portal;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  identity = await startIdentityService();
  upstream = await startUpstream({
    title: 'Contoso ID',
    clients: [
      {
        clientId: 'hr-identity',
        clientSecret: SECRET,
        redirectUris: ['contoso', 'social'].map((id) => `${identity.url}/signin/${id}/callback`),
        postLogoutRedirectUris: [`${identity.url}/account/loggedout`],
      },
    ],
    users: [
      {
        username: 'vera',
        password: 'vera-pw',
        sub: 'sub-vera',
        name: 'Vera Vendor',
        email: 'vera@contoso.example',
      },
      {
        username: 'lee',
        password: 'lee-pw',
        sub: 'sub-lee',
        name: 'Lee Linker',
        email: 'lee@social.example',
      },
    ],
  });
  const common = ['--issuer', upstream.issuer, '--client-id', 'hr-identity', '--client-secret', SECRET];
  runAdmin(
    [
      'idps',
      'add',
      '--id',
      'contoso',
      '--name',
      'Contoso Support',
      ...common,
      '--vendor',
      '--roles',
      'VENDOR_SUPPORT,VENDOR_OPERATIONS',
    ],
    identity.env,
  );
  runAdmin(
    ['idps', 'add', '--id', 'social', '--name', 'Social ID', ...common, '--partner', 'demo'],
    identity.env,
  );
  runAdmin(['partners', 'update', '--id', 'demo', '--show-login-providers', 'true'], identity.env);
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
  await upstream?.stop();
  await identity?.stop();
});

/** The upstream's own sign-in form. */
async function signInAtUpstream(page: Page, username: string, password: string) {
  await expect(page).toHaveURL(new RegExp(`^${upstream.issuer}/interaction/`));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in to Contoso ID' }).click();
}

/** No axe-core violations on the page as it is now. */
async function expectAccessible(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

async function signedInUser(page: Page): Promise<{ isAuthenticated: boolean; userName?: string }> {
  return (await (await page.request.get(`${identity.url}/api/Account/User`)).json()) as never;
}

test("vendor sign-in through the upstream lands in the portal with the vendor's roles; sign-out reaches the upstream and comes back", async ({
  page,
}) => {
  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  const returnUrl = new URL(page.url()).searchParams.get('returnUrl') ?? '';
  expect(returnUrl).toMatch(/^\/interaction\//);
  await appTookOver(page);

  // The vendor's own sign-in page (the address a vendor's staff are given).
  await page.goto(
    `${identity.url}/account/login/vendor?vendorId=contoso&returnUrl=${encodeURIComponent(returnUrl)}`,
  );
  await expect(page.getByRole('heading', { name: 'Vendor sign-in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to Contoso Support' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue to Contoso Support' }).click();
  await signInAtUpstream(page, 'vera', 'vera-pw');

  // Back in the portal with the vendor's roles in the ID token.
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Vera Vendor');
  await expect(page.locator('#user-roles li')).toHaveText(['VENDOR_SUPPORT', 'VENDOR_OPERATIONS']);

  // Signing out from the portal: the identity service asks about the upstream; yes goes there and comes back.
  const endSession = page.waitForRequest((r) => r.url().startsWith(`${upstream.issuer}/session/end`));
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/logout/upstream`));
  await expect(
    page.getByText('You signed in through Contoso Support. Do you also want to sign out of Contoso Support?'),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Yes, sign out of Contoso Support too' }).click();
  const request = await endSession;
  const query = new URL(request.url()).searchParams;
  expect(query.get('post_logout_redirect_uri')).toBe(`${identity.url}/account/loggedout`);
  expect(query.get('id_token_hint')).toBeTruthy();
  await page.getByRole('button', { name: 'Continue' }).click();
  // /account/loggedout, then on to the portal that started the sign-out.
  await page.waitForURL(new RegExp(`^${identity.url}/account/loggedout`));
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // The upstream session is over too: the next vendor sign-in shows the upstream's form again.
  await page.goto(`${identity.url}/account/login/vendor?vendorId=contoso`);
  await page.getByRole('button', { name: 'Continue to Contoso Support' }).click();
  await expect(page).toHaveURL(new RegExp(`^${upstream.issuer}/interaction/`));
});

test('first upstream sign-in → link with the local password → next time no password', async ({
  page,
  browser,
}) => {
  const local = addUser('linker', [], identity.env);
  await page.goto(`${identity.url}/account/login`);
  await appTookOver(page);
  // One press on the sign-in page's provider button goes to the upstream (no stop at the vendor page).
  await page.getByRole('button', { name: 'Sign in with Social ID' }).click();
  await signInAtUpstream(page, 'lee', 'lee-pw');

  // Not linked yet: who the upstream says this is, and the local account's username and password.
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/link`));
  await expect(page.getByTestId('external-user')).toHaveText(
    'Social ID says you are Lee Linker (lee@social.example).',
  );
  await expectAccessible(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(local.username);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect((await signedInUser(page)).isAuthenticated).toBe(false);
  await page.getByLabel('Password', { exact: true }).fill(local.password);
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await expect(page).not.toHaveURL(/\/account\/link/);
  expect(await signedInUser(page)).toMatchObject({ isAuthenticated: true, userName: local.username });

  // The account page lists the link; unlinking and linking again (EexLink: a trip to the upstream and back).
  await page.goto(`${identity.url}/account/`);
  await expect(page.getByText('Social ID: linked. You can sign in with it.')).toBeVisible();
  await expectAccessible(page);
  // Unlinking asks first, naming the provider (issue 49); Cancel keeps the link.
  await page.getByRole('button', { name: 'Unlink Social ID' }).click();
  const unlinkDialog = page.getByRole('alertdialog', { name: 'Unlink your Social ID account?' });
  await unlinkDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(unlinkDialog).toBeHidden();
  await expect(page.getByText('Social ID: linked. You can sign in with it.')).toBeVisible();
  await page.getByRole('button', { name: 'Unlink Social ID' }).click();
  await unlinkDialog.getByRole('button', { name: 'Unlink', exact: true }).click();
  await expect(page.getByTestId('linked-accounts-status')).toHaveText('Unlinked Social ID.');
  await expect(page.getByText('Social ID: not linked.')).toBeVisible();
  await page.getByRole('button', { name: 'Link Social ID' }).click();
  // The upstream still has its session: it sends the browser straight back to the account page.
  await expect(page).toHaveURL(`${identity.url}/account/`);
  await expect(page.getByText('Social ID: linked. You can sign in with it.')).toBeVisible();

  // Another browser: the upstream's sign-in alone signs this account in, no local password.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(`${identity.url}/account/login/vendor?vendorId=social`);
  await other.getByRole('button', { name: 'Continue to Social ID' }).click();
  await signInAtUpstream(other, 'lee', 'lee-pw');
  await expect(other).not.toHaveURL(new RegExp(`^${upstream.issuer}`));
  await expect(other).not.toHaveURL(/\/account\/(link|login)/);
  expect(await signedInUser(other)).toMatchObject({ isAuthenticated: true, userName: local.username });
  await context.close();
});
