/**
 * `Applications` (ADR 0017): the signed-in home's "Continue" list — the registered clients that can start their own
 * sign-in — for a signed-in person only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

describe('Applications', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.store.clients.create({
      clientId: 'payroll',
      name: 'Payroll',
      redirectUris: ['https://payroll.example/callback'],
      initiateLoginUri: 'https://payroll.example/login',
    });
    await gw.store.clients.create({
      clientId: 'no-start',
      name: 'Back office',
      redirectUris: ['https://backoffice.example/callback'],
    });
  });
  afterAll(() => gw.close());

  it('lists nothing to a visitor who is not signed in', async () => {
    const visitor = await browser(gw.app);
    const res = await visitor.agent.get('/api/Account/Applications').expect(200);
    expect(res.body).toEqual([]);
  });

  it('lists the applications that start their own sign-in to a signed-in person, by name, and one the admin CLI adds', async () => {
    const user = await gw.addUser();
    const site = await browser(gw.app);
    expect((await site.signIn(user.username)).status).toBe(209);
    let res = await site.agent.get('/api/Account/Applications').expect(200);
    expect(res.body).toEqual([{ name: 'Payroll', url: 'https://payroll.example/login' }]);

    // The admin CLI registers another one; this process drops its cached list at once.
    await runAdminCommand(
      gw.store,
      [
        'clients',
        'add',
        '--id',
        'hr',
        '--name',
        'HR hub',
        '--public',
        '--redirect-uri',
        'https://hr.example/cb',
        '--initiate-login-uri',
        'https://hr.example/start',
      ],
      () => undefined,
    );
    res = await site.agent.get('/api/Account/Applications').expect(200);
    expect(res.body).toEqual([
      { name: 'HR hub', url: 'https://hr.example/start' },
      { name: 'Payroll', url: 'https://payroll.example/login' },
    ]);
  });
});
