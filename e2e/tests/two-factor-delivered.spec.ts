/**
 * The SMS code and the e-mailed PIN, end to end: a gateway of the suite's own texts through SMS_WEBHOOK_URL to the
 * test's HTTP receiver and mails through SMTP_URL to a real SMTP listener. Users of the suite's own (2FA required)
 * set the method up in the wizard at sign-in, then sign in with it: the SMS code read from the receiver, the PIN's
 * digits read from the mail at the positions the page asks for after one reshuffle. Opening the 2FA page texts and
 * mails nothing (issue 43): a code goes out only on "Send code"/"Send PIN", one per press, and the quiet "Send a new
 * code" link texts another after the server's wait. A partner that allows it offers "remember this browser", and the
 * next sign-in in that browser asks for no code. No axe violations, light and dark.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PIN_ASKED_DIGITS } from 'shared-contracts';
import { addUser, runAdmin } from '../helpers/admin.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { startMailCatcher, type MailCatcher } from '../helpers/mail.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';
import { twoFactorPages } from '../helpers/two-factor.js';

// Wizards, sign-ins, axe runs and (SMS) the server's 30 s wait before a resend, on a busy two-core machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

/** A text as the SMS provider received it. */
interface Text {
  to: string;
  text: string;
}

let mail: MailCatcher;
let identity: IdentityService;
let receiver: Server;
const texts: Text[] = [];

test.beforeAll(async () => {
  // Starting the suite's own gateway takes longer than the default on a busy two-core machine.
  test.setTimeout(120_000);
  mail = await startMailCatcher();
  // The test's SMS provider: answers 202 to each `{to, text}` the gateway posts, and keeps it for the test to read.
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      texts.push(JSON.parse(body) as Text);
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  identity = await startIdentityService({
    SMTP_URL: mail.url,
    SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/sms`,
  });
});

test.afterAll(async () => {
  await identity?.stop();
  await mail?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function expectNoAxeViolations(page: Page, label: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${label} (${scheme})`,
    ).toEqual([]);
  }
}

/** Signs in with the password on the suite's gateway; the page then shows the next step. */
async function passwordSignIn(page: Page, user: DemoUser) {
  await page.context().clearCookies();
  await page.goto(`${identity.url}/account/login?returnUrl=%2Faccount%2F`);
  await appTookOver(page);
  const form = signInPage(page);
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();
}

/** PIN mails to `to` among the mails from `count` on. */
function pinMailsTo(count: number, to: string) {
  return mail.received.slice(count).filter((m) => m.to.includes(to) && /sign-in PIN$/.test(m.subject));
}

/**
 * The 2FA page has opened and settled (its calls answered, a moment for any late one): the listeners have received
 * no text and no mail since `since` (issue 43: opening the page sends nothing; the specs here run one at a time).
 */
async function nothingSentOnOpen(page: Page, since: { texts: number; mails: number }) {
  // Not 'networkidle': in CI it never came and the test timed out (the Exchange answer after the password was left
  // unread, keeping its request open; fixed, but idle-network waits stay brittle). The page has drawn its method
  // from the calls' answers; a text or mail any of them caused would reach the local listeners well inside two
  // seconds.
  await page.waitForTimeout(2000);
  expect(texts.slice(since.texts)).toEqual([]);
  expect(mail.received.slice(since.mails).map((m) => m.subject)).toEqual([]);
}

/** The newest text to `to` after `count` texts had arrived. */
async function textAfter(count: number, to: string): Promise<string> {
  await expect.poll(() => texts.slice(count).filter((t) => t.to === to).length).toBeGreaterThan(0);
  const text = texts
    .slice(count)
    .filter((t) => t.to === to)
    .at(-1)!;
  return /\b(\d{6})\b/.exec(text.text)![1]!;
}

/** The PIN in the newest PIN mail to `to` after `count` mails had arrived. */
async function pinAfter(count: number, to: string): Promise<string> {
  await expect.poll(() => pinMailsTo(count, to).length).toBeGreaterThan(0);
  return /^\s*(\d{8})\s*$/m.exec(pinMailsTo(count, to).at(-1)!.text)![1]!;
}

/** The digits of `pin` the label "Enter digits 2, 5 and 7 of your PIN" asks for. */
async function askedDigits(page: Page, pin: string): Promise<{ label: string; digits: string }> {
  const field = page.getByLabel(/^Enter digits .+ of your PIN$/);
  await expect(field).toBeVisible();
  const label = (await page
    .locator('label', { hasText: /^Enter digits/ })
    .first()
    .textContent())!.trim();
  const positions = (/^Enter digits (.+) of your PIN/.exec(label)![1]!.match(/\d+/g) ?? []).map(Number);
  expect(positions).toHaveLength(PIN_ASKED_DIGITS);
  return { label, digits: positions.map((p) => pin[p - 1]).join('') };
}

/** The wizard's last steps: recovery codes stored, Finish, signed in at /account/. */
async function finishWizard(page: Page) {
  const { wizard } = twoFactorPages(page);
  await expect(wizard.codes).toHaveCount(10);
  await wizard.stored.check();
  await wizard.continue.click();
  await expect(page.getByText('Two-step verification is set up')).toBeVisible();
  await wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
}

async function signedInAs(page: Page, username: string) {
  const me: unknown = await page.evaluate(
    async () => (await fetch('/api/Account/User')).json() as Promise<unknown>,
  );
  expect(me).toMatchObject({ isAuthenticated: true, userName: username });
}

/** Goes through the wizard at sign-in with SMS (a wrong number first, then `phone`); ends signed in. */
async function setUpSms(page: Page, user: DemoUser, phone: string, checkA11y = false) {
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  await page.getByRole('radio', { name: 'Text message (SMS)' }).check();
  await twoFactorPages(page).wizard.next.click();
  await expect(page.getByRole('heading', { name: 'Set up codes by text message (SMS)' })).toBeVisible();
  const field = page.getByRole('textbox', { name: 'Mobile number' });
  await field.fill('07700 900123');
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(
    page.getByText('Enter the phone number with its country code, for example +44 7700 900123.'),
  ).toBeVisible();
  const count = texts.length;
  await field.fill(phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByText(`We sent a code to •••• ${phone.slice(-4)}.`)).toBeVisible();
  if (checkA11y) await expectNoAxeViolations(page, 'wizard: SMS');
  const setupCode = await textAfter(count, phone.replace(/\s/g, ''));
  await page.getByLabel('6-digit code from the text message (SMS)').fill(setupCode);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await finishWizard(page);
}

test('SMS: the phone is verified in the wizard; the 2FA page texts nothing until "Send code", then one code; the resend link texts another', async ({
  page,
}) => {
  const user = addUser('sms', ['--require-2fa'], identity.env);
  await setUpSms(page, user, '+44 7700 900123', true);

  const count = texts.length;
  const since = { texts: count, mails: mail.received.length };
  const toPhone = () => texts.slice(count).filter((t) => t.to === '+447700900123');
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/login\/twofactor/);
  await expect(page.getByText('We’ll text a code to •••• 0123.')).toBeVisible();
  const send = page.getByRole('button', { name: 'Send code' });
  await expect(send).toBeVisible();
  await nothingSentOnOpen(page, since);
  await expectNoAxeViolations(page, '2FA sign-in: SMS, before sending');

  await send.click();
  await expect(page.getByText('We sent a code to •••• 0123.')).toBeVisible();
  await expect.poll(() => toPhone().length).toBe(1);
  const resend = page.getByRole('button', { name: 'Send a new code' });
  await expect(resend).toBeDisabled();
  await expect(page.getByText(/You can ask for a new code in \d+ s\./)).toBeVisible();
  await expectNoAxeViolations(page, '2FA sign-in: SMS');
  const first = await textAfter(count, '+447700900123');
  // Still exactly one text after a while: the press sent one, nothing else did.
  await page.waitForTimeout(1000);
  expect(toPhone()).toHaveLength(1);

  // The quiet link works once the server's 30 s wait is over: one more text, and only the newest code counts.
  await expect(resend).toBeEnabled({ timeout: 45_000 });
  await resend.click();
  await expect.poll(() => toPhone().length).toBe(2);
  const code = await textAfter(count + 1, '+447700900123');
  expect(code).not.toBe(first);
  await page.getByLabel('Code from the text message (SMS)').fill(code.replace(/(\d{3})/, '$1 '));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await signedInAs(page, user.username);
});

test('PIN: set up by a mailed PIN, then signs in with the asked digits after a reshuffle', async ({
  page,
}) => {
  const user = addUser('pin', ['--require-2fa'], identity.env);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  await page.getByRole('radio', { name: 'PIN by email' }).check();
  await twoFactorPages(page).wizard.next.click();
  let count = mail.received.length;
  await page.getByRole('button', { name: /^E-?mail me a PIN$/ }).click();
  const setupPin = await pinAfter(count, user.email);
  const setup = await askedDigits(page, setupPin);
  await expectNoAxeViolations(page, 'wizard: PIN');
  await page.getByLabel(setup.label).fill(setup.digits);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await finishWizard(page);

  count = mail.received.length;
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/login\/twofactor/);
  const send = page.getByRole('button', { name: 'Send PIN' });
  await expect(send).toBeVisible();
  await nothingSentOnOpen(page, { texts: texts.length, mails: count });
  await send.click();
  const pin = await pinAfter(count, user.email);
  expect(pinMailsTo(count, user.email)).toHaveLength(1);
  const first = await askedDigits(page, pin);
  await expectNoAxeViolations(page, '2FA sign-in: PIN');
  await page.getByRole('button', { name: 'Ask for other digits' }).click();
  await expect(page.getByLabel(first.label)).toHaveCount(0);
  const asked = await askedDigits(page, pin);
  await page.getByLabel(asked.label).fill(asked.digits);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await signedInAs(page, user.username);
});

test('remember this browser: offered where the partner allows it, and the next sign-in skips the code', async ({
  page,
}) => {
  runAdmin(['partners', 'add', '--id', 'remember-e2e', '--name', 'Remember Co'], identity.env);
  runAdmin(
    ['partners', 'update', '--id', 'remember-e2e', '--remember-two-factor-browser', 'true'],
    identity.env,
  );
  const user = addUser('remember', ['--require-2fa', '--partner', 'remember-e2e'], identity.env);
  await setUpSms(page, user, '+44 7700 900777');

  const count = texts.length;
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/login\/twofactor/);
  const remember = page.getByRole('checkbox', {
    name: 'Remember this browser for 30 days (don’t use on a shared computer)',
  });
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(remember).toBeVisible();
  await expectNoAxeViolations(page, '2FA sign-in: remember this browser');
  await remember.check();
  await page.getByLabel('Code from the text message (SMS)').fill(await textAfter(count, '+447700900777'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account\/$/);

  // A new sign-in in this browser (the session gone, the remembered browser kept) asks for no code.
  const remembered = (await page.context().cookies()).filter((c) => c.name.endsWith('idp.2fa'));
  expect(remembered).toHaveLength(1);
  await page.context().clearCookies();
  await page.context().addCookies(remembered);
  await page.goto(`${identity.url}/account/login?returnUrl=%2Faccount%2F`);
  await appTookOver(page);
  const form = signInPage(page);
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();
  await expect(page).toHaveURL(/\/account\/$/);
  await signedInAs(page, user.username);
});

test('a partner that requires 2FA sends its users through the set-up wizard at the next sign-in', async ({
  page,
}) => {
  runAdmin(['partners', 'add', '--id', 'strict-e2e', '--name', 'Strict Co'], identity.env);
  const user = addUser('strict', ['--partner', 'strict-e2e'], identity.env);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/$/);

  runAdmin(['partners', 'update', '--id', 'strict-e2e', '--require-two-factor', 'true'], identity.env);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor\?returnUrl=%2Faccount%2F$/);
  await expect(page.getByRole('radio', { name: 'Authenticator app' })).toBeVisible();
});
