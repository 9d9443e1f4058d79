// The sign-in route's first HTML must already hold the page (docs/adr/0007-sign-in-first-paint.md), read from
// the build output like the byte budget: mfe-login's build-time render of /account/login in every locale, and the
// shell's index.html that the gateway fills it into. Fails when first paint silently regresses to an empty root.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const drawn = path.join(REPO, 'mfe-login', 'dist', 'first-paint');
const LABELS = {
  'en-GB': ['Sign in', 'Username or email', 'Password'],
  en: ['Sign in', 'Username or email', 'Password'],
  de: ['Anmelden', 'Benutzername oder E-Mail', 'Passwort'],
  'fr-CA': ['Connexion', 'Nom d’utilisateur ou courriel', 'Mot de passe'],
  es: ['Iniciar sesión', 'Nombre de usuario o correo electrónico', 'Contraseña'],
};

describe('/account/login first HTML (build output)', () => {
  it('lists the sign-in page among the pages drawn at build time', () => {
    const index = JSON.parse(readFileSync(path.join(drawn, 'pages.json'), 'utf8'));
    expect(index.pages['/account/login']).toBe('account-login');
  });

  for (const [locale, [heading, username, password]] of Object.entries(LABELS)) {
    for (const logo of [false, true]) {
      it(`${locale}${logo ? ' with logo' : ''}: heading, form with labelled fields, partner slots`, () => {
        const file = path.join(drawn, 'account-login', `${locale}${logo ? '.logo' : ''}.html`);
        expect(existsSync(file), file).toBe(true);
        const html = readFileSync(file, 'utf8');
        const text = html.replace(/&#x27;|&#39;/g, "'");
        expect(text).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
        expect(html).toMatch(/<form[^>]*method="post"/);
        expect(text).toContain(`>${username}</label>`);
        expect(text).toContain(`>${password}</label>`);
        expect(html).toMatch(/<input[^>]*name="username"/);
        expect(html).toMatch(/<input[^>]*type="password"[^>]*name="password"/);
        expect(html).toMatch(/<button type="submit"/);
        expect(html).toContain('__HR_FIRST_PAINT_PARTNER_NAME__');
        expect(html.includes('__HR_FIRST_PAINT_PARTNER_LOGO__')).toBe(logo);
      });
    }
  }

  it("the shell's index.html has the root to fill and links its styles in the head (styled before scripts)", () => {
    const index = readFileSync(path.join(REPO, 'shell', 'dist', 'index.html'), 'utf8');
    expect(index).toContain('<div id="root"></div>');
    const head = index.slice(0, index.indexOf('</head>'));
    expect(head).toMatch(/<link[^>]*rel="stylesheet"|<style/);
  });
});
