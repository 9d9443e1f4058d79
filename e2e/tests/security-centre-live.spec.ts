/**
 * Live data across remotes (issue 49 item 2): the security centre (the shell) and the device page (mfe-devices) share
 * one store, and every call that changes the account invalidates its `Account` tag. A passkey added in mfe-devices
 * from the centre's "Add a passkey" is listed when the browser comes back to the centre, without a reload of the page
 * (a marker set on `window` before leaving is still there): the list never says "You have no passkeys." after
 * "Passkey registered".
 */
import { expect, test } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { signIn } from '../helpers/sign-in.js';
import { addVirtualAuthenticator } from '../helpers/webauthn.js';

test('a passkey added in mfe-devices from the centre is listed in the centre at once, without a reload', async ({
  page,
}) => {
  const user = addUser('live');
  await signIn(page, user, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/$/);
  const passkeys = page.getByTestId('passkeys');
  await expect(passkeys).toContainText('You have no passkeys.');
  // The authenticator comes after the sign-in, which would otherwise offer to add a passkey on its own way.
  await addVirtualAuthenticator(page);

  // The page as it is now: a reload would lose this.
  await page.evaluate(() => Object.assign(window, { __sameDocument: 'yes' }));
  await passkeys.getByRole('link', { name: 'Add a passkey' }).click();
  await expect(page).toHaveURL(/\/account\/registerdevice/);
  await page.getByRole('textbox', { name: 'Passkey name' }).fill('Desk computer');
  await page.getByRole('button', { name: 'Add passkey' }).click();

  await expect(page).toHaveURL(/\/account\/$/);
  await expect(passkeys.getByTestId('passkey')).toHaveCount(1);
  await expect(passkeys.getByTestId('passkey')).toContainText('Desk computer');
  await expect(passkeys).not.toContainText('You have no passkeys.');
  expect(await page.evaluate(() => (window as { __sameDocument?: string }).__sameDocument)).toBe('yes');
});
