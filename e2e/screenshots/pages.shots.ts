/**
 * The README screenshots (issue 43): the sign-in page (mfe-login), two-step verification (mfe-mfa), the security
 * centre (shell), customer selection (mfe-tenant) and the operators' console (mfe-admin: releases, and a person's
 * page as support sees it; issue 52), each at 390 px (phone) and 1280 px (desktop), light and dark,
 * in en-GB, de and ar (right to left), as `<package>/docs/screenshots/<page>-<width>-<theme>-<locale>.png`.
 * `npm run screenshots` regenerates them from the built system (playwright.screenshots.config.ts).
 *
 * Pages are found by URL, form field names, ARIA roles and test ids, never by their wording, so a changed text
 * needs no change here. Each shot is the viewport only, taken once the page is still: fonts loaded, network idle,
 * no progress bar, animations and transitions off, the caret hidden, the pointer out of the way.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { signInWithCode } from '../helpers/console.js';
import { CONSOLE_USERS, DEMO_PASSWORD } from '../helpers/demo-users.js';
import {
  DEMO_LANGUAGES_WITH_ARABIC,
  updateDemoPartner,
  waitForPartnerLanguage,
} from '../helpers/partners.js';
import { appTookOver } from '../helpers/sign-in.js';
import { REPO, systemUnderTest } from '../helpers/system.js';
import { totpCode } from '../helpers/two-factor.js';

/** The demo user `authenticator`'s secret (gateway seed, printed at first start; README "Try every flow"). */
const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const LOCALES = ['en-GB', 'de', 'ar'] as const;
/** A phone (touch, mobile viewport) and a desktop, at one device pixel per CSS pixel to keep the files small. */
const SCREENS = [
  { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const;
const THEMES = ['light', 'dark'] as const;

type StorageState = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

/** A screenshot subject: the package whose README shows it, and how a fresh browser reaches the page. */
interface Subject {
  name: string;
  pkg: string;
  /** Opens the page and resolves once its content is there. */
  open(page: Page): Promise<void>;
  /** Cookies of a browser already signed in, when the page needs one. */
  signedIn?: () => StorageState;
  /** The whole page, not only the first screen: for a page whose point is everything below the fold. */
  fullPage?: boolean;
}

/** The sign-in form by its field names (the first HTML's and the app's form alike). */
function signInForm(page: Page) {
  const form = page.locator('form', { has: page.locator('input[name="password"]') });
  return {
    username: form.locator('input[name="username"]'),
    password: form.locator('input[name="password"]'),
    submit: form.locator('button[type="submit"]'),
  };
}

/** Signs in with the demo password; the caller waits for where the sign-in goes next. */
async function passwordSignIn(page: Page, username: string, returnUrl = '/account/') {
  await page.goto(`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`);
  await appTookOver(page);
  const form = signInForm(page);
  await form.username.fill(username);
  await form.password.fill(DEMO_PASSWORD);
  await form.submit.click();
}

let securityCentreState: StorageState | undefined;
let consoleState: StorageState | undefined;

const SUBJECTS: Subject[] = [
  {
    name: 'sign-in',
    pkg: 'mfe-login',
    async open(page) {
      await page.goto('/account/login');
      await appTookOver(page);
      await expect(signInForm(page).password).toBeVisible();
    },
  },
  {
    // `authenticator` has an authenticator app: the password leads to the code page.
    name: 'two-step-verification',
    pkg: 'mfe-mfa',
    async open(page) {
      await passwordSignIn(page, 'authenticator');
      await expect(page).toHaveURL(/\/account\/login\/twofactor\?/);
      await expect(page.locator('input[name="code"]')).toBeVisible();
    },
  },
  {
    // The security centre at /account/ of `authenticator` (two-step verification on), signed in once for the run.
    name: 'security-centre',
    pkg: 'shell',
    signedIn: () => securityCentreState!,
    fullPage: true,
    async open(page) {
      await page.goto('/account/');
      await expect(page.getByTestId('two-step')).toBeVisible();
      await expect(page.getByTestId('sessions')).toBeAttached();
    },
  },
  {
    // `hradmin` serves two customers: the password leads to the picker.
    name: 'customer-selection',
    pkg: 'mfe-tenant',
    async open(page) {
      await passwordSignIn(page, 'hradmin');
      await expect(page).toHaveURL(/\/account\/select\?/);
      await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible();
    },
  },
  {
    // The console's releases page as the demo platform administrator sees it (signed in once for the run).
    name: 'console-releases',
    pkg: 'mfe-admin',
    signedIn: () => consoleState!,
    async open(page) {
      await page.goto('/admin/releases');
      await expect(page.getByTestId('release-mfe-login-active')).toBeVisible();
    },
  },
  {
    // A person's page: `authenticator`, found by the console's search.
    name: 'console-person',
    pkg: 'mfe-admin',
    signedIn: () => consoleState!,
    fullPage: true,
    async open(page) {
      await page.goto('/admin/people');
      await page.getByRole('searchbox').fill('authenticator');
      await page.getByRole('searchbox').press('Enter');
      await page.getByTestId('person-row-authenticator').getByRole('link').click();
      await expect(page.getByTestId('person')).toBeVisible();
    },
  },
];

/** Waits until nothing on the page moves or loads any more. */
async function settle(page: Page, theme: (typeof THEMES)[number]) {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  // The resting page: no hover, no focus ring on the field that took focus on load.
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  // Two frames, so a style change of the colour scheme has been painted.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** A fresh browser in `locale` (saved choice, culture cookie and browser language) on one screen. */
async function browserIn(
  browser: Browser,
  locale: string,
  screen: (typeof SCREENS)[number],
  storageState?: StorageState,
) {
  const baseURL = systemUnderTest().baseUrl;
  const options: BrowserContextOptions = {
    baseURL,
    ...screen,
    deviceScaleFactor: 1,
    locale,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
    ...(storageState ? { storageState } : {}),
  };
  const context = await browser.newContext(options);
  await context.addCookies([
    { name: '.AspNetCore.Culture', value: encodeURIComponent(`c=${locale}|uic=${locale}`), url: baseURL },
  ]);
  await context.addInitScript((chosen) => localStorage.setItem('locale', chosen), locale);
  return context;
}

test.beforeAll(async ({ browser }) => {
  // Arabic (no shipped text yet: en-GB text in a mirrored layout) among the demo partner's languages. The run's
  // gateway is this script's own, so the change is not put back.
  const { baseUrl, dataDir } = systemUnderTest();
  updateDemoPartner(['--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'], dataDir);
  await waitForPartnerLanguage(baseUrl, 'ar');

  // One sign-in with the authenticator code for the whole run (each 30 s code is accepted once).
  const context = await browserIn(browser, 'en-GB', SCREENS[1]);
  const page = await context.newPage();
  await passwordSignIn(page, 'authenticator');
  await expect(page).toHaveURL(/\/account\/login\/twofactor\?/);
  await page.locator('input[name="code"]').fill(totpCode(DEMO_TOTP_SECRET));
  await page
    .locator('form', { has: page.locator('input[name="code"]') })
    .locator('button[type="submit"]')
    .click();
  await expect(page).toHaveURL(/\/account\/$/);
  securityCentreState = await context.storageState();
  await context.close();

  // The demo platform administrator, for the console's pages (a code of its own: each is taken once per account).
  const operator = await browserIn(browser, 'en-GB', SCREENS[1]);
  const operatorPage = await operator.newPage();
  await signInWithCode(operatorPage, CONSOLE_USERS.platformadmin);
  consoleState = await operator.storageState();
  await operator.close();
});

for (const subject of SUBJECTS) {
  for (const locale of LOCALES) {
    test(`${subject.name} in ${locale}`, async ({ browser }) => {
      const folder = path.join(REPO, subject.pkg, 'docs', 'screenshots');
      mkdirSync(folder, { recursive: true });
      for (const screen of SCREENS) {
        const context = await browserIn(browser, locale, screen, subject.signedIn?.());
        const page = await context.newPage();
        await subject.open(page);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
        for (const theme of THEMES) {
          await settle(page, theme);
          await page.screenshot({
            path: path.join(folder, `${subject.name}-${screen.viewport.width}-${theme}-${locale}.png`),
            animations: 'disabled',
            caret: 'hide',
            scale: 'css',
            fullPage: subject.fullPage ?? false,
          });
        }
        await context.close();
      }
    });
  }
}
