import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin partners update --captcha', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
    await admin.run('partners', 'add', '--id', 'acme', '--name', 'Acme');
  });
  afterAll(async () => {
    await admin.close();
  });

  it('a partner without settings has the self-hosted proof-of-work on risk', async () => {
    expect(await admin.store.captchaSettings.find('acme')).toMatchObject({
      provider: 'altcha',
      when: 'risk',
    });
  });

  it('stores reCAPTCHA v3 with its keys (the secret sealed at rest, never printed)', async () => {
    const out = await admin.run(
      'partners',
      'update',
      '--id',
      'acme',
      '--captcha',
      'recaptcha-v3',
      '--captcha-site-key',
      '6LcSiteKey_abc-123',
      '--captcha-secret',
      'top-secret-value',
      '--captcha-min-score',
      '0.7',
      '--captcha-when',
      'always',
    );
    expect(out).toContain('captcha recaptcha-v3, when always, site key 6LcSiteKey_abc-123, min score 0.7');
    expect(out).not.toContain('top-secret-value');
    expect(await admin.store.captchaSettings.find('acme')).toMatchObject({
      provider: 'recaptcha-v3',
      when: 'always',
      siteKey: '6LcSiteKey_abc-123',
      secret: 'top-secret-value',
      minScore: 0.7,
    });
    const row = await admin.store.database.db
      .selectFrom('captcha_settings' as never)
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('top-secret-value');
  });

  it('changes only what is given, and turns the captcha off', async () => {
    await admin.run('partners', 'update', '--id', 'acme', '--captcha', 'off');
    expect(await admin.store.captchaSettings.find('acme')).toMatchObject({
      provider: 'off',
      siteKey: '6LcSiteKey_abc-123',
    });
  });

  it.each([
    [['--captcha', 'hcaptcha'], '--captcha must be one of altcha, recaptcha-v2, recaptcha-v3, off'],
    [['--captcha-when', 'sometimes'], '--captcha-when must be one of always, never, risk'],
    [['--captcha-min-score', '1.5'], '--captcha-min-score must be from 0.0 to 1.0'],
  ])('refuses %j', async (args, message) => {
    expect(await admin.refused('partners', 'update', '--id', 'acme', ...args)).toContain(message);
  });

  it('refuses reCAPTCHA without both keys', async () => {
    await admin.run('partners', 'add', '--id', 'bare', '--name', 'Bare');
    expect(
      await admin.refused(
        'partners',
        'update',
        '--id',
        'bare',
        '--captcha',
        'recaptcha-v2',
        '--captcha-site-key',
        'k',
      ),
    ).toContain('needs --captcha-site-key and --captcha-secret');
    expect((await admin.store.captchaSettings.find('bare')).provider).toBe('altcha');
  });
});
