/**
 * Confirmations and results in the security centre (issue 49, items 3 and 7), in Chromium against the real gateway:
 * a user with the authenticator app, a passkey and a remembered browser opens /account/. Deleting the passkey, new
 * recovery codes and forgetting browsers each ask first in a dialog naming the object (axe-clean, light and dark);
 * Cancel changes nothing, confirming does it and the card says so. With 2 recovery codes left the card warns; the new
 * set is copied (the clipboard holds the codes), downloaded (a file with the codes) and printed (window.print, stubbed
 * in the page). Unlink and the device list's Remove are confirmed and cancelled in external-sign-in.spec.ts and passkeys.spec.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { harnessIdentityService } from '../helpers/portal.js';
import { submitPassword } from '../helpers/sign-in.js';
import { REPO } from '../helpers/system.js';
import { freshTotpCode, setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';
import { addVirtualAuthenticator } from '../helpers/webauthn.js';

// Two sign-ins with the authenticator may each wait for the next TOTP step (S17); axe runs on three dialogs.
test.describe.configure({ timeout: 180_000 });

const usedSteps = new Set<number>();

/**
 * Marks all but `left` of the user's unused recovery codes used, in the gateway's store (no CLI command does; using
 * eight codes at sign-in would take eight sign-ins). Runs in the gateway's folder, whose dependency SQLite is.
 */
function leaveRecoveryCodes(env: NodeJS.ProcessEnv, user: DemoUser, left: number) {
  const script = `
    const Database = require('better-sqlite3');
    const [file, username, left] = process.argv.slice(1);
    const db = new Database(file);
    const { id } = db.prepare('select id from users where username_normalized = ?').get(username);
    const unused = db
      .prepare('select id from recovery_codes where user_id = ? and used_at is null order by id')
      .all(id);
    const use = db.prepare('update recovery_codes set used_at = ? where id = ?');
    for (const code of unused.slice(Number(left))) use.run(Date.now(), code.id);
    db.close();`;
  execFileSync(
    process.execPath,
    ['-e', script, path.join(env.DATA_DIR!, 'identity.db'), user.username.toLowerCase(), String(left)],
    { cwd: path.join(REPO, 'gateway'), stdio: 'pipe' },
  );
}

async function signOut(page: Page) {
  await page.getByRole('link', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/account\/loggedout/);
}

test('delete a passkey, new recovery codes, forget browsers: each asked first, Cancel changes nothing; codes copied, downloaded, printed; 2 left warned', async ({
  page,
  context,
}) => {
  const identity = harnessIdentityService();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  runAdmin(['partners', 'add', '--id', 'confirm-h2', '--name', 'Confirm Co'], identity.env);
  runAdmin(
    ['partners', 'update', '--id', 'confirm-h2', '--remember-two-factor-browser', 'true'],
    identity.env,
  );
  const user = addUser('confirm', ['--require-2fa', '--partner', 'confirm-h2'], identity.env);

  // The required set-up (authenticator, recovery codes), then a sign-in with "remember this browser".
  await submitPassword(page, identity.url, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  const { secret } = await setUpAuthenticator(page, usedSteps);
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  await signOut(page);
  await submitPassword(page, identity.url, user);
  const pages = twoFactorPages(page);
  await pages.authenticatorCode.fill(await freshTotpCode(secret, usedSteps));
  await page
    .getByRole('checkbox', { name: 'Remember this browser for 30 days (don’t use on a shared computer)' })
    .check();
  await pages.verify.click();
  await expect(page).toHaveURL(/\/account\/$/);

  // A passkey added from the centre (the platform authenticator only now: at sign-in it would have signed in with
  // it) is in the centre's list on return, without a reload.
  await addVirtualAuthenticator(page);
  await page.getByRole('link', { name: 'Add a passkey' }).click();
  await page.getByRole('textbox', { name: 'Passkey name' }).fill('Work laptop');
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByTestId('passkeys').getByTestId('passkey')).toContainText('Work laptop');
  leaveRecoveryCodes(identity.env, user, 2);
  await page.reload();

  // Delete the passkey: the dialog names it; Cancel keeps it and gives focus back to Delete.
  const passkeys = page.getByTestId('passkeys');
  await expect(passkeys.getByTestId('passkey')).toHaveCount(1);
  const deleteButton = passkeys.getByRole('button', { name: 'Delete Work laptop' });
  await deleteButton.click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete the passkey ‘Work laptop’?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAxeCleanLightAndDark(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await expect(passkeys.getByTestId('passkey')).toHaveCount(1);
  // Escape cancels too.
  await deleteButton.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(passkeys.getByTestId('passkey')).toHaveCount(1);
  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete passkey' }).click();
  await expect(passkeys.getByTestId('passkey')).toHaveCount(0);
  await expect(passkeys.getByRole('status')).toHaveText('Deleted the passkey ‘Work laptop’.');
  await expect(passkeys.getByRole('heading', { name: 'Passkeys' })).toBeFocused();

  // Two recovery codes left: a warning in words with the way to new ones.
  const codes = page.getByTestId('recovery-codes');
  await expect(codes.getByRole('alert')).toHaveText(
    'Only 2 recovery codes left. Create new ones before you run out.',
  );
  await codes.getByRole('button', { name: 'Create new recovery codes' }).click();
  const codesDialog = page.getByRole('alertdialog', { name: 'Create new recovery codes?' });
  await expect(codesDialog).toContainText('Your 2 remaining recovery codes will stop working at once.');
  await expectAxeCleanLightAndDark(page);
  await codesDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(codesDialog).toBeHidden();
  await expect(codes.getByRole('alert')).toBeVisible();
  await expect(codes.getByRole('list', { name: 'Your new recovery codes' })).toHaveCount(0);
  await codes.getByRole('button', { name: 'Create new recovery codes' }).click();
  await codesDialog.getByRole('button', { name: 'Create new codes' }).click();
  const list = codes.getByRole('list', { name: 'Your new recovery codes' }).getByRole('listitem');
  await expect(list).toHaveCount(10);
  const shown = await list.allTextContents();
  await expect(codes.getByTestId('recovery-codes-status')).toHaveText(
    'New recovery codes created. The old ones no longer work.',
  );
  await expect(codes).toContainText('You have 10 recovery codes left.');
  await expect(codes.getByRole('alert')).not.toContainText('left');

  // Copy: the clipboard holds the codes.
  await codes.getByRole('button', { name: 'Copy codes' }).click();
  await expect(codes.getByText('Codes copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown.join('\n'));
  // Download: a text file with the account and the codes.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    codes.getByRole('button', { name: 'Download as text file' }).click(),
  ]);
  const file = await readFile(await download.path(), 'utf8');
  expect(file).toContain(user.email);
  for (const code of shown) expect(file).toContain(code);
  // Print: the page's window.print, with only the codes sheet marked for paper.
  await page.evaluate(() => {
    const counted = window as unknown as { printed: string[] };
    counted.printed = [];
    window.print = () => {
      counted.printed.push(document.documentElement.getAttribute('data-hr-print-recovery-codes') ?? 'unset');
    };
  });
  await codes.getByRole('button', { name: 'Print codes' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: string[] }).printed)).toEqual(['']);
  await expectAxeCleanLightAndDark(page);

  // Forget all, then this browser: each asked first; Cancel forgets nothing.
  const browsers = page.getByTestId('remembered-browsers');
  await expect(browsers.getByTestId('remembered-browser')).toHaveCount(1);
  await browsers.getByRole('button', { name: 'Forget all browsers' }).click();
  const allDialog = page.getByRole('alertdialog', { name: 'Forget the 1 remembered browser?' });
  await expect(allDialog).toBeVisible();
  await allDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(allDialog).toBeHidden();
  await expect(browsers.getByTestId('remembered-browser')).toHaveCount(1);
  await browsers.getByRole('button', { name: 'Forget this browser' }).click();
  const oneDialog = page.getByRole('alertdialog', { name: 'Forget this browser?' });
  await expectAxeCleanLightAndDark(page);
  await oneDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(browsers.getByTestId('remembered-browser')).toHaveCount(1);
  await browsers.getByRole('button', { name: 'Forget this browser' }).click();
  await oneDialog.getByRole('button', { name: 'Forget browser' }).click();
  await expect(browsers.getByTestId('remembered-browser')).toHaveCount(0);
  await expect(browsers.getByRole('status')).toHaveText('The browser has been forgotten');
});
