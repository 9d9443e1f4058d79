/**
 * The sign-in experience of issue 11: a language switch changes every text of the page at once (no raw key, no
 * English left, `lang` matching the text); a failed submit puts focus where the problem is; the busy button keeps
 * focus; English fallback text in a right-to-left page is marked and isolated.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_LANGUAGES, updateDemoPartner, waitForPartnerLanguage } from '../helpers/partners.js';
import { REPO, systemUnderTest } from '../helpers/system.js';
import { expectPage } from '../helpers/shell.js';
import { appTookOver, openSignIn, signInPage } from '../helpers/sign-in.js';

type Tree = { [key: string]: string | Tree };
const LOCALES = ['en-GB', 'en', 'de', 'fr-CA', 'es'] as const;

function text(file: string, key: string): string {
  const tree = JSON.parse(readFileSync(path.join(REPO, file), 'utf8')) as Tree;
  const value = key
    .split('.')
    .reduce<string | Tree | undefined>((node, part) => (node as Tree)?.[part], tree);
  if (typeof value !== 'string') throw new Error(`${file} has no ${key}`);
  return value;
}

/** Finished pages with a text of their own per locale (heading, and a second text where the page has one). */
const PAGES = [
  {
    path: '/account/login',
    texts: (l: string) => [
      text(`mfe-login/src/locales/${l}.json`, 'routes.login'),
      text(`mfe-login/src/locales/${l}.json`, 'login.usernameLabel'),
    ],
  },
  {
    path: '/account/loggedout',
    texts: (l: string) => [
      text(`mfe-login/src/locales/${l}.json`, 'routes.loggedOut'),
      text(`mfe-login/src/locales/${l}.json`, 'loggedOut.signInAgain'),
    ],
  },
  {
    path: '/account/recover',
    texts: (l: string) => [text(`mfe-recovery/src/locales/${l}.json`, 'routes.recover')],
  },
  { path: '/', texts: (l: string) => [text(`shell/src/locales/${l}/common.json`, 'routes.home')] },
];

// A translation key shown as text ("routes.loggedOut", "loggedOut.signInAgain").
const RAW_KEY =
  /\b(?:routes|login|loggedOut|logout|recover|home|platform|errors|app|pages)\.[a-z][A-Za-z]+\b/;

async function visibleText(page: Page): Promise<string> {
  return page.locator('body').innerText();
}

for (const entry of PAGES) {
  test(`${entry.path}: a language switch changes every text at once, through all five locales`, async ({
    page,
  }) => {
    await page.goto(entry.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(entry.texts('en-GB')[0]!);
    if (entry.path === '/account/login') await appTookOver(page);
    for (const locale of [...LOCALES.slice(1), 'en-GB' as const]) {
      await page.getByTestId('language-picker').selectOption(locale);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      for (const expected of entry.texts(locale))
        await expect(page.getByText(expected).first()).toBeVisible();
      const shown = await visibleText(page);
      expect(shown, `${locale}: a raw translation key`).not.toMatch(RAW_KEY);
      if (!locale.startsWith('en'))
        for (const english of entry.texts('en-GB'))
          expect(shown, `${locale}: English text left on the page`).not.toContain(english);
    }
  });
}

test('a failed submit puts focus on the first invalid field; a wrong password on the emptied password field', async ({
  page,
}) => {
  await openSignIn(page);
  const form = signInPage(page);
  await form.submit.click();
  await expect(form.username).toHaveAttribute('aria-invalid', 'true');
  await expect(form.username).toBeFocused();

  await form.username.fill('employee');
  await form.password.fill('not-the-password');
  await form.password.press('Enter');
  await expect(form.formError).toHaveText('The username or password is incorrect.');
  // Issue 43's failure pattern: the username becomes a chip and the password is asked again, from empty.
  await expect(form.password).toBeFocused();
  await expect(form.password).toHaveValue('');
});

test('the busy button keeps focus and says it is busy', async ({ page }) => {
  await openSignIn(page);
  const form = signInPage(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/Account/Login', async (route) => {
    await held;
    await route.continue();
  });
  await form.username.fill('employee');
  await form.password.fill('not-the-password');
  await form.submit.focus();
  await page.keyboard.press('Enter');
  const busy = page.getByRole('button', { name: 'Signing in…' });
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  await expect(busy).toBeFocused();
  release();
  await expect(form.formError).toBeVisible();
});

test.describe('a right-to-left language without translations', () => {
  test.beforeAll(async () => {
    updateDemoPartner(
      ['--languages', `${DEMO_LANGUAGES},ar:العربية`, '--allow-untranslated'],
      systemUnderTest().dataDir,
    );
    await waitForPartnerLanguage(systemUnderTest().baseUrl, 'ar');
  });
  test.afterAll(async () => {
    updateDemoPartner(['--languages', DEMO_LANGUAGES], systemUnderTest().dataDir);
    await waitForPartnerLanguage(systemUnderTest().baseUrl, 'ar', false);
  });

  /** Opens `path` in ar (the culture cookie) once the gateway serves the partner's new language list. */
  async function openInArabic(page: Page, context: BrowserContext, path: string, heading: string) {
    await context.addCookies([
      {
        name: '.AspNetCore.Culture',
        value: encodeURIComponent('c=ar|uic=ar'),
        url: systemUnderTest().baseUrl,
      },
    ]);
    // The partner's new language list is seen within the gateway's few seconds of configuration caching.
    await expect
      .poll(
        async () => {
          await page.goto(path);
          await expectPage(page, heading);
          return page.locator('html').getAttribute('dir');
        },
        { timeout: 20_000, intervals: [1_000] },
      )
      .toBe('rtl');
  }

  test('English fallback text in a right-to-left page is marked English and keeps its punctuation in place', async ({
    page,
    context,
  }) => {
    await openInArabic(page, context, '/account/recover', 'Recover your account');
    await expect(page.locator('body')).toHaveAttribute('lang', 'en-GB');
    const heading = page.getByRole('heading', { level: 1 });
    expect(await heading.evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe('plaintext');
  });

  test("every text of a page takes its direction from its content, a field's hint too", async ({
    page,
    context,
  }) => {
    await openInArabic(
      page,
      context,
      '/account/login/ott',
      text('mfe-login/src/locales/en-GB.json', 'routes.loginOtt'),
    );
    // The code form, with its hint under the field (no mail: nobody has this name).
    await page.getByLabel('Username or email').fill('nobody-right-to-left');
    await page.getByRole('button', { name: text('mfe-login/src/locales/en-GB.json', 'ott.send') }).click();
    const hint = page.getByText(/^Enter the \d+ digits from the email/);
    await expect(hint).toBeVisible();
    // Every element holding text of its own; none may lay its English out right to left (".Codes ignore…").
    const wrong = await page.locator('main').evaluate((main) =>
      [...main.querySelectorAll('*')]
        .filter((el) =>
          [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()),
        )
        .filter((el) => getComputedStyle(el).unicodeBidi !== 'plaintext')
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent}`),
    );
    expect(wrong).toEqual([]);
  });

  test('headings, labels and error lists sit at the inline start (the right) of a right-to-left page', async ({
    page,
    context,
  }) => {
    await openInArabic(
      page,
      context,
      '/account/login',
      text('mfe-login/src/locales/en-GB.json', 'routes.login'),
    );
    await appTookOver(page);
    const form = signInPage(page);
    await form.submit.click();
    await expect(form.fieldErrors('Username or email').first()).toBeVisible();
    /** Where an element's own text ends, against its content box: gaps on the inline start (right) and end. */
    const gaps = (selector: string) =>
      page.locator(selector).evaluateAll((elements) =>
        elements.map((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const text = range.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          const contentRight =
            box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
          const contentLeft = box.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth);
          return {
            what: `${el.tagName.toLowerCase()} "${el.textContent}"`,
            start: Math.round(contentRight - text.right),
            end: Math.round(text.left - contentLeft),
            align: style.textAlign,
          };
        }),
      );
    const checked = [
      ...(await gaps('main h1')),
      ...(await gaps('main .hr-field__label')),
      ...(await gaps('main .hr-field__errors li')),
    ];
    expect(checked.length).toBeGreaterThanOrEqual(4);
    for (const { what, start, end, align } of checked) {
      expect(align, what).not.toBe('left');
      expect(start, what).toBeLessThanOrEqual(1);
      expect(end, what).toBeGreaterThan(start);
    }
    // The bullet of an error sits beside its text: the list's marker is outside the item, at its inline start.
    const item = form.fieldErrors('Username or email').first();
    const list = await item.evaluate((li) => {
      const ul = li.parentElement!;
      return {
        position: getComputedStyle(li).listStylePosition,
        padRight: getComputedStyle(ul).paddingRight,
      };
    });
    expect(list.position).toBe('outside');
    expect(parseFloat(list.padRight)).toBeGreaterThan(0);
  });
});

test('the conveniences people expect: no capitals or spelling marks in the username, a show-password button', async ({
  page,
}) => {
  await openSignIn(page);
  const form = signInPage(page);
  await expect(form.username).toHaveAttribute('autocapitalize', 'none');
  await expect(form.username).toHaveAttribute('spellcheck', 'false');
  await form.password.fill('Secret words 1');
  await expect(form.password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(form.password).toHaveAttribute('type', 'text');
  await expect(form.password).toHaveValue('Secret words 1');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(form.password).toHaveAttribute('type', 'password');
});

test('a form keeps one rhythm: its stack gap alone spaces paragraphs, fields and buttons', async ({
  page,
}) => {
  // The one-time-code page (intro paragraph, field, button, link) and the recover page, on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  const pages = [
    { path: '/account/login/ott', heading: text('mfe-login/src/locales/en-GB.json', 'routes.loginOtt') },
    { path: '/account/recover', heading: text('mfe-recovery/src/locales/en-GB.json', 'routes.recover') },
  ];
  for (const { path, heading } of pages) {
    await page.goto(path);
    await expectPage(page, heading);
    const stacks = await page.locator('main .hr-stack').evaluateAll((elements) =>
      elements.map((stack) => {
        const gap = parseFloat(getComputedStyle(stack).rowGap);
        const children = [...stack.children].filter((c) => c.getBoundingClientRect().height > 0);
        const spaces = children
          .slice(1)
          .map((c, i) => c.getBoundingClientRect().top - children[i]!.getBoundingClientRect().bottom);
        return { gap, spaces };
      }),
    );
    expect(stacks.length, path).toBeGreaterThan(0);
    for (const { gap, spaces } of stacks) {
      for (const space of spaces)
        expect(Math.abs(space - gap), `${path}: ${spaces.join(', ')}`).toBeLessThan(1);
    }
  }
});
