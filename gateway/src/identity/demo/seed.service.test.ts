import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT } from 'shared-contracts';
import { browser, startTestGateway, type TestGateway } from '../../testing/test-gateway.js';
import {
  DEMO_PASSWORD,
  DEMO_RECOVERY_CODES,
  DEMO_TOTP_SECRET,
  demoSignInHelp,
  seedDemoData,
} from './seed.service.js';

describe('demo seed', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    expect(await seedDemoData(gw.store, () => gw.clock.now())).toBe(true);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('prints the authenticator secret and its otpauth URI at first start', () => {
    const help = demoSignInHelp('http://localhost:8080').join('\n');
    expect(help).toContain(DEMO_TOTP_SECRET);
    expect(help).toContain(
      `otpauth://totp/Acme%20Payroll:authenticator?issuer=Acme%20Payroll&secret=${DEMO_TOTP_SECRET}&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('the user "authenticator" signs in with a code an app computes from the printed secret', async () => {
    const b = await browser(gw.app);
    const start = await b.signIn('authenticator', DEMO_PASSWORD);
    expect(start.body.redirect).toBe('/account/login/twofactor?returnUrl=%2F');
    const code = new TOTP({ secret: Secret.fromBase32(DEMO_TOTP_SECRET) }).generate({
      timestamp: gw.clock.now(),
    });
    const res = await b.post('/api/Account/LoginWith2FA', { method: 'authenticator', code });
    expect(res.status).toBe(209);
    expect(res.body.redirect).toBe('/');
  });

  it('the user "authenticator" has a full set of recovery codes (S19): a printed one signs in, once', async () => {
    const user = await gw.store.users.findByLogin('authenticator');
    expect(DEMO_RECOVERY_CODES).toHaveLength(RECOVERY_CODE_COUNT);
    expect(await gw.store.recoveryCodes.remaining(user!.id)).toBe(RECOVERY_CODE_COUNT);
    const help = demoSignInHelp('http://localhost:8080').join('\n');
    for (const code of DEMO_RECOVERY_CODES) expect(help).toContain(code);

    const b = await browser(gw.app);
    await b.signIn('authenticator', DEMO_PASSWORD);
    // Typed as a person might: lower case, spaces for dashes.
    const typed = DEMO_RECOVERY_CODES[0]!.toLowerCase().replaceAll('-', ' ');
    const res = await b.post('/api/Account/LoginWithRecoveryCode', { recoveryCode: typed });
    expect(res.status).toBe(209);
    expect(await gw.store.recoveryCodes.remaining(user!.id)).toBe(RECOVERY_CODE_COUNT - 1);

    const again = await browser(gw.app);
    await again.signIn('authenticator', DEMO_PASSWORD);
    const reused = await again.post('/api/Account/LoginWithRecoveryCode', {
      recoveryCode: DEMO_RECOVERY_CODES[0],
    });
    expect(reused.status).toBe(400);
  });

  it('the user "twofactor" is sent to the set-up wizard', async () => {
    const b = await browser(gw.app);
    const start = await b.signIn('twofactor', DEMO_PASSWORD);
    expect(start.body.redirect).toBe('/account/setup-twofactor?returnUrl=%2F');
  });

  it.each([
    ['platformadmin', 'platformAdmin'],
    ['releasemanager', 'releaseManager'],
  ] as const)(
    '"%s" signs in with the authenticator code and can use the console as %s',
    async (username, role) => {
      expect(demoSignInHelp('http://localhost:8080').join('\n')).toContain(`"${username}" (${role})`);
      const b = await browser(gw.app);
      expect((await b.signIn(username, DEMO_PASSWORD)).body.redirect).toBe(
        '/account/login/twofactor?returnUrl=%2F',
      );
      const code = new TOTP({ secret: Secret.fromBase32(DEMO_TOTP_SECRET) }).generate({
        timestamp: gw.clock.now(),
      });
      expect((await b.post('/api/Account/LoginWith2FA', { method: 'authenticator', code })).status).toBe(209);
      const access = await b.agent.get('/api/Account/ConsoleAccess').expect(200);
      expect(access.body).toMatchObject({
        grants: [{ role, partnerId: null, customerId: null }],
        secondFactorReady: true,
      });
    },
  );
});
