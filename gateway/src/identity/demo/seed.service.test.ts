import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, startTestGateway, type TestGateway } from '../../testing/test-gateway.js';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET, demoSignInHelp, seedDemoData } from './seed.service.js';

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

  it('the user "twofactor" is sent to the set-up wizard', async () => {
    const b = await browser(gw.app);
    const start = await b.signIn('twofactor', DEMO_PASSWORD);
    expect(start.body.redirect).toBe('/account/setup-twofactor?returnUrl=%2F');
  });
});
