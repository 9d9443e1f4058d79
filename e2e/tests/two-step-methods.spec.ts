/**
 * Two-step methods that do what they say (issue 49 items 5 and 6, ADR 0050), in Chromium against a gateway of the
 * spec's own whose texts go to the test's HTTP receiver (SMS_WEBHOOK_URL, as two-factor-delivered.spec.ts does). A
 * user of the spec's own (2FA required) sets up the authenticator app at sign-in, then from the security centre:
 * the wizard's Cancel changes nothing; SMS is added beside the authenticator (both listed, the default and the
 * recovery codes unchanged, an old code still signs in); SMS made the default → the next sign-in opens on SMS;
 * removing SMS asks first (cancelled, then confirmed). axe clean, light and dark, on each new state.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';
import { setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';

// Two wizards, three sign-ins and axe runs on a busy two-core machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

let identity: IdentityService;
let receiver: Server;
const texts: { to: string; text: string }[] = [];
const usedSteps = new Set<number>();
let user: DemoUser;
let recoveryCodes: string[] = [];
// One browser through the whole story: each test goes on from where the one before left the page.
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  context = await browser.newContext();
  page = await context.newPage();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      texts.push(JSON.parse(body) as { to: string; text: string });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  identity = await startIdentityService({ SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/sms` });
  user = addUser('steps', ['--require-2fa'], identity.env);
});

test.afterAll(async () => {
  await context?.close();
  await identity?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

/** Signs in with the password on the spec's gateway; the page then shows the next step. */
async function passwordSignIn(page: Page) {
  await page.context().clearCookies();
  await page.goto(`${identity.url}/account/login?returnUrl=%2Faccount%2F`);
  await appTookOver(page);
  const form = signInPage(page);
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();
}

/** The newest code texted to `to` after `count` texts had arrived. */
async function textAfter(count: number, to: string): Promise<string> {
  await expect.poll(() => texts.slice(count).filter((t) => t.to === to).length).toBeGreaterThan(0);
  return /\b(\d{6})\b/.exec(
    texts
      .slice(count)
      .filter((t) => t.to === to)
      .at(-1)!.text,
  )![1]!;
}

const card = (page: Page) => page.getByTestId('two-step');
const methodRows = (page: Page) => card(page).locator('li');

test('the first method, set up at sign-in, is the default and brings the recovery codes', async () => {
  await passwordSignIn(page);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  // First-time set-up: four steps, the codes among them; no Cancel (the sign-in needs a method).
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  ({ codes: recoveryCodes } = await setUpAuthenticator(page, usedSteps));
  expect(recoveryCodes).toHaveLength(10);
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(methodRows(page)).toHaveCount(1);
  await expect(methodRows(page).first()).toContainText('Authenticator app');
  await expect(methodRows(page).first()).toContainText('Default');
});

test('the wizard from the centre preselects nothing set up, shows what exists, and Cancel changes nothing', async () => {
  await card(page).getByRole('link', { name: 'Add a method' }).click();
  await expect(page).toHaveURL(/\/account\/setup-twofactor\?returnUrl=%2Faccount%2F$/);
  await expect(page.getByText('Step 1 of 3')).toBeVisible();
  await expect(page.getByTestId('configured-methods')).toHaveText('Authenticator app');
  await expect(page.getByRole('radio', { name: 'Authenticator app' })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: /SMS/ })).toBeChecked();
  await expectAxeCleanLightAndDark(page);

  // Replacing the app is its own action, confirmed first; cancelled here.
  await page.getByRole('button', { name: 'Replace authenticator app' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Replace your authenticator app?' });
  await expect(dialog).toBeVisible();
  await expectAxeCleanLightAndDark(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Set up codes by text message (SMS)' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(methodRows(page)).toHaveCount(1);
  await expect(page.getByText('You have 10 recovery codes left.')).toBeVisible();
});

test('SMS is added beside the authenticator: both listed, the default and the recovery codes unchanged', async () => {
  await card(page).getByRole('link', { name: 'Add a method' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  const count = texts.length;
  await page.getByRole('textbox', { name: 'Mobile number' }).fill('+44 7700 900123');
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await page.getByLabel('6-digit code from the text message').fill(await textAfter(count, '+447700900123'));
  await page.getByRole('button', { name: 'Confirm' }).click();
  // No recovery-codes step: the account keeps its codes.
  await expect(page.getByText(/^Method added: /)).toBeVisible();
  await expect(page.getByText('Step 3 of 3')).toBeVisible();
  await expectAxeCleanLightAndDark(page);
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);

  await expect(methodRows(page)).toHaveCount(2);
  await expect(methodRows(page).nth(0)).toContainText('Authenticator app');
  await expect(methodRows(page).nth(0)).toContainText('Default');
  await expect(methodRows(page).nth(1)).toContainText('SMS');
  await expect(methodRows(page).nth(1)).not.toContainText('Default');
  await expect(page.getByText('You have 10 recovery codes left.')).toBeVisible();
});

test('SMS made the default: the next sign-in opens on SMS; an old recovery code still signs in', async () => {
  await methodRows(page)
    .nth(1)
    .getByRole('button', { name: /^Make .*SMS.* the default$/ })
    .click();
  await expect(methodRows(page).nth(0)).toContainText('SMS');
  await expect(methodRows(page).nth(0)).toContainText('Default');

  const count = texts.length;
  await passwordSignIn(page);
  await expect(page).toHaveURL(/\/account\/login\/twofactor/);
  await expect(page.getByText(/^Method: .*SMS/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send code' })).toBeVisible();
  await expect(page.getByLabel('Code from your authenticator app')).toHaveCount(0);
  // Opening on SMS texts nothing until "Send code" (issue 43).
  expect(texts.slice(count)).toEqual([]);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText("Spaces and case don't matter.")).toBeVisible();
  await expectAxeCleanLightAndDark(page);

  // The codes made with the first method are the ones in force: the first of them signs in.
  await twoFactorPages(page).useRecoveryCode.click();
  await twoFactorPages(page).recoveryCode.fill(recoveryCodes[0]!);
  await twoFactorPages(page).recoverySubmit.click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByText('You have 9 recovery codes left.')).toBeVisible();
});

test('removing a method asks first, naming it: Cancel keeps it, Remove removes it', async () => {
  const sms = methodRows(page).filter({ hasText: 'SMS' });
  const remove = sms.getByRole('button', { name: /^Remove .*SMS/ });
  await remove.click();
  const dialog = page.getByRole('alertdialog', { name: /^Remove .*SMS.*\?$/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Your other methods and your recovery codes stay as they are.');
  await expectAxeCleanLightAndDark(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(methodRows(page)).toHaveCount(2);

  await remove.click();
  await dialog.getByRole('button', { name: /^Remove .*SMS/ }).click();
  await expect(dialog).toBeHidden();
  await expect(methodRows(page)).toHaveCount(1);
  await expect(methodRows(page).first()).toContainText('Authenticator app');
  // The default moved to the method left.
  await expect(methodRows(page).first()).toContainText('Default');
});
