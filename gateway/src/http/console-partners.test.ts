import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePartnersSchema, partnerSettingsSchema } from 'shared-contracts/console';
import { consoleOutsiders, consolePlatformAdmin } from '../testing/console-operators.js';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const CLEAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's partner calls (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let admin: { b: Browser; username: string; id: string };
      let outsiders: Record<string, Browser>;

      const upload = (b: Browser, id: string, body: Buffer | string, type: string, reason = 'new logo') =>
        b.agent
          .post(
            `/api/Account/UploadPartnerLogo?id=${encodeURIComponent(id)}&reason=${encodeURIComponent(reason)}`,
          )
          .set('x-csrf-token-value', b.token)
          .set('Content-Type', type)
          .send(body);

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        await gw.store.partners.create({ id: 'acme', name: 'Acme', domains: ['acme.example'] });
        await gw.store.partners.create({ id: 'other', name: 'Other Co', domains: ['other.example'] });
        await gw.store.customers.create({ id: 'acme-customer', name: 'Acme Customer', partnerId: 'acme' });
        admin = await consolePlatformAdmin(gw);
        outsiders = await consoleOutsiders(gw, 'acme', 'acme-customer');
      });
      afterAll(async () => {
        await gw?.close();
      });

      it('lists the partners and reads one partner with every setting, never a secret', async () => {
        const list = consolePartnersSchema.parse(
          (await admin.b.agent.get('/api/Account/ConsolePartners').expect(200)).body,
        );
        expect(list.partners.map((p) => p.id)).toEqual(expect.arrayContaining(['acme', 'other']));
        const acme = partnerSettingsSchema.parse(
          (await admin.b.agent.get('/api/Account/ConsolePartner?id=acme').expect(200)).body,
        );
        expect(acme).toMatchObject({ id: 'acme', name: 'Acme', domains: ['acme.example'], logoUrl: null });
        expect(acme.passwordRules.minLength).toBeGreaterThanOrEqual(8);
        expect(acme.captcha).toMatchObject({ provider: 'altcha', hasSecret: false });
        expect((await admin.b.agent.get('/api/Account/ConsolePartner?id=nobody')).status).toBe(404);
      });

      it('saves the colour and options; a fresh sign-in page shows them; audited with actor and reason', async () => {
        const res = await admin.b.post('/api/Account/UpdatePartner', {
          id: 'acme',
          backgroundColor: '#204080',
          idleSignOutMinutes: 30,
          passwordRules: { minLength: 12 },
          reason: 'rebrand',
        });
        expect(res.status).toBe(200);
        expect(partnerSettingsSchema.parse(res.body)).toMatchObject({
          backgroundColor: '#204080',
          idleSignOutMinutes: 30,
          passwordRules: { minLength: 12 },
        });
        // A fresh visitor of the partner's sign-in page.
        const visitor = await browser(gw.app);
        const metadata = await visitor.agent
          .post('/api/Account/GetPartnerMetaData')
          .set('Host', 'acme.example')
          .set('x-csrf-token-value', visitor.token);
        expect(metadata.body).toMatchObject({
          partnerId: 'acme',
          backgroundColor: '#204080',
          idleSignOutMinutes: 30,
        });
        const [event] = await gw.store.audit.list({ kinds: ['console.partners.updated'] });
        expect(event).toMatchObject({
          userId: admin.id,
          data: { actor: admin.username, subject: 'acme', reason: 'rebrand' },
        });
        expect((event!.data as { changed: string[] }).changed).toEqual(
          expect.arrayContaining(['backgroundColor', 'idleSignOutMinutes', 'passwordRules.minLength']),
        );
        expect(event!.ip).toBeTruthy();
      });

      it('refuses bad values with the errors map on their fields, storing nothing', async () => {
        const bad = await admin.b.post('/api/Account/UpdatePartner', {
          id: 'acme',
          name: 'Changed',
          backgroundColor: 'red; background: url(https://evil.example/x)',
          privacyPolicyUrl: 'javascript:alert(1)',
          idleSignOutMinutes: -1,
        });
        expect(bad.status).toBe(400);
        expect(Object.keys(bad.body.errors)).toEqual(
          expect.arrayContaining(['backgroundColor', 'privacyPolicyUrl', 'idleSignOutMinutes']),
        );
        const untranslated = await admin.b.post('/api/Account/UpdatePartner', {
          id: 'acme',
          name: 'Changed',
          availableLanguages: [{ name: 'xx', description: 'Nowhere' }],
        });
        expect(untranslated.status).toBe(400);
        expect(untranslated.body.errors.availableLanguages[0]).toMatch(/^partnerLanguageUntranslated/);
        const minAboveMax = await admin.b.post('/api/Account/UpdatePartner', {
          id: 'acme',
          passwordRules: { minLength: 200, maxLength: 100 },
        });
        expect(minAboveMax.status).toBe(400);
        expect(minAboveMax.body.errors.passwordRules).toEqual([
          'partnerPasswordMinAboveMax|{"min":200,"max":100}',
        ]);
        const captcha = await admin.b.post('/api/Account/UpdatePartner', {
          id: 'acme',
          captcha: { provider: 'recaptcha-v2' },
        });
        expect(captcha.body.errors.captcha).toEqual(['partnerCaptchaNeedsKeys']);
        expect((await gw.store.partners.findById('acme'))!.name).toBe('Acme');
        expect((await gw.store.captchaSettings.find('acme')).provider).toBe('altcha');
      });

      it('stores a PNG logo and serves it from the store; a clean SVG too', async () => {
        const res = await upload(admin.b, 'acme', PNG, 'image/png');
        expect(res.status).toBe(200);
        expect(res.body.logoUrl).toBe('/api/Account/GetPartnerLogo?partnerId=acme');
        const served = await request(gw.app).get('/api/Account/GetPartnerLogo?partnerId=acme').buffer(true);
        expect(served.status).toBe(200);
        expect(served.headers['content-type']).toMatch(/^image\/png/);
        expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
        const [event] = await gw.store.audit.list({ kinds: ['console.partners.logo'] });
        expect(event).toMatchObject({ data: { actor: admin.username, subject: 'acme', reason: 'new logo' } });
        expect((await upload(admin.b, 'other', CLEAN_SVG, 'image/svg+xml')).status).toBe(200);
      });

      it('refuses a 5 MB logo, an SVG with script and a mislabelled file with clear errors, storing nothing', async () => {
        const before = (await gw.store.partners.findById('acme'))!.logo;
        const huge = Buffer.alloc(5 * 1024 * 1024, 0);
        PNG.copy(huge);
        const tooLarge = await upload(admin.b, 'acme', huge, 'image/png');
        expect(tooLarge.status).toBe(400);
        expect(tooLarge.body.errors.logo).toEqual(['partnerLogoTooLarge|{"max":512}']);
        const scripted = await upload(
          admin.b,
          'acme',
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          'image/svg+xml',
        );
        expect(scripted.status).toBe(400);
        expect(scripted.body.errors.logo).toEqual(['partnerLogoScript']);
        const handler = await upload(
          admin.b,
          'acme',
          '<svg xmlns="http://www.w3.org/2000/svg"><rect onload="alert(1)"/></svg>',
          'image/svg+xml',
        );
        expect(handler.body.errors.logo).toEqual(['partnerLogoScript']);
        const html = await upload(admin.b, 'acme', '<html><body>hi</body></html>', 'image/svg+xml');
        expect(html.body.errors.logo).toEqual(['partnerLogoType']);
        const mislabelled = await upload(admin.b, 'acme', PNG, 'image/jpeg');
        expect(mislabelled.body.errors.logo).toEqual(['partnerLogoType']);
        expect((await gw.store.partners.findById('acme'))!.logo).toBe(before);
      });

      it('answers nobody but a platform administrator, with any id, and never the data', async () => {
        for (const [who, b] of Object.entries(outsiders)) {
          const answers = [
            await b.agent.get('/api/Account/ConsolePartners'),
            await b.agent.get('/api/Account/ConsolePartner?id=acme'),
            await b.agent.get('/api/Account/ConsolePartner?id=other'),
            await b.post('/api/Account/UpdatePartner', { id: 'acme', name: 'Taken over' }),
            await b.post('/api/Account/UpdatePartner', { id: 'other', name: 'Taken over' }),
            await upload(b, 'acme', PNG, 'image/png'),
          ];
          for (const answer of answers) {
            expect([403, 404], who).toContain(answer.status);
            expect(JSON.stringify(answer.body), who).not.toMatch(/Acme|Other Co/);
          }
        }
        expect((await gw.store.partners.findById('acme'))!.name).toBe('Acme');
        expect((await gw.store.partners.findById('other'))!.name).toBe('Other Co');
      });
    },
  );
}
