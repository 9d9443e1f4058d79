/** Helpers for the sign-in page (mfe-login): one that acts (`signIn`) and one that reads what it shows. */
import { expect, type Page } from '@playwright/test';
import type { DemoUser } from './demo-users.js';

/** The sign-in page's parts. */
export function signInPage(page: Page) {
  return {
    username: page.getByRole('textbox', { name: 'Username or email' }),
    password: page.getByLabel('Password', { exact: true }),
    rememberMe: page.getByRole('checkbox', { name: 'Remember me' }),
    submit: page.getByRole('button', { name: 'Sign in', exact: true }),
    differentUser: page.getByRole('button', { name: 'Sign in as a different user' }),
    forgotPassword: page.getByRole('link', { name: 'Forgotten your password?' }),
    capsLockWarning: page.getByText('Caps Lock is on', { exact: true }),
    timedOut: page.getByText('Your session had timed out. Please try again.'),
    formError: page.getByRole('alert'),
    fieldErrors: (name: 'Username or email' | 'Password') =>
      page
        .locator('.hr-field', { has: page.getByLabel(name, { exact: true }) })
        .locator('.hr-field__errors li'),
  };
}

/**
 * Opens the sign-in page (optionally with a returnUrl) and waits for its form, or, for a browser already signed
 * in, for the choice between continuing and signing in as a different user.
 */
export async function openSignIn(page: Page, returnUrl?: string) {
  await page.goto(returnUrl ? `/account/login?returnUrl=${encodeURIComponent(returnUrl)}` : '/account/login');
  const form = signInPage(page);
  await expect(form.password.or(form.differentUser).first()).toBeVisible();
  await appTookOver(page);
}

/**
 * Resolves once the app has taken over the page the gateway drew (docs/adr/0007-sign-in-first-paint.md): the form
 * shows before that, and typing into it is kept, but the app's own behaviour (caps-lock warning, submit) starts here.
 */
export async function appTookOver(page: Page) {
  await expect(page.locator('#root')).toHaveCount(1);
  await expect(page.locator('#root[data-first-paint]')).toHaveCount(0);
}

/**
 * Opens the sign-in page of the identity service at `baseUrl` and submits the user's password, finding the fields
 * by their names (so it works in every language). Does not wait for where the sign-in goes: a second factor or the
 * set-up wizard may come next.
 */
export async function submitPassword(page: Page, baseUrl: string, user: DemoUser, returnUrl = '/account/') {
  await page.goto(`${baseUrl}/account/login?returnUrl=${encodeURIComponent(returnUrl)}`);
  await appTookOver(page);
  await page.locator('input[name="username"]').fill(user.username);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').click();
}

/** Signs in through the sign-in page as a user; waits until the browser has left the sign-in page. */
export async function signIn(page: Page, user: DemoUser, options: { returnUrl?: string } = {}) {
  await openSignIn(page, options.returnUrl);
  const form = signInPage(page);
  if (await form.differentUser.isVisible()) await form.differentUser.click();
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();
  await expect(page).not.toHaveURL(/\/account\/login/);
}
