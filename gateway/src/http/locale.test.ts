import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** A wrong password as a visitor with the given headers; answers the 400 body and its Content-Language. */
async function wrongPassword(gw: TestGateway, headers: Record<string, string>) {
  const agent = request.agent(gw.app);
  const anti = await agent.get('/api/Account/Antiforgery').set(headers).expect(200);
  const res = await agent
    .post('/api/Account/Login')
    .set(headers)
    .set('x-csrf-token-value', (anti.body as { token: string }).token)
    .send({ username: 'nobody-here', password: 'wrong' });
  expect(res.status).toBe(400);
  return {
    body: res.body as { title: string; detail: string; errors: Record<string, string[]> },
    language: res.headers['content-language'],
  };
}

describe('server messages in the visitor language', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.store.partners.create({
      id: 'acme',
      name: 'Acme',
      domains: ['es.example'],
      defaultLanguage: 'es',
      isDefault: true,
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('the culture cookie wins over Accept-Language; the errors map keeps the code', async () => {
    const { body, language } = await wrongPassword(gw, {
      Cookie: '.AspNetCore.Culture=c%3Dde%7Cuic%3Dde',
      'Accept-Language': 'fr-CA',
    });
    expect(language).toBe('de');
    expect(body).toEqual({
      title: 'Ein oder mehrere Validierungsfehler sind aufgetreten.',
      detail: 'Benutzername oder Passwort ist falsch.',
      errors: { '': ['invalidCredentials'] },
    });
  });

  it('Accept-Language next (fr → fr-CA), then x-default-locale', async () => {
    expect((await wrongPassword(gw, { 'Accept-Language': 'fr-FR, en;q=0.5' })).language).toBe('fr-CA');
    expect((await wrongPassword(gw, { 'Accept-Language': 'he', 'x-default-locale': 'en' })).language).toBe(
      'en',
    );
  });

  it("falls back to the partner's default language, then en-GB", async () => {
    const partner = await wrongPassword(gw, { Host: 'es.example' });
    expect(partner.language).toBe('es');
    expect(partner.body.detail).toBe('El nombre de usuario o la contraseña son incorrectos.');
    await gw.store.partners.update('acme', { defaultLanguage: 'ar' });
    const fallback = await wrongPassword(gw, { Host: 'es.example' });
    expect(fallback.language).toBe('en-GB');
    expect(fallback.body.title).toBe('One or more validation errors occurred.');
    await gw.store.partners.update('acme', { defaultLanguage: 'es' });
  });

  it('translates field errors, each text once', async () => {
    const agent = request.agent(gw.app);
    const anti = await agent.get('/api/Account/Antiforgery').expect(200);
    const res = await agent
      .post('/api/Account/Login')
      .set('Accept-Language', 'de')
      .set('x-csrf-token-value', (anti.body as { token: string }).token)
      .send({ username: '', password: '' })
      .expect(400);
    expect(res.body.errors).toEqual({ username: ['required'], password: ['required'] });
    // The map keeps `required` (shown under each labelled field); the detail, read without the form, names them.
    expect(res.body.detail).toBe('username ist erforderlich. password ist erforderlich.');
  });
});
