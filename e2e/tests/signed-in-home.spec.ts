/**
 * Signed in, a person has somewhere to go (issue 11): the home and the account index say who is signed in and offer
 * Continue (to the page that asked, or to each application) and Sign out; the sign-in page offers a real "Continue
 * as …" button beside "Sign in as a different user". Every page has its own title, and an in-app navigation puts
 * focus on the new page's heading.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { DEMO_USERS } from '../helpers/demo-users.js';
import { expectPage } from '../helpers/shell.js';
import { appTookOver, openSignIn, signIn, signInPage } from '../helpers/sign-in.js';

test('the home of a signed-in person says who it is, continues to the applications and signs out', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.employee, { returnUrl: '/' });
  await expectPage(page, 'Home');
  await expect(page.getByText('You are signed in as Emma Employee.')).toBeVisible();
  // The demo portal registers where it starts its own sign-in; the home links there.
  await expect(page.getByRole('link', { name: 'Continue to Payroll portal' })).toHaveAttribute(
    'href',
    'http://localhost:4000/login',
  );
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.goto('/account/');
  await expectPage(page, 'Account');
  await expect(page.getByText('You are signed in as Emma Employee.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/account\/(logout|loggedout)/);
});

test('the sign-in page offers a signed-in person a real Continue, or another account', async ({ page }) => {
  await signIn(page, DEMO_USERS.employee, { returnUrl: '/' });
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await appTookOver(page);
  const form = signInPage(page);
  const continueAs = page.getByRole('link', { name: 'Continue as Emma Employee' });
  await expect(continueAs).toBeVisible();
  await expect(form.differentUser).toBeVisible();
  await expect(form.password).toHaveCount(0);
  await continueAs.click();
  await expectPage(page, 'Account');

  await page.goto('/account/login');
  await appTookOver(page);
  await form.differentUser.click();
  await expect(form.username).toHaveValue('');
  await expect(form.password).toBeVisible();
});

test('every page has its own title, and an in-app navigation moves focus to the new heading', async ({
  page,
}) => {
  await openSignIn(page);
  await expect(page).toHaveTitle('Sign in – Acme Payroll Identity');
  await page.goto('/no-such-page');
  await expectPage(page, 'Page not found');
  await expect(page).toHaveTitle('Page not found – Acme Payroll Identity');
  await page.getByRole('main').getByRole('link', { name: 'Go to the home page' }).click();
  await expectPage(page, 'Home');
  await expect(page).toHaveTitle('Home – Acme Payroll Identity');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeFocused();
});
