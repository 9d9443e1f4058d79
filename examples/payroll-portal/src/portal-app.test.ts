import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, signedInPage } from './pages.js';
import { createPortalApp, customerOf, type PortalApp } from './portal-app.js';

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('pages', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['"onmouseover="x', '&quot;onmouseover=&quot;x'],
    ["O'Brien & Co", 'O&#39;Brien &amp; Co'],
  ])('escapes %s', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });

  it('renders claims as text only', () => {
    const html = signedInPage({
      name: '<img src=x onerror=alert(1)>',
      email: undefined,
      roles: ['<b>ADMIN</b>'],
    });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Signed in as');
  });

  it('shows the customer claim as text, or that none was chosen', () => {
    const html = signedInPage({
      name: 'Hanna',
      email: undefined,
      roles: ['HR_ADMIN'],
      customer: { id: 'acme-<1>', name: '<i>Acme</i>' },
    });
    expect(html).toContain('<strong id="customer-name">&lt;i&gt;Acme&lt;/i&gt;</strong>');
    expect(html).toContain('<span id="customer-id">acme-&lt;1&gt;</span>');
    expect(signedInPage({ name: 'Emma', email: undefined, roles: [] })).toContain('No customer chosen');
  });

  it.each([
    [
      { id: 'a', name: 'A' },
      { id: 'a', name: 'A' },
    ],
    ['a', undefined],
    [{ id: 1, name: 'A' }, undefined],
    [{ id: 'a' }, undefined],
    [null, undefined],
  ])('reads the customer claim %j as %j', (claim, expected) => {
    expect(customerOf(claim)).toEqual(expected);
  });
});

describe('back-channel logout', () => {
  let issuer: { server: Server; url: string };
  let portal: { server: Server; url: string };
  let portalApp: PortalApp;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('ES256')).privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    // A real issuer's two documents the portal needs for verification: discovery and JWKS.
    const op = express();
    issuer = await listen(op);
    op.get('/.well-known/openid-configuration', (_req, res) => {
      res.json({
        issuer: issuer.url,
        authorization_endpoint: `${issuer.url}/connect/authorize`,
        token_endpoint: `${issuer.url}/connect/token`,
        end_session_endpoint: `${issuer.url}/connect/endsession`,
        jwks_uri: `${issuer.url}/connect/jwks`,
      });
    });
    op.get('/connect/jwks', (_req, res) => res.json({ keys: [publicJwk] }));
    portalApp = createPortalApp({
      port: 0,
      issuer: issuer.url,
      clientId: 'payroll-portal',
      clientSecret: undefined,
      redirectUri: 'http://localhost:4000/callback',
      postLogoutRedirectUri: 'http://localhost:4000/',
    });
    portal = await listen(portalApp.app);
  });

  afterAll(async () => {
    for (const s of [portal?.server, issuer?.server]) if (s) await new Promise((r) => s.close(r));
  });

  function seedSession(sid: string): string {
    const id = `session-${sid}`;
    portalApp.sessions.set(id, {
      sub: 'u1',
      sid,
      name: 'Erin',
      email: undefined,
      roles: [],
      customer: undefined,
      idToken: 'x',
    });
    return id;
  }

  async function logoutToken(
    claims: JWTPayload,
    {
      key = signingKey,
      typ = 'logout+jwt',
      audience = 'payroll-portal',
    }: { key?: CryptoKey; typ?: string; audience?: string } = {},
  ): Promise<string> {
    return new SignJWT({
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      jti: crypto.randomUUID(),
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ })
      .setIssuer(issuer.url)
      .setAudience(audience)
      .setIssuedAt()
      .sign(key);
  }

  async function post(token: string | undefined): Promise<number> {
    const body = new URLSearchParams(token ? { logout_token: token } : {});
    return (await fetch(`${portal.url}/backchannel-logout`, { method: 'POST', body })).status;
  }

  it('ends the local session named by a valid logout token, once', async () => {
    const id = seedSession('sid-ok');
    const other = seedSession('sid-other');
    const token = await logoutToken({ sub: 'u1', sid: 'sid-ok' });
    expect(await post(token)).toBe(200);
    expect(portalApp.sessions.has(id)).toBe(false);
    expect(portalApp.sessions.has(other)).toBe(true);
    // Replaying the same token is refused (jti seen).
    expect(await post(token)).toBe(400);
  });

  it.each([
    ['no token', () => Promise.resolve(undefined)],
    [
      'a token signed by another key',
      async () => logoutToken({ sub: 'u1', sid: 'sid-keep' }, { key: strangerKey }),
    ],
    ['a token with a nonce', async () => logoutToken({ sub: 'u1', sid: 'sid-keep', nonce: 'n' })],
    ['a token without the logout event', async () => logoutToken({ sub: 'u1', sid: 'sid-keep', events: {} })],
    ['an ID token typ', async () => logoutToken({ sub: 'u1', sid: 'sid-keep' }, { typ: 'JWT' })],
    [
      'a token for another audience',
      async () => logoutToken({ sub: 'u1', sid: 'sid-keep' }, { audience: 'other-client' }),
    ],
  ])('refuses %s and keeps the session', async (_label, make) => {
    const id = seedSession('sid-keep');
    expect(await post(await make())).toBe(400);
    expect(portalApp.sessions.has(id)).toBe(true);
  });
});
