/**
 * Upstream providers as they are in the wild (issue 53, ADR 0064): vendor sign-in, login-provider linking and the
 * upstream sign-out against glewlwyd — a third-party OpenID provider in C that Debian packages, built on none of
 * the libraries the gateway uses — with client ids and secrets containing `-`, `_`, `.` and `~`, through each token
 * endpoint authentication method it supports. Configured with the admin CLI's `idps add` as an operator would.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { glewlwydMissing, startGlewlwyd, type Glewlwyd } from '../helpers/glewlwyd.js';
import { appTookOver } from '../helpers/sign-in.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';

const missing = glewlwydMissing();
test.skip(missing !== undefined, `third-party provider: ${missing ?? ''}`);
test.describe.configure({ mode: 'serial' });

const VERA = {
  username: 'vera.v-1',
  password: 'Vera-pw_1.~x',
  name: 'Vera Vendor',
  email: 'vera@contoso.example',
};
const LEE = { username: 'lee_l.2', password: 'Lee-pw_2.~y', name: 'Lee Linker', email: 'lee@social.example' };
/** One client per method glewlwyd supports, each id and secret with `-`, `_`, `.` and `~`. */
const POST = { clientId: 'hr-identity.post_v~1', clientSecret: 'post-s_e.c~ret' };
const BASIC = { clientId: 'hr-identity.basic_v~1', clientSecret: 'basic-s_e.c~ret' };
const JWT = { clientId: 'hr-identity.jwt_v~1' };
/**
 * glewlwyd does not decode the form-encoded id and secret of client_secret_basic (RFC 6749 §2.3.1 has `-` sent as
 * `%2D`): with BASIC it refuses, as the reporter found; basic works with characters encoding leaves alone.
 */
const BASIC_PLAIN = { clientId: 'hrbasic2', clientSecret: 'basicSecret2' };

let identity: IdentityService;
let glewlwyd: Glewlwyd;
const added: Record<string, string> = {};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  identity = await startIdentityService();
  glewlwyd = await startGlewlwyd({ users: [VERA, LEE] });
  const callback = (id: string) => `${identity.url}/signin/${id}/callback`;
  const loggedOut = [`${identity.url}/account/loggedout`];
  await glewlwyd.addClient({
    ...POST,
    redirectUris: [callback('glw'), callback('glw-social')],
    postLogoutRedirectUris: loggedOut,
    tokenEndpointAuthMethod: 'client_secret_post',
  });
  await glewlwyd.addClient({
    ...BASIC,
    redirectUris: [callback('glw-basic')],
    postLogoutRedirectUris: loggedOut,
    tokenEndpointAuthMethod: 'client_secret_basic',
  });
  await glewlwyd.addClient({
    ...BASIC_PLAIN,
    redirectUris: [callback('glw-plain')],
    postLogoutRedirectUris: loggedOut,
    tokenEndpointAuthMethod: 'client_secret_basic',
  });
  const common = ['--issuer', glewlwyd.issuer];
  // Unset method: discovery lists basic, post, client_secret_jwt, private_key_jwt; post comes first of ours.
  added.glw = runAdmin(
    [
      'idps',
      'add',
      '--id',
      'glw',
      '--name',
      'Glewlwyd Staff',
      ...common,
      '--client-id',
      POST.clientId,
      '--client-secret',
      POST.clientSecret,
      '--vendor',
      '--roles',
      'VENDOR_SUPPORT',
    ],
    identity.env,
  );
  added.social = runAdmin(
    [
      'idps',
      'add',
      '--id',
      'glw-social',
      '--name',
      'Glewlwyd ID',
      ...common,
      '--client-id',
      POST.clientId,
      '--client-secret',
      POST.clientSecret,
      '--partner',
      'demo',
    ],
    identity.env,
  );
  added.basic = runAdmin(
    [
      'idps',
      'add',
      '--id',
      'glw-basic',
      '--name',
      'Glewlwyd Basic',
      ...common,
      '--client-id',
      BASIC.clientId,
      '--client-secret',
      BASIC.clientSecret,
      '--token-auth-method',
      'client_secret_basic',
      '--vendor',
      '--roles',
      'VENDOR_SUPPORT',
    ],
    identity.env,
  );
  added.plain = runAdmin(
    [
      'idps',
      'add',
      '--id',
      'glw-plain',
      '--name',
      'Glewlwyd Plain',
      ...common,
      '--client-id',
      BASIC_PLAIN.clientId,
      '--client-secret',
      BASIC_PLAIN.clientSecret,
      '--token-auth-method',
      'client_secret_basic',
      '--vendor',
      '--roles',
      'VENDOR_SUPPORT',
    ],
    identity.env,
  );
  added.jwt = runAdmin(
    [
      'idps',
      'add',
      '--id',
      'glw-jwt',
      '--name',
      'Glewlwyd Keys',
      ...common,
      '--client-id',
      JWT.clientId,
      '--token-auth-method',
      'private_key_jwt',
      '--vendor',
      '--roles',
      'VENDOR_SUPPORT',
    ],
    identity.env,
  );
  // The JWKS URL the CLI printed is the one registered with the provider.
  const jwksUri = /register its JWKS URL: (\S+)/.exec(added.jwt)?.[1];
  expect(jwksUri).toBe(`${identity.url}/signin/glw-jwt/jwks`);
  await glewlwyd.addClient({
    ...JWT,
    redirectUris: [callback('glw-jwt')],
    postLogoutRedirectUris: loggedOut,
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwksUri: jwksUri!,
  });
  runAdmin(['partners', 'update', '--id', 'demo', '--show-login-providers', 'true'], identity.env);
});

test.afterAll(async () => {
  await glewlwyd?.stop();
  await identity?.stop();
});

/** glewlwyd's own pages: its sign-in form when it has no session, its scope grant the first time, Continue. */
async function passGlewlwyd(page: Page, user: { username: string; password: string }) {
  await expect(page).toHaveURL(new RegExp(`^${glewlwyd.url}/login\\.html`));
  const login = page.getByRole('textbox', { name: 'Login' });
  const grant = page.getByRole('button', { name: 'Grant access' });
  const proceed = page.getByRole('button', { name: 'Continue' });
  await expect(login.or(grant).or(proceed).first()).toBeVisible();
  if (await login.isVisible()) {
    await login.fill(user.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(grant.or(proceed).first()).toBeVisible();
  }
  if (await grant.isVisible()) {
    for (const scope of ['profile', 'email']) {
      const box = page.getByRole('checkbox', { name: scope });
      if (await box.isVisible()) await box.check();
    }
    await grant.click();
  }
  await proceed.click();
  await expect(page).not.toHaveURL(new RegExp(`^${glewlwyd.url}`));
}

async function signedInUser(
  page: Page,
): Promise<{ isAuthenticated: boolean; userName?: string; roles?: string[] }> {
  return (await (await page.request.get(`${identity.url}/api/Account/User`)).json()) as never;
}

/** Signs out here (the account page's sign-out); the question about the upstream follows. */
async function signOutHere(page: Page) {
  await page.goto(`${identity.url}/account/logout`);
  const confirm = page.getByRole('button', { name: 'Yes, sign me out' });
  await expect(confirm.or(page.getByText(/Do you also want to sign out of/)).first()).toBeVisible();
  if (await confirm.isVisible()) await confirm.click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/logout/upstream`));
}

/** Back at the gateway (its home page, the returnUrl), signed in as a vendor account. */
async function expectVendorSignedIn(page: Page) {
  await expect(page).toHaveURL(`${identity.url}/`);
  expect(await signedInUser(page)).toMatchObject({ isAuthenticated: true, roles: ['VENDOR_SUPPORT'] });
}

async function vendorSignIn(page: Page, vendorId: string, name: string) {
  await page.goto(`${identity.url}/account/login/vendor?vendorId=${vendorId}`);
  await appTookOver(page);
  await page.getByRole('button', { name: `Continue to ${name}` }).click();
  await passGlewlwyd(page, VERA);
}

test('the CLI shows the method discovery chose, and the JWKS URL for private_key_jwt', () => {
  expect(added.glw).toContain('token endpoint authentication: client_secret_post (from discovery:');
  expect(added.basic).toContain('token endpoint authentication: client_secret_basic (chosen)');
  expect(added.jwt).toContain('token endpoint authentication: private_key_jwt (chosen)');
  const list = runAdmin(['idps', 'list'], identity.env);
  expect(list).toMatch(/glw\t.*token auth auto \(in use: client_secret_post\)/);
});

test('vendor sign-in through glewlwyd with client_secret_post; upstream sign-out both ways ends at /account/loggedout', async ({
  page,
}) => {
  await vendorSignIn(page, 'glw', 'Glewlwyd Staff');
  await expectVendorSignedIn(page);

  // Signing out: yes, at glewlwyd too — its end_session gets state, client_id and the post-logout address.
  await signOutHere(page);
  const endSession = page.waitForRequest((r) => r.url().startsWith(`${glewlwyd.issuer}/end_session`));
  await page.getByRole('button', { name: 'Yes, sign out of Glewlwyd Staff too' }).click();
  const query = new URL((await endSession).url()).searchParams;
  expect(query.get('state')).toBeTruthy();
  expect(query.get('client_id')).toBe(POST.clientId);
  expect(query.get('post_logout_redirect_uri')).toBe(`${identity.url}/account/loggedout`);
  expect(query.get('id_token_hint')).toBeTruthy();
  // glewlwyd asks its own question, then sends the browser back.
  await expect(page).toHaveURL(new RegExp(`^${glewlwyd.url}/`));
  await expect(page.getByRole('heading', { name: 'End session' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(new RegExp(`^${identity.url}/account/loggedout`));
  expect((await signedInUser(page)).isAuthenticated).toBe(false);

  // The glewlwyd session is over: its form again. Then no: signed out here only, glewlwyd's session stays.
  await vendorSignIn(page, 'glw', 'Glewlwyd Staff');
  expect((await signedInUser(page)).isAuthenticated).toBe(true);
  await signOutHere(page);
  await page.getByRole('button', { name: 'No, stay signed in there' }).click();
  await page.waitForURL(new RegExp(`^${identity.url}/account/loggedout`));
  expect((await signedInUser(page)).isAuthenticated).toBe(false);
});

test('private_key_jwt: glewlwyd reads our JWKS and accepts the signed client assertion', async ({ page }) => {
  const jwks = (await (await page.request.get(`${identity.url}/signin/glw-jwt/jwks`)).json()) as {
    keys: { kty: string; kid: string; alg: string }[];
  };
  expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);
  await vendorSignIn(page, 'glw-jwt', 'Glewlwyd Keys');
  await expectVendorSignedIn(page);
});

test('client_secret_basic: glewlwyd accepts it for an id and secret form encoding leaves alone', async ({
  page,
}) => {
  await vendorSignIn(page, 'glw-plain', 'Glewlwyd Plain');
  await expectVendorSignedIn(page);
});

test('client_secret_basic with form-encoded ids: glewlwyd refuses; the person sees which provider failed, with a reference, and the log and audit keep its error', async ({
  page,
}) => {
  await vendorSignIn(page, 'glw-basic', 'Glewlwyd Basic');
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/error/signin\\?errorId=`));
  await expect(page.getByTestId('error-message')).toHaveText('Signing in with Glewlwyd Basic failed.');
  const reference = await page.getByTestId('error-reference-id').textContent();
  expect(reference).toMatch(/^[0-9A-Z]{16}$/);
  await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute(
    'href',
    /\/account\/login\/vendor\?vendorId=glw-basic/,
  );
  await expect(page.getByRole('link', { name: 'Sign in another way' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  // One warn line with the provider's error, its description and the HTTP status, under the same reference.
  const line = identity.logs!()
    .split('\n')
    .find((l) => l.includes('upstream sign-in refused') && l.includes(reference!));
  expect(line, identity.logs!()).toBeDefined();
  const logged = JSON.parse(line!) as { level: number; error: string; status?: number; provider: string };
  expect(logged).toMatchObject({ level: 40, provider: 'glw-basic' });
  expect(logged.error).toMatch(/^(invalid_client|unauthorized_client|invalid_request)$/);
  expect(logged.status).toBeGreaterThanOrEqual(400);
});

test('login provider: the first sign-in links with the local password, the next needs none', async ({
  page,
  browser,
}) => {
  const local = addUser('glw-linker', [], identity.env);
  await page.goto(`${identity.url}/account/login`);
  await appTookOver(page);
  await page.getByRole('button', { name: /Glewlwyd ID/ }).click();
  await passGlewlwyd(page, LEE);
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/link`));
  await expect(page.getByTestId('external-user')).toHaveText(
    'Glewlwyd ID says you are Lee Linker (lee@social.example).',
  );
  await page.getByRole('textbox', { name: 'Username or email' }).fill(local.username);
  await page.getByLabel('Password', { exact: true }).fill(local.password);
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await expect(page).not.toHaveURL(/\/account\/link/);
  expect(await signedInUser(page)).toMatchObject({ isAuthenticated: true, userName: local.username });

  // Another browser: glewlwyd's sign-in alone signs this account in.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(`${identity.url}/account/login/vendor?vendorId=glw-social`);
  await appTookOver(other);
  await other.getByRole('button', { name: 'Continue to Glewlwyd ID' }).click();
  await passGlewlwyd(other, LEE);
  await expect(other).not.toHaveURL(/\/account\/(link|login)/);
  expect(await signedInUser(other)).toMatchObject({ isAuthenticated: true, userName: local.username });
  await context.close();
});
