import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin partners', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
    await admin.run('partners', 'add', '--id', 'acme', '--name', 'Acme');
  });
  afterAll(async () => {
    await admin.close();
  });

  it('add stores the branding given, with the shell defaults for the rest', async () => {
    const logo = path.join(admin.dir, 'logo.png');
    writeFileSync(logo, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const out = await admin.run(
      'partners',
      'add',
      '--id',
      'globex',
      '--name',
      'Globex',
      '--domains',
      'ID.Globex.example, sso.globex.example',
      '--background-color',
      '#123456',
      '--privacy-url',
      'https://globex.example/privacy',
      '--default-language',
      'de',
      '--languages',
      'de:Deutsch,en-GB:English',
      '--logo',
      logo,
      '--show-login-providers',
      'false',
      '--show-language-options',
      'true',
      '--show-background-images',
      'false',
      '--default',
    );
    expect(out).toBe('partner globex added');
    expect(await admin.store.partners.findById('globex')).toEqual({
      id: 'globex',
      name: 'Globex',
      domains: ['id.globex.example', 'sso.globex.example'],
      backgroundColor: '#123456',
      logo: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'),
      logoContentType: 'image/png',
      privacyPolicyUrl: 'https://globex.example/privacy',
      defaultLanguage: 'de',
      availableLanguages: [
        { name: 'de', description: 'Deutsch' },
        { name: 'en-GB', description: 'English' },
      ],
      showLoginProviders: false,
      showLanguageOptions: true,
      showBackgroundImages: false,
      isDefault: true,
      requireTwoFactor: false,
      rememberTwoFactorBrowser: false,
      idleSignOutMinutes: 0,
    });
  });

  it('update --logo none takes the logo away', async () => {
    const logo = path.join(admin.dir, 'logo-away.png');
    writeFileSync(logo, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await admin.run('partners', 'update', '--id', 'acme', '--logo', logo);
    expect((await admin.store.partners.findById('acme'))?.logoContentType).toBe('image/png');
    await admin.run('partners', 'update', '--id', 'acme', '--logo', 'none');
    const partner = await admin.store.partners.findById('acme');
    expect([partner?.logo, partner?.logoContentType]).toEqual([null, null]);
  });

  it('add refuses an id that is taken', async () => {
    expect(await admin.refused('partners', 'add', '--id', 'acme', '--name', 'Other')).toBe(
      'error: partner already exists',
    );
  });

  it('update changes only the options given', async () => {
    const before = await admin.store.partners.findById('globex');
    expect(await admin.run('partners', 'update', '--id', 'globex', '--name', 'Globex Corp')).toBe(
      'partner globex updated',
    );
    expect(await admin.store.partners.findById('globex')).toEqual({ ...before, name: 'Globex Corp' });
    // The same record as the console's UpdatePartner (ADR 0062), the CLI as actor.
    const [event] = await admin.store.audit.list({ kinds: ['console.partners.updated'] });
    expect(event).toMatchObject({
      userId: null,
      data: { actor: expect.stringMatching(/^cli:/), subject: 'globex', reason: null, changed: ['name'] },
    });
  });

  it('update --require-two-factor turns the partner-wide second factor on and off, and refuses other values', async () => {
    expect((await admin.store.partners.findById('acme'))?.requireTwoFactor).toBe(false);
    await admin.run('partners', 'update', '--id', 'acme', '--require-two-factor', 'true');
    expect((await admin.store.partners.findById('acme'))?.requireTwoFactor).toBe(true);
    expect(await admin.refused('partners', 'update', '--id', 'acme', '--require-two-factor', 'yes')).toBe(
      'error: --require-two-factor must be true or false',
    );
    expect((await admin.store.partners.findById('acme'))?.requireTwoFactor).toBe(true);
    await admin.run('partners', 'update', '--id', 'acme', '--require-two-factor', 'false');
    expect((await admin.store.partners.findById('acme'))?.requireTwoFactor).toBe(false);
    await admin.run('partners', 'update', '--id', 'acme', '--remember-two-factor-browser', 'true');
    expect((await admin.store.partners.findById('acme'))?.rememberTwoFactorBrowser).toBe(true);
  });

  it('update --idle-sign-out-minutes sets the idle sign-out (0 = off) and refuses what is not a number in range', async () => {
    expect((await admin.store.partners.findById('acme'))?.idleSignOutMinutes).toBe(0);
    await admin.run('partners', 'update', '--id', 'acme', '--idle-sign-out-minutes', '15');
    expect((await admin.store.partners.findById('acme'))?.idleSignOutMinutes).toBe(15);
    for (const bad of ['1441', 'ten', '1.5'])
      expect(await admin.refused('partners', 'update', '--id', 'acme', '--idle-sign-out-minutes', bad)).toBe(
        `error: --idle-sign-out-minutes must be a whole number from 0 to 1440, not "${bad}"`,
      );
    expect((await admin.store.partners.findById('acme'))?.idleSignOutMinutes).toBe(15);
    await admin.run('partners', 'update', '--id', 'acme', '--idle-sign-out-minutes', '0');
    expect((await admin.store.partners.findById('acme'))?.idleSignOutMinutes).toBe(0);
  });

  it('update names an unknown partner', async () => {
    expect(await admin.refused('partners', 'update', '--id', 'nope', '--name', 'N')).toBe(
      'error: no partner "nope"',
    );
  });

  it.each([
    ['--background-color', 'red;background:url(https://evil.example/x)'],
    ['--background-color', 'var(--x)'],
    ['--background-color', 'expression(alert(1))'],
    ['--privacy-url', 'javascript:alert(1)'],
    ['--privacy-url', 'https://user@evil.example/'],
    ['--privacy-url', '/relative/privacy'],
    ['--privacy-url', 'data:text/html,<script>alert(1)</script>'],
  ])('S34 refuses partner %s %s with one line, storing nothing', async (option, value) => {
    expect(await admin.refused('partners', 'update', '--id', 'acme', option, value)).toMatch(
      new RegExp(`^error: ${option}: ".*" is not`),
    );
    const partner = await admin.store.partners.findById('acme');
    expect(partner?.backgroundColor ?? null).toBeNull();
    expect(partner?.privacyPolicyUrl ?? null).toBeNull();
  });

  it('accepts the colours and links the shell accepts (shared checks)', async () => {
    await admin.run(
      'partners',
      'update',
      '--id',
      'acme',
      '--background-color',
      ' rgb(10 20 30 / 50%) ',
      '--privacy-url',
      'https://acme.example/privacy',
    );
    const partner = await admin.store.partners.findById('acme');
    expect(partner?.backgroundColor).toBe('rgb(10 20 30 / 50%)');
    expect(partner?.privacyPolicyUrl).toBe('https://acme.example/privacy');
  });

  it.each([
    [['--show-login-providers', 'yes'], 'error: --show-login-providers must be true or false'],
    [['--languages', 'de'], 'error: --languages: "de" must be code:Description'],
    [
      ['--languages', 'en-GB:English,ar:العربية'],
      'error: --languages: "ar" has no translation (translated: en-GB, en, de, fr-CA, es); add --allow-untranslated to offer it with en-GB\'s texts',
    ],
    [
      ['--default-language', 'ar'],
      'error: --default-language: "ar" has no translation (translated: en-GB, en, de, fr-CA, es); add --allow-untranslated to offer it with en-GB\'s texts',
    ],
    [['--logo', 'logo.gif'], 'error: --logo must be a .png, .jpg, .svg or .webp file'],
    [['--logo', '/nonexistent/logo.png'], 'error: --logo: cannot read /nonexistent/logo.png'],
  ])('update refuses %j', async (options, line) => {
    const before = await admin.store.partners.findById('acme');
    expect(await admin.refused('partners', 'update', '--id', 'acme', ...options)).toBe(line);
    expect(await admin.store.partners.findById('acme')).toEqual(before);
  });

  it('update refuses a logo over 512 KB', async () => {
    const logo = path.join(admin.dir, 'big.svg');
    writeFileSync(logo, Buffer.alloc(512 * 1024 + 1, 0x20));
    expect(await admin.refused('partners', 'update', '--id', 'acme', '--logo', logo)).toBe(
      'error: --logo must be at most 512 KB',
    );
  });

  it('update sets the password policy: only the values given change, and the sign-in and reset pages apply it', async () => {
    expect(await admin.store.passwordPolicies.find('acme')).toBeUndefined();
    const out = await admin.run(
      'partners',
      'update',
      '--id',
      'acme',
      '--password-min-length',
      '12',
      '--password-require-classes',
      'true',
      '--password-max-repeat',
      '3',
      '--password-max-age-days',
      '90',
    );
    expect(out).toBe(
      'partner acme updated\npassword policy of acme: 12–256 characters, all four character classes, at most 3 identical in a row, no refused characters, expires after 90 days',
    );
    await admin.run('partners', 'update', '--id', 'acme', '--password-max-repeat', '0');
    expect(await admin.store.passwordPolicies.find('acme')).toEqual({
      partnerId: 'acme',
      rules: { minLength: 12, requireCharacterClasses: true, maxConsecutive: 0 },
      maxAgeDays: 90,
    });
    await admin.run(
      'partners',
      'update',
      '--id',
      'acme',
      '--password-max-age-days',
      '0',
      '--password-invalid-characters',
      '<>',
      '--password-max-length',
      '64',
    );
    expect(await admin.store.passwordPolicies.find('acme')).toEqual({
      partnerId: 'acme',
      rules: {
        minLength: 12,
        maxLength: 64,
        requireCharacterClasses: true,
        maxConsecutive: 0,
        invalidCharacters: '<>',
      },
      maxAgeDays: 0,
    });
    // Branding options alone leave the policy as it was.
    const policy = await admin.store.passwordPolicies.find('acme');
    expect(await admin.run('partners', 'update', '--id', 'acme', '--name', 'Acme')).toBe(
      'partner acme updated',
    );
    expect(await admin.store.passwordPolicies.find('acme')).toEqual(policy);
  });

  it.each([
    [
      ['--password-min-length', '7'],
      'error: --password-min-length must be a whole number from 8 to 256, not "7"',
    ],
    [
      ['--password-min-length', '12.5'],
      'error: --password-min-length must be a whole number from 8 to 256, not "12.5"',
    ],
    [
      ['--password-max-length', '63'],
      'error: --password-max-length must be a whole number from 64 to 1024, not "63"',
    ],
    [
      ['--password-max-repeat=-1'],
      'error: --password-max-repeat must be a whole number from 0 to 64, not "-1"',
    ],
    [
      ['--password-max-repeat', '65'],
      'error: --password-max-repeat must be a whole number from 0 to 64, not "65"',
    ],
    [
      ['--password-max-age-days', 'soon'],
      'error: --password-max-age-days must be a whole number from 0 to 3650, not "soon"',
    ],
    [['--password-require-classes', 'yes'], 'error: --password-require-classes must be true or false'],
    [
      ['--password-min-length', '100', '--password-max-length', '64'],
      'error: the minimum password length (100) may not exceed the maximum (64)',
    ],
    [
      ['--password-min-length', '9', '--background-color', 'var(--x)'],
      'error: --background-color: "var(--x)" is not a colour (#rgb, #rrggbb, rgb(), hsl() or a name)',
    ],
  ])('S1 update refuses the password policy %j, storing nothing', async (options, line) => {
    const partner = await admin.store.partners.findById('acme');
    const policy = await admin.store.passwordPolicies.find('acme');
    expect(await admin.refused('partners', 'update', '--id', 'acme', ...options)).toBe(line);
    expect(await admin.store.passwordPolicies.find('acme')).toEqual(policy);
    expect(await admin.store.partners.findById('acme')).toEqual(partner);
  });

  it('offers a language without translations only when told it is on purpose (issue 43)', async () => {
    await admin.run(
      'partners',
      'update',
      '--id',
      'acme',
      '--languages',
      'en-GB:English,ar:العربية',
      '--allow-untranslated',
    );
    const partner = await admin.store.partners.findById('acme');
    expect(partner?.availableLanguages.map((l) => l.name)).toEqual(['en-GB', 'ar']);
  });

  it('list shows id, name, domains and the default partner', async () => {
    const lines = (await admin.run('partners', 'list')).split('\n');
    expect(lines).toContain('acme\tAcme\t-');
    expect(lines).toContain('globex\tGlobex Corp\tid.globex.example,sso.globex.example\tdefault');
  });
});
