import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseRegistry } from '../releases/release-registry.js';
import { FirstPaintPages, firstPaintLanguage, type FirstPaintPartner } from './first-paint.js';
import { shellRouter } from './shell.router.js';

const INDEX =
  '<!doctype html><html lang="en-GB"><head><title>Identity</title><link href="/assets/main.abc.css" rel="stylesheet"></head>' +
  '<body><div id="root"></div><script defer src="/assets/main.def.js"></script></body></html>';
const CSS = '.hr-page{margin:0}';
const NAME = '__HR_FIRST_PAINT_PARTNER_NAME__';
const LOGO = '__HR_FIRST_PAINT_PARTNER_LOGO__';
const APPLICATION = '__HR_FIRST_PAINT_APPLICATION_NAME__';

/** A drawn page as mfe-login's build writes it: the brand, the heading and the form, in one locale. */
function drawnPage(heading: string, label: string, logo: boolean, application = false): string {
  const brand = logo ? `<img src="${LOGO}" alt="${NAME}"/>` : `<span>${NAME}</span>`;
  const line = application ? `<p data-testid="login-client">to continue to ${APPLICATION}</p>` : '';
  return `<div class="shell">${brand}<h1>${heading}</h1>${line}<form method="post"><label>${label}</label><input name="username"/></form></div>`;
}

describe('the sign-in page in the first HTML', () => {
  let root: string;
  let partner: FirstPaintPartner;
  const app = express();

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'first-paint-'));
    const shellDist = path.join(root, 'shell');
    mkdirSync(shellDist);
    writeFileSync(path.join(shellDist, 'index.html'), INDEX);
    mkdirSync(path.join(shellDist, 'assets'));
    writeFileSync(path.join(shellDist, 'assets', 'main.abc.css'), CSS);
    const version = path.join(root, 'releases', 'mfe-login', '1.0.0-abc', 'first-paint');
    mkdirSync(path.join(version, 'account-login'), { recursive: true });
    writeFileSync(
      path.join(version, 'pages.json'),
      JSON.stringify({ pages: { '/account/login': 'account-login' } }),
    );
    for (const [locale, heading, label] of [
      ['en-GB', 'Sign in', 'Username or email'],
      ['de', 'Anmelden', 'Benutzername oder E-Mail'],
    ] as const) {
      writeFileSync(path.join(version, 'account-login', `${locale}.html`), drawnPage(heading, label, false));
      writeFileSync(
        path.join(version, 'account-login', `${locale}.logo.html`),
        drawnPage(heading, label, true),
      );
      if (locale === 'en-GB')
        writeFileSync(
          path.join(version, 'account-login', `${locale}.application.html`),
          drawnPage(heading, label, false, true),
        );
    }
    const releases = {
      manifest: () => ({
        remotes: {
          'mfe-login': { entry: '/remotes/mfe-login/1.0.0-abc/remoteEntry.js', version: '1.0.0-abc' },
        },
      }),
      // What the replica holds in memory for an announced version: the files of its build folder.
      file: (id: string, v: string, file: string) => {
        const full = path.join(root, 'releases', id, v, file);
        return existsSync(full) ? { body: readFileSync(full) } : undefined;
      },
    } as unknown as Pick<ReleaseRegistry, 'manifest' | 'file'>;
    app.use(
      shellRouter({
        shellDist,
        logger: pino({ level: 'silent' }),
        firstPaint: {
          pages: new FirstPaintPages(releases, 'idp.bucket'),
          partner: () => Promise.resolve(partner),
          // As LoginView: only a known interaction names an application.
          applicationName: (returnUrl) =>
            returnUrl === '/interaction/known'
              ? Promise.resolve('Payroll <b>portal</b>')
              : returnUrl === '/interaction/broken'
                ? Promise.reject(new Error('store down'))
                : Promise.resolve(undefined),
        },
      }),
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const acme = (overrides: Partial<FirstPaintPartner> = {}): FirstPaintPartner => ({
    partnerId: 'demo',
    partnerName: 'Acme Payroll',
    defaultLanguage: 'en-GB',
    availableLanguages: [{ name: 'en-GB' }, { name: 'de' }, { name: 'ar' }],
    hasLogo: false,
    ...overrides,
  });

  it('holds the heading, the form and the partner name, so the page shows before any script', async () => {
    partner = acme();
    const res = await request(app).get('/account/login').expect(200);
    expect(res.text).toContain('<div id="root" data-first-paint="">');
    expect(res.text).toContain('<h1>Sign in</h1>');
    expect(res.text).toMatch(
      /<form method="post"><label>Username or email<\/label><input name="username"\/>/,
    );
    expect(res.text).toContain('<span>Acme Payroll</span>');
    expect(res.text).not.toContain('__HR_FIRST_PAINT');
    // No logo: no image, and no hint telling the shell to ask for one.
    expect(res.text).not.toContain('<img');
    expect(res.text).not.toContain('name="partner-logo"');
  });

  it('shows the logo of a partner that has one, and tells the shell', async () => {
    partner = acme({ hasLogo: true });
    const res = await request(app).get('/account/login').expect(200);
    expect(res.text).toContain('<img src="/api/Account/GetPartnerLogo?partnerId=demo" alt="Acme Payroll"/>');
    expect(res.text).toContain(
      '<meta name="partner-logo" content="/api/Account/GetPartnerLogo?partnerId=demo" />',
    );
  });

  it('names the application the sign-in goes on to, as text, so the line is there before any script (issue 49)', async () => {
    partner = acme();
    const named = await request(app).get('/account/login?returnUrl=%2Finteraction%2Fknown').expect(200);
    expect(named.text).toContain(
      '<h1>Sign in</h1><p data-testid="login-client">to continue to Payroll &lt;b&gt;portal&lt;/b&gt;</p><form',
    );
    expect(named.text).not.toContain('__HR_FIRST_PAINT');
    // No application (a sign-in to this site), or one that can't be named: the page without the line.
    for (const returnUrl of ['%2Faccount%2F', '%2Finteraction%2Fbroken']) {
      const plain = await request(app).get(`/account/login?returnUrl=${returnUrl}`).expect(200);
      expect(plain.text).toContain('<h1>Sign in</h1><form');
      expect(plain.text).not.toContain('login-client');
    }
    // A build without the variant (German here): the page without the line, never a placeholder.
    partner = acme({ defaultLanguage: 'de' });
    const older = await request(app).get('/account/login?returnUrl=%2Finteraction%2Fknown').expect(200);
    expect(older.text).toContain('<h1>Anmelden</h1><form');
    expect(older.text).not.toContain('__HR_FIRST_PAINT');
  });

  it('writes a partner name with markup as text (S34)', async () => {
    partner = acme({ partnerName: '<script>alert(1)</script>' });
    const res = await request(app).get('/account/login').expect(200);
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>alert(1)');
  });

  it('speaks the language the shell will choose: the culture cookie, else the partner default', async () => {
    partner = acme({ defaultLanguage: 'de' });
    let res = await request(app).get('/account/login').expect(200);
    expect(res.text).toContain('<html lang="de" dir="ltr">');
    expect(res.text).toContain('<h1>Anmelden</h1>');
    res = await request(app)
      .get('/account/login')
      .set('Cookie', '.AspNetCore.Culture=c%3Den-GB%7Cuic%3Den-GB');
    expect(res.text).toContain('<h1>Sign in</h1>');
    // An RTL language without shipped text: mirrored, with the default text (the shell's fallback too).
    res = await request(app).get('/account/login').set('Cookie', '.AspNetCore.Culture=c%3Dar%7Cuic%3Dar');
    expect(res.text).toContain('<html lang="ar" dir="rtl">');
    expect(res.text).toContain('<h1>Sign in</h1>');
    // ... and that text is marked as English and isolated, so its punctuation does not flip.
    expect(res.text).toContain('<body lang="en-GB" data-text-fallback=""');
  });

  it('leaves other pages as they were: an empty root for the app, the stylesheet and the deferred script', async () => {
    partner = acme();
    const res = await request(app).get('/account/recover').expect(200);
    expect(res.text).toContain('<div id="root"></div>');
    expect(res.text).toContain('<link href="/assets/main.abc.css" rel="stylesheet">');
    expect(res.text).toContain('<script defer src="/assets/main.def.js"></script>');
  });

  it('holds nothing back from the first paint: styles inline with the nonce, the script asked for after it', async () => {
    partner = acme();
    const res = await request(app).get('/account/login').expect(200);
    const nonce = /<style nonce="([^"]+)">/.exec(res.text)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.text).toContain(`<style nonce="${nonce}">${CSS}</style>`);
    expect(res.text).not.toContain('rel="stylesheet"');
    // No script element the parser would fetch at once: a loader (same nonce) appends it once the page painted.
    expect(res.text).not.toMatch(/<script[^>]*\bsrc=/);
    expect(res.text).toMatch(
      new RegExp(
        `<script nonce="${nonce}" data-after-paint>.*\\["/assets/main\\.def\\.js"\\].*first-contentful-paint.*</script></body>`,
      ),
    );
  });

  it('answers a native form post to a page with a redirect back to it, reading nothing', async () => {
    const res = await request(app)
      .post('/account/login?returnUrl=%2F')
      .type('form')
      .send({ username: 'a', password: 'secret' })
      .expect(303);
    expect(res.headers.location).toBe('/account/login?returnUrl=%2F');
  });

  it('chooses like the shell: a cookie language the partner does not offer is skipped', () => {
    expect(firstPaintLanguage(acme({ defaultLanguage: 'de' }), 'c=es|uic=es')).toBe('de');
    expect(firstPaintLanguage(acme(), undefined)).toBe('en-GB');
  });

  it("draws a German browser's page in German without a cookie, within the partner's languages", async () => {
    partner = acme();
    const res = await request(app)
      .get('/account/login')
      .set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.8')
      .expect(200);
    expect(res.text).toContain('<html lang="de" dir="ltr">');
    expect(res.text).toContain('<h1>Anmelden</h1>');
    expect(res.headers.vary ?? '').toMatch(/accept-language/i);
    // A language the partner does not offer is passed over for the next one the browser accepts.
    partner = acme({ availableLanguages: [{ name: 'en-GB' }, { name: 'ar' }] });
    const other = await request(app).get('/account/login').set('Accept-Language', 'de-DE,ar;q=0.5');
    expect(other.text).toContain('<html lang="ar" dir="rtl">');
  });
});
