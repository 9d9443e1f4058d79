import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { LoginThrottle } from '../infra/throttle/login-throttle.js';
import { SqlSessionStore } from '../infra/sessions/sql-session.store.js';
import { openStore, type Store } from '../store/store.js';

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let dir: string;
let store: Store;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'partner-router-'));
  const shellDist = path.join(dir, 'shell');
  mkdirSync(shellDist);
  writeFileSync(
    path.join(shellDist, 'index.html'),
    '<!doctype html><html><head><title>Identity</title><script nonce="__CSP_NONCE__"></script></head><body></body></html>',
  );
  const config = loadConfig({ DATA_DIR: dir, SHELL_DIST: shellDist, PORT: '8080', SEED_DEMO_DATA: 'false' });
  store = await openStore({
    sqliteFile: path.join(dir, 'identity.db'),
    dataEncryptionKey: config.dataEncryptionKey,
  });
  await store.partners.create({
    id: 'acme',
    name: 'Acme Payroll',
    domains: ['acme.example'],
    backgroundColor: '#1f4e79',
    logo: PNG.toString('base64'),
    logoContentType: 'image/png',
    privacyPolicyUrl: 'https://acme.example/privacy',
    availableLanguages: [
      { name: 'en-GB', description: 'English' },
      { name: 'de', description: 'Deutsch' },
      { name: 'ar', description: 'العربية' },
    ],
    showLanguageOptions: true,
    isDefault: true,
  });
  // S34 corpus stored as if another path had let it in: the answers must still be safe.
  await store.partners.create({
    id: 'evil',
    name: '<script>alert(1)</script>',
    domains: ['evil.example'],
    backgroundColor: 'red;background:url(https://evil.example/x)',
    logo: SVG.toString('base64'),
    logoContentType: 'image/svg+xml',
    privacyPolicyUrl: 'javascript:alert(1)',
    availableLanguages: [{ name: '"><img>', description: 'x' }],
  });
  // The real wiring: createApp mounts the partner router and the first-HTML hook itself.
  app = createApp({
    config,
    store,
    sessionStore: new SqlSessionStore(store.database.db),
    throttle: new LoginThrottle({ kind: 'memory' }),
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await store.database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An agent holding a session and its anti-forgery token, on the given Host. */
async function client(host: string) {
  const agent = request.agent(app);
  const issued = await agent.get('/api/Account/Antiforgery').set('Host', host);
  const token = (issued.body as { token: string }).token;
  return { agent, token };
}

describe('GetPartnerMetaData (SPEC.md §3, §7)', () => {
  it('answers the partner of the request host, in both readings', async () => {
    const { agent, token } = await client('acme.example');
    const res = await agent
      .post('/api/Account/GetPartnerMetaData')
      .set('Host', 'acme.example')
      .set('x-csrf-token-value', token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      partnerId: 'acme',
      partnerName: 'Acme Payroll',
      partnerDomain: 'acme.example',
      privacyPolicyUrl: 'https://acme.example/privacy',
      backgroundColor: '#1f4e79',
      themesBackgroundColor: '#1f4e79',
      showLanguageOptions: true,
      behaviour: { showLanguageOption: true, showLanguageOptions: true },
    });
  });

  it('answers the default partner for an unknown host', async () => {
    const { agent, token } = await client('unknown.example');
    const res = await agent
      .post('/api/account/getpartnermetadata')
      .set('Host', 'unknown.example')
      .set('x-csrf-token-value', token);
    expect((res.body as { partnerId: string }).partnerId).toBe('acme');
  });

  it('S30 refuses the POST without the anti-forgery header', async () => {
    const res = await request(app).post('/api/Account/GetPartnerMetaData').set('Host', 'acme.example');
    expect(res.status).toBe(400);
  });

  it('S34 drops a stored colour payload and javascript: link, keeps the name as text', async () => {
    const { agent, token } = await client('evil.example');
    const res = await agent
      .post('/api/Account/GetPartnerMetaData')
      .set('Host', 'evil.example')
      .set('x-csrf-token-value', token);
    expect(res.body).toMatchObject({
      partnerName: '<script>alert(1)</script>',
      backgroundColor: null,
      privacyPolicyUrl: '',
      availableLanguages: [{ name: 'en-GB', description: 'English' }],
    });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });
});

describe('GetPartnerLogo (SPEC.md §7)', () => {
  it('serves the stored logo with its type and nosniff', async () => {
    const res = await request(app).get('/api/Account/GetPartnerLogo?partnerId=acme');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
  });

  it('S34 serves an SVG logo only under a CSP sandbox', async () => {
    const res = await request(app).get('/api/Account/GetPartnerLogo?partnerId=evil');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toMatch(/sandbox/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
  });

  it.each([
    ['partnerId=nobody', 404],
    ['partnerId=..%2F..%2Fetc', 400],
    ['', 400],
    ['partnerId=a&partnerId=b', 400],
  ])('answers %s with %i, never a 500', async (query, status) => {
    const res = await request(app).get(`/api/Account/GetPartnerLogo?${query}`);
    expect(res.status).toBe(status);
    expect(res.body).toHaveProperty('errors');
  });
});

describe('SetLanguage (SPEC.md §7, §9 culture cookie)', () => {
  it.each([
    ['de', 'de'],
    ['FR-ca', 'fr-CA'],
    ['ar', 'ar'], // not shipped, but this partner offers it
  ])('accepts %s and sets .AspNetCore.Culture=c=%s|uic=…', async (language, canonical) => {
    const { agent, token } = await client('acme.example');
    const res = await agent
      .post(`/api/Account/SetLanguage?language=${encodeURIComponent(language)}`)
      .set('Host', 'acme.example')
      .set('x-csrf-token-value', token);
    expect(res.status).toBe(200);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('.AspNetCore.Culture='));
    expect(cookie).toContain(`.AspNetCore.Culture=c=${canonical}|uic=${canonical};`);
    expect(cookie).not.toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('accepts a language of the default partner on an unknown host (the default partner serves it)', async () => {
    const { agent, token } = await client('unknown.example');
    const res = await agent
      .post('/api/Account/SetLanguage?language=ar')
      .set('Host', 'unknown.example')
      .set('x-csrf-token-value', token);
    expect(res.status).toBe(200);
  });

  it('refuses a language another partner offers but the host partner does not', async () => {
    const { agent, token } = await client('evil.example');
    const res = await agent
      .post('/api/Account/SetLanguage?language=ar')
      .set('Host', 'evil.example')
      .set('x-csrf-token-value', token);
    expect(res.status).toBe(400);
  });

  it.each([
    ['language=he', 'invalidValue'],
    ['language=de%3B%20Domain%3Devil.example', 'invalidValue'],
    ['language=de&language=es', 'invalidValue'],
    ['', 'required'],
  ])('refuses %s with a 400 errors map (%s)', async (query, code) => {
    const host = 'acme.example';
    const { agent, token } = await client(host);
    const res = await agent
      .post(`/api/Account/SetLanguage?${query}`)
      .set('Host', host)
      .set('x-csrf-token-value', token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      title: 'One or more validation errors occurred.',
      errors: { language: [code] },
    });
    expect(Object.keys(res.body as object).sort()).toEqual(['detail', 'errors', 'title']);
  });
});

describe('first HTML (no flash of an unbranded page)', () => {
  it('carries the host partner title and colour', async () => {
    const res = await request(app).get('/account/login').set('Host', 'acme.example');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Acme Payroll Identity</title>');
    expect(res.text).toContain('--partner-background:#1f4e79');
  });

  it('S34 escapes a markup name and drops a colour payload', async () => {
    const res = await request(app).get('/account/login').set('Host', 'evil.example');
    expect(res.text).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; Identity</title>');
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).not.toContain('url(');
  });
});
