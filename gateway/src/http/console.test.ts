import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS, consoleAccessSchema } from 'shared-contracts/console';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/**
 * `ConsoleAccess` (issue 51, ADR 0058): any signed-in account learns its console grants, the permissions they give
 * and whether it is ready for the console — what the shell's "Administration" entry and the console's pages go by.
 */
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `ConsoleAccess (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        await gw.store.partners.create({ id: 'north', name: 'North' });
      });
      afterAll(async () => {
        await gw.close();
      });

      async function signedIn(...roles: ('releaseManager' | 'support')[]) {
        const user = await gw.addUser();
        for (const role of roles)
          await gw.store.consoleGrants.add({
            userId: user.id,
            role,
            partnerId: role === 'support' ? 'north' : null,
            customerId: null,
            grantedBy: 'cli:test',
          });
        const b = await browser(gw.app);
        expect((await b.signIn(user.username)).status).toBe(209);
        return { b, user };
      }

      async function access(b: Awaited<ReturnType<typeof browser>>) {
        const res = await b.agent.get('/api/Account/ConsoleAccess').expect(200);
        // The very schema the console reads it with.
        return consoleAccessSchema.parse(res.body);
      }

      it('asks for a signed-in account', async () => {
        const res = await (await browser(gw.app)).agent.get('/api/Account/ConsoleAccess');
        expect({ status: res.status, body: res.body as unknown }).toMatchObject({
          status: 401,
          body: { errors: { '': ['notAuthenticated'] } },
        });
      });

      it('answers an account without grants with nothing to show', async () => {
        const { b } = await signedIn();
        expect(await access(b)).toEqual({ grants: [], permissions: [], secondFactorReady: false });
      });

      it("lists an operator's grants and the union of their permissions", async () => {
        const { b } = await signedIn('releaseManager', 'support');
        const answer = await access(b);
        expect(answer.grants).toEqual([
          { role: 'releaseManager', partnerId: null, customerId: null },
          { role: 'support', partnerId: 'north', customerId: null },
        ]);
        expect(answer.permissions.sort()).toEqual(
          [...new Set([...ROLE_PERMISSIONS.releaseManager, ...ROLE_PERMISSIONS.support])].sort(),
        );
      });

      it('says whether the operator has a second factor or a passkey yet', async () => {
        const { b } = await signedIn('releaseManager');
        expect((await access(b)).secondFactorReady).toBe(false);
        const options = await b.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
        const { payload } = new SoftwareAuthenticator(gw.config.publicUrl).register(options.body);
        expect((await b.post('/api/Account/RegisterCredential', payload)).status).toBe(209);
        expect((await access(b)).secondFactorReady).toBe(true);
      });
    },
  );
}
