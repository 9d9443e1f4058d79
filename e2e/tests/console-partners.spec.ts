/**
 * The console's Partners and Applications pages (issue 52, "Proof"), in Chromium against this worker's gateway: the
 * demo platform administrator signs in with a code, changes the demo partner's colour and logo, sees both in the
 * preview at phone and desktop width, light and dark, before saving, saves with a reason, and a fresh sign-in page
 * (another browser) shows them. A 5 MB logo and an SVG with a script are refused with clear errors on the logo field
 * and nothing is stored. An application made in the console shows its secret once; after a rotation the old secret
 * is refused at the token endpoint and the new one accepted. An application's edit refuses a redirect URI with a
 * fragment on its field and saves a good one; a new upstream provider whose issuer has no discovery document is
 * refused with the discovery's error on the issuer field, and nothing is stored. axe finds nothing on either page,
 * light and dark, left to right and right to left (Arabic, which the demo partner offers for the test).
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import { signInWithCode, withConfirmItsYou } from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';
import {
  DEMO_LANGUAGES,
  DEMO_LANGUAGES_WITH_ARABIC,
  updateDemoPartner,
  waitForPartnerLanguage,
} from '../helpers/partners.js';
import { systemUnderTest } from '../helpers/system.js';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const admin = CONSOLE_USERS.platformadmin;
/** The seeded demo partner's colour (gateway seed), put back after the spec. */
const DEMO_COLOUR = '#1f4e79';
const NEW_COLOUR = '#0a5c36';
const REDIRECT = 'https://e2e-portal.example/callback';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await signInWithCode(page, admin, { returnUrl: '/admin/partners' });
});

test.afterAll(async () => {
  await context?.close();
  // The next spec files of this worker find the demo partner as seeded: its colour, and no logo (first-paint.spec.ts
  // checks the partner's name in the brand band and that a partner without a logo asks for none).
  const { baseUrl, dataDir } = systemUnderTest();
  updateDemoPartner(['--background-color', DEMO_COLOUR, '--logo', 'none'], dataDir);
  // Every replica's partner cache has let go of the logo: the first HTML names no logo again.
  await expect
    .poll(async () => (await (await fetch(`${baseUrl}/account/login`)).text()).includes('GetPartnerLogo'), {
      timeout: 15_000,
    })
    .toBe(false);
});

const preview = (frame: string) =>
  page.getByTestId(`partner-preview-${frame}`).locator('.admin-preview__page');

test('changes the demo partner’s colour and logo, previewed before saving, and a fresh sign-in page shows them', async ({
  browser,
}) => {
  const form = page.getByTestId('partner-form');
  await expect(form).toBeVisible();
  await expectAxeCleanLightAndDark(page);
  await form.getByLabel('Background colour').fill(NEW_COLOUR);
  await form
    .getByTestId('partner-logo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  for (const frame of ['phone-light', 'phone-dark', 'desktop-light', 'desktop-dark']) {
    await expect(preview(frame)).toHaveCSS('background-color', 'rgb(10, 92, 54)');
    await expect(preview(frame).locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  }
  await form.getByTestId('partner-save').click();
  const dialog = page.getByTestId('partner-dialog');
  await dialog.getByLabel('Reason (optional, recorded in the history)').fill('e2e: new brand');
  const result = page.getByTestId('partner-result');
  await withConfirmItsYou(
    page,
    admin,
    () => dialog.getByRole('button', { name: 'Save', exact: true }).click(),
    result.filter({ hasText: 'saved' }),
  );

  // Another browser, a fresh sign-in page: the new colour in the first HTML and the logo from the store.
  const visitor = await browser.newContext();
  const signIn = await visitor.newPage();
  await expect
    .poll(
      async () => {
        await signIn.goto('/account/login');
        return signIn.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue('--partner-background').trim(),
        );
      },
      { timeout: 15_000 },
    )
    .toBe(NEW_COLOUR);
  await expect(signIn.getByTestId('partner-logo')).toBeVisible();
  const logo = await signIn.request.get('/api/Account/GetPartnerLogo?partnerId=demo');
  expect(logo.headers()['content-type']).toMatch(/^image\/png/);
  expect(Buffer.compare(await logo.body(), PNG)).toBe(0);
  await visitor.close();
});

test('refuses a 5 MB logo and an SVG with a script with clear errors, storing nothing', async () => {
  const before = await page.request.get('/api/Account/GetPartnerLogo?partnerId=demo');
  const stored = await before.body();
  const form = page.getByTestId('partner-form');
  const errors = page.getByTestId('partner-logo-errors');
  const tryLogo = async (file: { name: string; mimeType: string; buffer: Buffer }, message: string) => {
    await form.getByTestId('partner-logo').setInputFiles(file);
    await form.getByTestId('partner-save').click();
    await page.getByTestId('partner-dialog').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(errors).toHaveText(message);
  };
  const huge = Buffer.alloc(5 * 1024 * 1024);
  PNG.copy(huge);
  await tryLogo(
    { name: 'huge.png', mimeType: 'image/png', buffer: huge },
    'The logo must be at most 512 KB.',
  );
  await tryLogo(
    {
      name: 'evil.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    },
    'An SVG logo must not contain scripts, event handlers or embedded content.',
  );
  const after = await page.request.get('/api/Account/GetPartnerLogo?partnerId=demo');
  expect(Buffer.compare(await after.body(), stored)).toBe(0);
});

/** The token endpoint's verdict on a client's credentials, with a made-up code (authenticated: invalid_grant). */
async function tokenVerdict(clientId: string, secret: string): Promise<string> {
  const res = await fetch(`${systemUnderTest().baseUrl}/connect/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: REDIRECT }),
  });
  return ((await res.json()) as { error: string }).error;
}

test('shows a new application’s secret once; after a rotation the old one is refused at the token endpoint', async () => {
  const clientId = `e2e-app-${Date.now().toString(36)}`;
  await page.goto('/admin/applications');
  const form = page.getByTestId('new-application');
  await form.getByLabel('Client ID', { exact: true }).fill(clientId);
  await form.getByLabel('Name', { exact: true }).fill('E2E portal');
  await form.getByLabel('Redirect URIs (one per line)', { exact: true }).fill(REDIRECT);
  await form.getByRole('button', { name: 'Add…' }).click();
  const created = form.getByTestId('application-secret');
  await withConfirmItsYou(
    page,
    admin,
    () => page.getByTestId('console-confirm').getByRole('button', { name: 'Add', exact: true }).click(),
    created,
  );
  const first = (await created.textContent())!;
  expect(await tokenVerdict(clientId, first)).toBe('invalid_grant');

  const row = page.getByTestId(`application-${clientId}`);
  await row.getByRole('button', { name: 'Rotate secret…' }).click();
  await page
    .getByTestId('console-confirm')
    .getByLabel('Reason (optional, recorded in the history)')
    .fill('e2e');
  await page.getByTestId('console-confirm').getByRole('button', { name: 'Rotate', exact: true }).click();
  const rotated = row.getByTestId('application-secret');
  await expect(rotated).toBeVisible();
  const second = (await rotated.textContent())!;
  expect(second).not.toBe(first);
  expect(await tokenVerdict(clientId, first)).toBe('invalid_client');
  expect(await tokenVerdict(clientId, second)).toBe('invalid_grant');
  await expectAxeCleanLightAndDark(page);
});

test('edits an application: a redirect URI with a fragment is refused on its field, a good one is saved', async () => {
  const clientId = `e2e-edit-${Date.now().toString(36)}`;
  await page.goto('/admin/applications');
  const create = page.getByTestId('new-application');
  await create.getByLabel('Client ID', { exact: true }).fill(clientId);
  await create.getByLabel('Name', { exact: true }).fill('E2E edited');
  await create.getByLabel('Redirect URIs (one per line)', { exact: true }).fill(REDIRECT);
  await create.getByRole('button', { name: 'Add…' }).click();
  await withConfirmItsYou(
    page,
    admin,
    () => page.getByTestId('console-confirm').getByRole('button', { name: 'Add', exact: true }).click(),
    create.getByTestId('application-secret'),
  );

  const row = page.getByTestId(`application-${clientId}`);
  await row.getByRole('button', { name: 'Edit…' }).click();
  const form = page.getByTestId(`edit-application-${clientId}`);
  const redirects = form.getByLabel('Redirect URIs (one per line)', { exact: true });
  await redirects.fill(`${REDIRECT}\nhttps://e2e-portal.example/other#fragment`);
  await form.getByRole('button', { name: 'Save…' }).click();
  await expect(redirects).toHaveAttribute('aria-invalid', 'true');
  await expect(
    form.getByText('Enter absolute http(s) addresses without a fragment, one per line.'),
  ).toBeVisible();
  await expect(page.getByTestId('console-confirm')).toBeHidden();
  await expectAxeCleanLightAndDark(page);

  await redirects.fill(`${REDIRECT}\nhttps://e2e-portal.example/other`);
  await form.getByRole('button', { name: 'Save…' }).click();
  const dialog = page.getByTestId('console-confirm');
  await dialog.getByLabel('Reason (optional, recorded in the history)').fill('e2e: second redirect');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('applications-saved')).toHaveText('E2E edited saved.');
  const stored = await page.request.get('/api/Account/ConsoleApplications');
  const application = (
    (await stored.json()) as { applications: { clientId: string; redirectUris: string[] }[] }
  ).applications.find((a) => a.clientId === clientId);
  expect(application?.redirectUris).toEqual([REDIRECT, 'https://e2e-portal.example/other']);
});

test('refuses a new upstream provider whose issuer has no discovery document, on the issuer field', async () => {
  const id = `e2e-up-${Date.now().toString(36)}`;
  await page.goto('/admin/applications');
  const form = page.getByTestId('new-upstream');
  // The gateway itself answers 404 at this issuer's /.well-known/openid-configuration.
  const issuer = `${systemUnderTest().baseUrl}/no-such-issuer`;
  await form.getByLabel('Provider ID (part of its callback address)').fill(id);
  await form.getByLabel('Name', { exact: true }).fill('E2E nowhere');
  await form.getByLabel('Issuer', { exact: true }).fill(issuer);
  await form.getByLabel('Client ID at the provider').fill('hr-identity');
  await form.getByLabel('Client secret', { exact: true }).fill('e2e-secret');
  await form.getByLabel('Token endpoint authentication').selectOption('client_secret_post');
  await form.getByRole('button', { name: 'Add…' }).click();
  const field = form.getByLabel('Issuer', { exact: true });
  await withConfirmItsYou(
    page,
    admin,
    () => page.getByTestId('console-confirm').getByRole('button', { name: 'Add', exact: true }).click(),
    form.getByText("The provider's discovery document could not be read:"),
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('console-confirm')).toBeHidden();
  const stored = await page.request.get('/api/Account/ConsoleUpstreams');
  expect(((await stored.json()) as { upstreams: { id: string }[] }).upstreams.map((u) => u.id)).not.toContain(
    id,
  );
  await expectAxeCleanLightAndDark(page);
});

test('axe finds nothing on the partners and applications pages right to left, light and dark', async () => {
  const { baseUrl, dataDir } = systemUnderTest();
  updateDemoPartner(['--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'], dataDir);
  try {
    await waitForPartnerLanguage(baseUrl, 'ar');
    await context.addCookies([
      { name: '.AspNetCore.Culture', value: encodeURIComponent('c=ar|uic=ar'), url: baseUrl },
    ]);
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    for (const path of ['/admin/partners', '/admin/applications']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(
        page.getByTestId(path === '/admin/partners' ? 'partner-form' : 'new-application'),
      ).toBeVisible();
      await expectAxeCleanLightAndDark(page);
    }
  } finally {
    await page.evaluate(() => localStorage.removeItem('locale'));
    updateDemoPartner(['--languages', DEMO_LANGUAGES], dataDir);
    await waitForPartnerLanguage(baseUrl, 'ar', false);
  }
});
