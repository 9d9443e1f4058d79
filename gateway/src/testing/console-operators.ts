import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { ConsoleRole } from 'shared-contracts/console';
import { browser } from './browser.js';
import { SoftwareAuthenticator } from './software-authenticator.js';
import type { TestGateway } from './test-gateway.js';

/** A signed-in test browser. */
export type OperatorBrowser = Awaited<ReturnType<typeof browser>>;

/** Grants a console role (none: an employee) to a new account with a passkey, signed in just now. */
export async function consoleOperator(
  gw: TestGateway,
  role: ConsoleRole | null,
  partnerId: string | null = null,
  customerId: string | null = null,
): Promise<OperatorBrowser> {
  const user = await gw.addUser();
  if (role)
    await gw.store.consoleGrants.add({ userId: user.id, role, partnerId, customerId, grantedBy: 'cli:test' });
  const b = await browser(gw.app);
  expect((await b.signIn(user.username)).status).toBe(209);
  const registration = await b.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
  const { payload } = new SoftwareAuthenticator(gw.config.publicUrl).register(
    registration.body as Parameters<SoftwareAuthenticator['register']>[0],
  );
  expect((await b.post('/api/Account/RegisterCredential', payload)).status).toBe(209);
  b.token = ((await b.agent.get('/api/Account/Antiforgery').expect(200)).body as { token: string }).token;
  return b;
}

/** A platform administrator with an authenticator app, signed in with its code (a full sign-in). */
export async function consolePlatformAdmin(
  gw: TestGateway,
): Promise<{ b: OperatorBrowser; username: string; id: string }> {
  const user = await gw.addUser();
  await gw.store.consoleGrants.add({
    userId: user.id,
    role: 'platformAdmin',
    partnerId: null,
    customerId: null,
    grantedBy: 'cli:test',
  });
  const secret = new Secret();
  await gw.store.secondFactors.enableAuthenticator(user.id, gw.store.secrets.encrypt(secret.base32), 0);
  const b = await browser(gw.app);
  expect(((await b.signIn(user.username)).body as { redirect: string }).redirect).toMatch(
    /\/account\/login\/twofactor/,
  );
  const code = new TOTP({ secret }).generate({ timestamp: gw.clock.now() });
  expect((await b.post('/api/Account/LoginWith2FA', { method: 'authenticator', code })).status).toBe(209);
  b.token = ((await b.agent.get('/api/Account/Antiforgery').expect(200)).body as { token: string }).token;
  return { b, username: user.username, id: user.id };
}

/** Everyone who is not a platform administrator: an employee, support and a customer administrator of `partnerId`'s customer, a release manager. */
export async function consoleOutsiders(
  gw: TestGateway,
  partnerId: string,
  customerId: string,
): Promise<Record<string, OperatorBrowser>> {
  return {
    employee: await consoleOperator(gw, null),
    support: await consoleOperator(gw, 'support', partnerId),
    customerAdmin: await consoleOperator(gw, 'customerAdmin', partnerId, customerId),
    releaseManager: await consoleOperator(gw, 'releaseManager'),
  };
}
