/** Helpers for the second-factor pages (mfe-mfa): an authenticator app for tests, and the pages' parts. */
import { createHmac } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** The code an authenticator app shows for `secret` at `at` (RFC 6238: HMAC-SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

/**
 * A code the gateway takes now and no earlier sign-in used. S17: it takes the code of the current time step or of
 * one step either side, and each step only once and only after the last one it took. So: the current step's code,
 * or when that one was used, the next step's (accepted as one step of drift); only when that was used too does it
 * wait for the next step to begin. `usedSteps` is what a spec used so far (for any of its users: at least as late as
 * each user's last step).
 */
export async function freshTotpCode(secret: string, usedSteps: Set<number>): Promise<string> {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(now, ...[...usedSteps].map((used) => used + 1));
  // Two steps ahead or more: wait until it is one step ahead of the clock.
  if (step > now + 1)
    await new Promise((resolve) => setTimeout(resolve, (step - 1) * 30_000 - Date.now() + 200));
  usedSteps.add(step);
  return totpCode(secret, step * 30_000 + 1000);
}

/** The parts of the 2FA sign-in page, the recovery-code page and the set-up wizard. */
export function twoFactorPages(page: Page) {
  return {
    authenticatorCode: page.getByLabel('Code from your authenticator app'),
    verify: page.getByRole('button', { name: 'Verify' }),
    useRecoveryCode: page.getByRole('link', { name: 'Use a recovery code instead' }),
    recoveryCode: page.getByRole('textbox', { name: 'Recovery code' }),
    recoverySubmit: page.getByRole('button', { name: 'Sign in', exact: true }),
    fieldErrors: page.locator('.hr-field__errors li'),
    wizard: {
      next: page.getByRole('button', { name: 'Next' }),
      qrCode: page.getByRole('img', { name: 'QR code to add this account to your authenticator app' }),
      secret: page.getByTestId('totp-secret'),
      code: page.getByLabel('6-digit code from the app'),
      confirm: page.getByRole('button', { name: 'Confirm' }),
      codes: page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem'),
      stored: page.getByRole('checkbox', { name: 'I have stored these codes safely' }),
      continue: page.getByRole('button', { name: 'Continue' }),
      finish: page.getByRole('button', { name: 'Finish' }),
    },
  };
}

/** Goes through the set-up wizard with the authenticator; returns the secret shown and the recovery codes. */
export async function setUpAuthenticator(page: Page, usedSteps: Set<number>) {
  const { wizard } = twoFactorPages(page);
  await wizard.next.click();
  await expect(wizard.qrCode).toBeVisible();
  const secret = (await wizard.secret.textContent())!.replace(/\s/g, '');
  await wizard.code.fill(await freshTotpCode(secret, usedSteps));
  await wizard.confirm.click();
  await expect(wizard.codes).toHaveCount(10);
  const codes = await wizard.codes.allTextContents();
  await wizard.stored.check();
  await wizard.continue.click();
  await expect(page.getByText('Two-step verification is set up')).toBeVisible();
  return { secret, codes };
}
