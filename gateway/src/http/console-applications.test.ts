import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWithSecretSchema, consoleApplicationsSchema } from 'shared-contracts/console';
import {
  consoleOutsiders,
  consolePlatformAdmin,
  type OperatorBrowser,
} from '../testing/console-operators.js';
import { BACKENDS, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const REDIRECT = 'https://app.example/callback';

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's application calls (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let admin: { b: OperatorBrowser; username: string; id: string };
      let outsiders: Record<string, OperatorBrowser>;

      /**
       * The token endpoint's verdict on a client's credentials: with a made-up code, a client that authenticates
       * gets `invalid_grant`, one that does not `invalid_client`.
       */
      async function tokenVerdict(clientId: string, secret: string): Promise<string> {
        const res = await fetch(`${gw.url}/connect/token`, {
          method: 'POST',
          headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: 'made-up',
            redirect_uri: REDIRECT,
          }),
        });
        return ((await res.json()) as { error: string }).error;
      }

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, oidc: true });
        await gw.store.partners.create({ id: 'acme', name: 'Acme' });
        await gw.store.customers.create({ id: 'acme-customer', name: 'Acme Customer', partnerId: 'acme' });
        await gw.store.clients.create({
          clientId: 'secret-portal',
          name: 'Secret Portal',
          redirectUris: [REDIRECT],
          clientSecret: 'the-cli-given-secret-0123456789',
        });
        admin = await consolePlatformAdmin(gw);
        outsiders = await consoleOutsiders(gw, 'acme', 'acme-customer');
      });
      afterAll(async () => {
        await gw?.close();
      });

      it('creates a confidential application, showing its secret once, and lists it without', async () => {
        const res = await admin.b.post('/api/Account/CreateApplication', {
          clientId: 'payroll',
          name: 'Payroll',
          confidential: true,
          redirectUris: [REDIRECT],
          postLogoutRedirectUris: ['https://app.example/bye'],
          reason: 'new customer app',
        });
        expect(res.status).toBe(200);
        const created = applicationWithSecretSchema.parse(res.body);
        expect(created.application).toMatchObject({
          clientId: 'payroll',
          confidential: true,
          disabled: false,
        });
        expect(created.clientSecret!.length).toBeGreaterThanOrEqual(32);
        expect(await tokenVerdict('payroll', created.clientSecret!)).toBe('invalid_grant');
        const listed = await admin.b.agent.get('/api/Account/ConsoleApplications').expect(200);
        expect(consoleApplicationsSchema.parse(listed.body).applications.map((a) => a.clientId)).toContain(
          'payroll',
        );
        expect(JSON.stringify(listed.body)).not.toContain(created.clientSecret);
        const [event] = await gw.store.audit.list({ kinds: ['console.applications.created'] });
        expect(event).toMatchObject({
          userId: admin.id,
          data: { actor: admin.username, subject: 'payroll', reason: 'new customer app' },
        });
        expect(JSON.stringify(event)).not.toContain(created.clientSecret);
        const again = await admin.b.post('/api/Account/CreateApplication', {
          clientId: 'payroll',
          name: 'Payroll',
          confidential: false,
          redirectUris: [REDIRECT],
        });
        expect(again.status).toBe(409);
        expect(again.body.errors.clientId).toEqual(['applicationExists']);
      });

      it('refuses addresses the CLI refuses, on their fields, storing nothing', async () => {
        const res = await admin.b.post('/api/Account/CreateApplication', {
          clientId: 'bad one',
          name: '',
          confidential: true,
          redirectUris: ['javascript:alert(1)', 'https://app.example/cb#frag'],
          postLogoutRedirectUris: ['/relative'],
        });
        expect(res.status).toBe(400);
        expect(res.body.errors).toMatchObject({
          clientId: expect.any(Array),
          name: expect.any(Array),
          redirectUris: ['applicationRedirectUri'],
          postLogoutRedirectUris: ['applicationRedirectUri'],
        });
        const noRedirect = await admin.b.post('/api/Account/UpdateApplication', {
          clientId: 'secret-portal',
          redirectUris: [],
        });
        expect(noRedirect.status).toBe(400);
        expect((await gw.store.clients.findById('secret-portal'))!.redirectUris).toEqual([REDIRECT]);
      });

      it('updates the fields given and clears an address with null', async () => {
        const res = await admin.b.post('/api/Account/UpdateApplication', {
          clientId: 'secret-portal',
          name: 'Secret Portal 2',
          initiateLoginUri: 'https://app.example/start',
          reason: 'launch link',
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          name: 'Secret Portal 2',
          initiateLoginUri: 'https://app.example/start',
        });
        const cleared = await admin.b.post('/api/Account/UpdateApplication', {
          clientId: 'secret-portal',
          initiateLoginUri: null,
        });
        expect(cleared.body.initiateLoginUri).toBeNull();
        expect(
          (await admin.b.post('/api/Account/UpdateApplication', { clientId: 'nobody', name: 'x' })).status,
        ).toBe(404);
      });

      it('rotates a secret: the new one is answered once, the old one refused at the token endpoint', async () => {
        const old = 'the-cli-given-secret-0123456789';
        expect(await tokenVerdict('secret-portal', old)).toBe('invalid_grant');
        const res = await admin.b.post('/api/Account/RotateApplicationSecret', {
          clientId: 'secret-portal',
          reason: 'leaked',
        });
        expect(res.status).toBe(200);
        const rotated = applicationWithSecretSchema.parse(res.body);
        expect(rotated.clientSecret).not.toBe(old);
        expect(await tokenVerdict('secret-portal', old)).toBe('invalid_client');
        expect(await tokenVerdict('secret-portal', rotated.clientSecret!)).toBe('invalid_grant');
        const [event] = await gw.store.audit.list({ kinds: ['console.applications.secretRotated'] });
        expect(event).toMatchObject({
          data: { actor: admin.username, subject: 'secret-portal', reason: 'leaked' },
        });
      });

      it('disables an application: the token endpoint no longer knows it; enabling brings it back', async () => {
        const { clientSecret } = applicationWithSecretSchema.parse(
          (await admin.b.post('/api/Account/RotateApplicationSecret', { clientId: 'secret-portal' })).body,
        );
        const res = await admin.b.post('/api/Account/DisableApplication', {
          clientId: 'secret-portal',
          reason: 'contract ended',
        });
        expect(res.status).toBe(200);
        expect(res.body.disabled).toBe(true);
        expect(await tokenVerdict('secret-portal', clientSecret!)).toBe('invalid_client');
        const enabled = await admin.b.post('/api/Account/DisableApplication', {
          clientId: 'secret-portal',
          disabled: false,
        });
        expect(enabled.body.disabled).toBe(false);
        expect(await tokenVerdict('secret-portal', clientSecret!)).toBe('invalid_grant');
        expect(
          (await gw.store.audit.list({ kinds: ['console.applications.disabled'] }))[0]?.data,
        ).toMatchObject({ subject: 'secret-portal', reason: 'contract ended' });
      });

      it('answers nobody but a platform administrator, with any id, and never the data', async () => {
        const before = await gw.store.clients.findById('secret-portal');
        for (const [who, b] of Object.entries(outsiders)) {
          const answers = [
            await b.agent.get('/api/Account/ConsoleApplications'),
            await b.post('/api/Account/CreateApplication', {
              clientId: 'intruder',
              name: 'Intruder',
              confidential: true,
              redirectUris: [REDIRECT],
            }),
            await b.post('/api/Account/UpdateApplication', { clientId: 'secret-portal', name: 'Taken' }),
            await b.post('/api/Account/DisableApplication', { clientId: 'secret-portal' }),
            await b.post('/api/Account/RotateApplicationSecret', { clientId: 'secret-portal' }),
          ];
          for (const answer of answers) {
            expect([403, 404], who).toContain(answer.status);
            expect(JSON.stringify(answer.body), who).not.toMatch(/Secret Portal|payroll|clientSecret/);
          }
        }
        expect(await gw.store.clients.findById('intruder')).toBeUndefined();
        expect(await gw.store.clients.findById('secret-portal')).toEqual(before);
      });
    },
  );
}
