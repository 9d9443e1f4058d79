/**
 * One-time-token sign-in end to end through real mail (issue 15, ADR 0019): a gateway of the suite's own sends to a
 * real SMTP listener; the person asks on /account/login/ott, reads the code and the link from the mail, and signs in
 * once with the typed code, once with the link; a spent code or link fails, and the link refuses another browser.
 * Then axe-core on the page's two states in light and dark, and the page in all five locales.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { linkIn, startMailCatcher, type MailCatcher, type ReceivedMail } from '../helpers/mail.js';
import { startIdentityService, startPortal, type IdentityService } from '../helpers/portal.js';
import { appTookOver } from '../helpers/sign-in.js';

let mail: MailCatcher;
let identity: IdentityService;

test.beforeAll(async () => {
  mail = await startMailCatcher();
  identity = await startIdentityService({ SMTP_URL: mail.url });
});

test.afterAll(async () => {
  await identity?.stop();
  await mail?.close();
});

const SUBJECT = /^Your .+ sign-in code$/;

/** The page's parts, as a person finds them. */
function ottPage(page: Page) {
  return {
    username: page.getByRole('textbox', { name: 'Username or email' }),
    send: page.getByRole('button', { name: 'Send code' }),
    notice: page.getByText(/^If an account matches, we have sent it an email with a one-time sign-in code/),
    code: page.getByRole('textbox', { name: 'One-time sign-in code' }),
    submit: page.getByRole('button', { name: 'Sign in', exact: true }),
  };
}

async function isSignedIn(page: Page): Promise<boolean> {
  return page.evaluate(
    async () =>
      ((await (await fetch('/api/Account/User')).json()) as { isAuthenticated: boolean }).isAuthenticated,
  );
}

/** Asks for a code on the page (already open) and returns the mail that arrived for it. */
async function askForCode(page: Page, user: DemoUser): Promise<ReceivedMail> {
  const before = mail.received.length;
  const form = ottPage(page);
  await form.username.fill(user.username);
  await form.send.click();
  await expect(form.notice).toBeVisible();
  await expect.poll(() => mail.received.slice(before).some((m) => m.to.includes(user.email))).toBe(true);
  return mail.received.slice(before).find((m) => m.to.includes(user.email) && SUBJECT.test(m.subject))!;
}

const codeIn = (received: ReceivedMail) => /^\s*(\d{6})\s*$/m.exec(received.text)?.[1] ?? '';

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('sign-in page → one-time code by mail → typed code signs in once; the same mail’s link is spent with it', async ({
  page,
}) => {
  const user = addUser('ott-code', [], identity.env);
  await page.goto(`${identity.url}/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await appTookOver(page);
  await page.getByRole('link', { name: 'Email me a one-time sign-in code' }).click();
  await expect(page).toHaveURL(/\/account\/login\/ott\?returnUrl=%2Faccount%2F/);
  // The page is headed with the link's words.
  await expect(page.getByRole('heading', { level: 1, name: 'One-time sign-in code' })).toBeVisible();

  const received = await askForCode(page, user);
  const code = codeIn(received);
  expect(code).toMatch(/^\d{6}$/);
  const link = linkIn(received, `${identity.url}/account/login/ott?token=`);

  // A wrong code first: the field says so and the person can try again.
  const form = ottPage(page);
  await form.code.fill(code === '000000' ? '111111' : '000000');
  await form.submit.click();
  await expect(page.getByText('The code is not valid or has expired. Check it and try again.')).toBeVisible();
  await expect(form.code).toHaveAttribute('aria-invalid', 'true');

  await form.code.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await form.submit.click();
  await expect(page).toHaveURL(`${identity.url}/account/`);
  await expect.poll(() => isSignedIn(page)).toBe(true);

  // Spent: the link of the same mail now fails, in this browser too.
  await page.goto(link);
  await expect(
    page.getByText(
      'This sign-in link is not valid, has expired or has already been used. Ask for a new code.',
    ),
  ).toBeVisible();
  await expect(page).not.toHaveURL(/token=/);
});

test('the mailed link signs in once, only in the browser that asked', async ({ page, browser }) => {
  const user = addUser('ott-link', [], identity.env);
  await page.goto(`${identity.url}/account/login/ott?returnUrl=${encodeURIComponent('/account/')}`);
  await appTookOver(page);
  const link = linkIn(await askForCode(page, user), `${identity.url}/account/login/ott?token=`);

  // Another browser (a phone, a forwarded mail): refused, and the link is not spent by it.
  const elsewhere = await freshPage(browser);
  await elsewhere.goto(link);
  await expect(
    elsewhere.getByText(
      'This sign-in link works only in the browser where the code was asked for. Open it there, or type the code there.',
    ),
  ).toBeVisible();
  expect(await isSignedIn(elsewhere)).toBe(false);
  await elsewhere.context().close();

  // The browser that asked: signed in, at the returnUrl the page had when it asked.
  await page.goto(link);
  await expect(page).toHaveURL(`${identity.url}/account/`);
  await expect.poll(() => isSignedIn(page)).toBe(true);

  // Once only.
  await page.goto(link);
  await expect(
    page.getByText(
      'This sign-in link is not valid, has expired or has already been used. Ask for a new code.',
    ),
  ).toBeVisible();
});

test('an application’s sign-in by mailed link: portal → one-time code page → the link → back in the portal signed in', async ({
  page,
}) => {
  const portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
  try {
    const user = addUser('ott-portal', ['--display-name', 'Olive Onetime'], identity.env);
    await page.goto(portal.url);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
    await appTookOver(page);
    await page.getByRole('link', { name: 'Email me a one-time sign-in code' }).click();
    // The application's interaction is the page's returnUrl, kept with the token: the link carries none.
    await expect(page).toHaveURL(/\/account\/login\/ott\?returnUrl=%2Finteraction%2F/);
    const link = linkIn(await askForCode(page, user), `${identity.url}/account/login/ott?token=`);
    expect(link).not.toContain('returnUrl');
    await page.goto(link);
    await expect(page).toHaveURL(`${portal.url}/`);
    await expect(page.locator('#status')).toContainText('Signed in as');
    await expect(page.locator('#user-name')).toHaveText('Olive Onetime');
  } finally {
    await portal.stop();
  }
});

test('support’s link from the admin CLI signs in once in any browser', async ({ page }) => {
  const user = addUser('ott-cli', [], identity.env);
  const printed = runAdmin(['ott', 'issue', '--username', user.username, '--minutes', '5'], identity.env);
  // The first line is the link, on PUBLIC_URL (the CLI reads the server's configuration).
  const link = printed.split('\n')[0]!;
  expect(link).toMatch(new RegExp(`^${identity.url}/account/login/ott\\?token=[\\w-]{43}$`));
  await page.goto(link);
  await expect(page).not.toHaveURL(/\/account\/login/);
  await expect.poll(() => isSignedIn(page)).toBe(true);
  await page.context().clearCookies();
  await page.goto(link);
  await expect(
    page.getByText(
      'This sign-in link is not valid, has expired or has already been used. Ask for a new code.',
    ),
  ).toBeVisible();
  expect(() => runAdmin(['ott', 'issue', '--username', 'nobody-at-all'], identity.env)).toThrow(
    /no user "nobody-at-all"/,
  );
});

test('axe-core finds nothing on the page, asking and entering the code, in light and dark', async ({
  page,
}) => {
  const user = addUser('ott-axe', [], identity.env);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${identity.url}/account/login/ott`);
    await appTookOver(page);
    await expect(ottPage(page).send).toBeVisible();
    const asking = await new AxeBuilder({ page }).analyze();
    expect(asking.violations.map((v) => `${colorScheme} ask: ${v.id}`)).toEqual([]);
    await askForCode(page, user);
    await expect(ottPage(page).code).toBeFocused();
    const entering = await new AxeBuilder({ page }).analyze();
    expect(entering.violations.map((v) => `${colorScheme} code: ${v.id}`)).toEqual([]);
  }
});

const LOCALES = [
  { locale: 'en-GB', title: 'One-time sign-in code', send: 'Send code', code: 'One-time sign-in code' },
  { locale: 'en', title: 'One-time sign-in code', send: 'Send code', code: 'One-time sign-in code' },
  { locale: 'de', title: 'Einmal-Anmeldecode', send: 'Code senden', code: 'Einmal-Anmeldecode' },
  {
    locale: 'fr-CA',
    title: 'Code de connexion à usage unique',
    send: 'Envoyer le code',
    code: 'Code de connexion à usage unique',
  },
  {
    locale: 'es',
    title: 'Código de inicio de sesión de un solo uso',
    send: 'Enviar código',
    code: 'Código de inicio de sesión de un solo uso',
  },
];

for (const { locale, title, send, code } of LOCALES) {
  test(`the page in ${locale}`, async ({ page }) => {
    const user = addUser(`ott-${locale}`, [], identity.env);
    await page.addInitScript((value) => localStorage.setItem('locale', value), locale);
    await page.goto(`${identity.url}/account/login/ott`);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await appTookOver(page);
    await page.locator('input[name="username"]').fill(user.username);
    await page.getByRole('button', { name: send }).click();
    await expect(page.getByRole('textbox', { name: code })).toBeVisible();
    // The mail speaks the page's language too (the subject names the partner either way).
    const received = await mail.waitFor(user.email, /.+/);
    expect(codeIn(received)).toMatch(/^\d{6}$/);
    if (locale === 'de') expect(received.subject).toMatch(/^Ihr Anmeldecode für /);
  });
}
