import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleUpstreamsSchema, upstreamSchema } from 'shared-contracts/console';
import { browser } from '../testing/browser.js';
import {
  consoleOutsiders,
  consolePlatformAdmin,
  type OperatorBrowser,
} from '../testing/console-operators.js';
import { BACKENDS, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { startTokenEndpoint } from '../testing/token-endpoint-stub.js';
import { startUpstreamIdp, type UpstreamIdp } from '../testing/upstream-idp.js';

const SECRET = 'upstream-client-secret-0123456789';

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's upstream provider calls (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let upstream: UpstreamIdp;
      let admin: { b: OperatorBrowser; username: string; id: string };
      let outsiders: Record<string, OperatorBrowser>;

      const vendorLogin = async () => {
        const visitor = await browser(gw.app);
        return visitor.post('/api/Account/VendorLogin', { vendorId: 'contoso', returnUrl: '/account/' });
      };

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        upstream = await startUpstreamIdp({
          clients: [
            {
              clientId: 'hr-identity',
              clientSecret: SECRET,
              redirectUris: [`${gw.config.publicUrl}/signin/contoso/callback`],
              postLogoutRedirectUris: [],
            },
          ],
        });
        await gw.store.partners.create({ id: 'acme', name: 'Acme' });
        await gw.store.customers.create({ id: 'acme-customer', name: 'Acme Customer', partnerId: 'acme' });
        admin = await consolePlatformAdmin(gw);
        outsiders = await consoleOutsiders(gw, 'acme', 'acme-customer');
      });
      afterAll(async () => {
        await gw?.close();
        await upstream?.close();
      });

      it('refuses a provider whose discovery fails, with its error on the issuer, storing nothing', async () => {
        const res = await admin.b.post('/api/Account/CreateUpstream', {
          id: 'nowhere',
          name: 'Nowhere',
          issuer: 'http://127.0.0.1:9/nothing-here',
          clientId: 'x',
          clientSecret: 'y',
        });
        expect(res.status).toBe(400);
        expect(res.body.errors.issuer[0]).toMatch(/^upstreamDiscoveryFailed\|/);
        expect(await gw.store.identityProviders.findById('nowhere')).toBeUndefined();
        const bad = await admin.b.post('/api/Account/CreateUpstream', {
          id: 'Bad Id',
          name: '',
          issuer: 'javascript:alert(1)',
          clientId: 'x',
          clientSecret: '',
          scopes: 'profile email',
        });
        expect(bad.status).toBe(400);
        expect(Object.keys(bad.body.errors)).toEqual(
          expect.arrayContaining(['id', 'name', 'issuer', 'clientSecret', 'scopes']),
        );
      });

      it('creates a vendor provider once its discovery answers; audited without the secret', async () => {
        const roleless = await admin.b.post('/api/Account/CreateUpstream', {
          id: 'contoso',
          name: 'Contoso Support',
          issuer: upstream.issuer,
          clientId: 'hr-identity',
          clientSecret: SECRET,
          vendor: true,
        });
        expect(roleless.body.errors.roles).toEqual(['upstreamRoles']);
        const res = await admin.b.post('/api/Account/CreateUpstream', {
          id: 'contoso',
          name: 'Contoso Support',
          issuer: `${upstream.issuer}/`,
          clientId: 'hr-identity',
          clientSecret: SECRET,
          vendor: true,
          roles: ['VENDOR_SUPPORT'],
          reason: 'new vendor',
        });
        expect(res.status).toBe(200);
        expect(upstreamSchema.parse(res.body)).toMatchObject({
          id: 'contoso',
          issuer: upstream.issuer,
          vendor: true,
        });
        expect(JSON.stringify(res.body)).not.toContain(SECRET);
        const listed = consoleUpstreamsSchema.parse(
          (await admin.b.agent.get('/api/Account/ConsoleUpstreams').expect(200)).body,
        );
        expect(listed.upstreams.map((u) => u.id)).toEqual(['contoso']);
        const [event] = await gw.store.audit.list({ kinds: ['console.upstreams.created'] });
        expect(event).toMatchObject({
          data: { actor: admin.username, subject: 'contoso', reason: 'new vendor' },
        });
        expect(JSON.stringify(event)).not.toContain(SECRET);
        expect((await vendorLogin()).status).toBe(209);
      });

      it('checks discovery again when the secret or issuer changes', async () => {
        const moved = await admin.b.post('/api/Account/UpdateUpstream', {
          id: 'contoso',
          issuer: 'http://127.0.0.1:9/moved',
        });
        expect(moved.status).toBe(400);
        expect(moved.body.errors.issuer[0]).toMatch(/^upstreamDiscoveryFailed\|/);
        expect((await gw.store.identityProviders.findById('contoso'))!.issuer).toBe(upstream.issuer);
        const renamed = await admin.b.post('/api/Account/UpdateUpstream', {
          id: 'contoso',
          name: 'Contoso Helpdesk',
          reason: 'renamed',
        });
        expect(renamed.status).toBe(200);
        expect(renamed.body.name).toBe('Contoso Helpdesk');
        expect((await admin.b.post('/api/Account/UpdateUpstream', { id: 'nobody', name: 'x' })).status).toBe(
          404,
        );
      });

      it("token endpoint method (ADR 0064): in use after discovery, the JWKS address; one the provider does not list is the field's error; private_key_jwt needs no secret", async () => {
        const stub = await startTokenEndpoint(['client_secret_basic', 'client_secret_post']);
        try {
          const fields = { name: 'Keys', issuer: stub.issuer, clientId: 'hr-identity' };
          const unlisted = await admin.b.post('/api/Account/CreateUpstream', {
            id: 'keys',
            ...fields,
            tokenAuthMethod: 'private_key_jwt',
          });
          expect(unlisted.status).toBe(400);
          expect(unlisted.body.errors.tokenAuthMethod).toEqual([
            'upstreamTokenAuthMethod|{"method":"private_key_jwt","supported":"client_secret_basic, client_secret_post"}',
          ]);
          const noSecret = await admin.b.post('/api/Account/CreateUpstream', { id: 'keys', ...fields });
          expect(noSecret.body.errors.clientSecret).toEqual(['upstreamSecretRequired']);
          expect(await gw.store.identityProviders.findById('keys')).toBeUndefined();

          const auto = await admin.b.post('/api/Account/CreateUpstream', {
            id: 'keys',
            ...fields,
            clientSecret: 's',
          });
          expect(auto.status).toBe(200);
          expect(upstreamSchema.parse(auto.body)).toMatchObject({
            tokenAuthMethod: null,
            jwksUri: `${gw.config.publicUrl}/signin/keys/jwks`,
          });
          // The replica discovers it in the background: the method in use follows.
          await expect
            .poll(async () => (await gw.store.identityProviders.findById('keys'))?.tokenAuthMethodInUse)
            .toBe('client_secret_post');

          stub.setMethods(['client_secret_basic', 'private_key_jwt']);
          const keyed = await admin.b.post('/api/Account/UpdateUpstream', {
            id: 'keys',
            tokenAuthMethod: 'private_key_jwt',
            reason: 'keys',
          });
          expect(keyed.status).toBe(200);
          expect(keyed.body.tokenAuthMethod).toBe('private_key_jwt');
          const created = await admin.b.post('/api/Account/CreateUpstream', {
            id: 'keys2',
            ...fields,
            tokenAuthMethod: 'private_key_jwt',
          });
          expect(created.status).toBe(200);
          expect((await gw.store.identityProviders.findById('keys2'))?.clientSecret).toBe('');
        } finally {
          await stub.close();
        }
      });

      it('disables a provider: no sign-in through it until it is enabled again', async () => {
        const res = await admin.b.post('/api/Account/DisableUpstream', {
          id: 'contoso',
          reason: 'contract ended',
        });
        expect(res.status).toBe(200);
        expect(res.body.disabled).toBe(true);
        expect((await vendorLogin()).status).not.toBe(209);
        const enabled = await admin.b.post('/api/Account/DisableUpstream', {
          id: 'contoso',
          disabled: false,
        });
        expect(enabled.body.disabled).toBe(false);
        expect((await vendorLogin()).status).toBe(209);
        expect((await gw.store.audit.list({ kinds: ['console.upstreams.disabled'] }))[0]?.data).toMatchObject(
          { subject: 'contoso', reason: 'contract ended' },
        );
      });

      it('answers nobody but a platform administrator, with any id, and never the data', async () => {
        const before = await gw.store.identityProviders.findById('contoso');
        for (const [who, b] of Object.entries(outsiders)) {
          const answers = [
            await b.agent.get('/api/Account/ConsoleUpstreams'),
            await b.post('/api/Account/CreateUpstream', {
              id: 'intruder',
              name: 'Intruder',
              issuer: upstream.issuer,
              clientId: 'hr-identity',
              clientSecret: SECRET,
            }),
            await b.post('/api/Account/UpdateUpstream', { id: 'contoso', name: 'Taken' }),
            await b.post('/api/Account/DisableUpstream', { id: 'contoso' }),
          ];
          for (const answer of answers) {
            expect([403, 404], who).toContain(answer.status);
            expect(JSON.stringify(answer.body), who).not.toMatch(/Contoso|hr-identity/);
          }
        }
        expect(await gw.store.identityProviders.findById('intruder')).toBeUndefined();
        expect(await gw.store.identityProviders.findById('contoso')).toEqual(before);
      });
    },
  );
}
