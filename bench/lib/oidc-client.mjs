// A tiny OIDC relying party for load: authorization code + PKCE (S256) against the gateway, following the
// same-origin 303s a browser would follow, with a cookie jar per virtual user.
import { createHash, randomBytes } from 'node:crypto';
import { call, CookieJar, newSession } from './account-client.mjs';

export const DEMO_CLIENT = { clientId: 'payroll-portal', redirectUri: 'http://localhost:4000/callback' };

const b64url = (buf) => buf.toString('base64url');

/** GET with the jar, no automatic redirects. */
async function get(base, jar, url) {
  const res = await fetch(new URL(url, base), {
    headers: { cookie: jar.header(), accept: 'text/html' },
    redirect: 'manual',
  });
  jar.store(res.headers);
  await res.arrayBuffer();
  return res;
}

/** A signed-in browser: fresh session, anti-forgery token, Login answered 209. */
export async function signedInJar(base, username, password) {
  const { jar } = await newSession(base);
  const res = await call(base, jar, 'POST', '/api/Account/Login', {
    username,
    password,
    rememberMe: false,
    returnUrl: '/',
  });
  if (res.status !== 209)
    throw new Error(`Login for ${username} answered ${res.status}: ${res.text.slice(0, 200)}`);
  return jar;
}

/**
 * authorize → (interaction with the existing sign-in session, if any) → code at the redirect URI → token.
 * @returns {Promise<{hops: number, tokens: any}>}
 */
export async function authorizationCodeRoundTrip(base, jar, { scope = 'openid profile', prompt } = {}) {
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const state = b64url(randomBytes(12));
  const params = new URLSearchParams({
    client_id: DEMO_CLIENT.clientId,
    response_type: 'code',
    redirect_uri: DEMO_CLIENT.redirectUri,
    scope,
    state,
    nonce: b64url(randomBytes(12)),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  if (prompt) params.set('prompt', prompt);
  let url = `/connect/authorize?${params}`;
  let hops = 0;
  for (;;) {
    const res = await get(base, jar, url);
    hops += 1;
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`authorization stopped at ${new URL(url, base).pathname} with ${res.status}`);
    }
    if (location.startsWith(DEMO_CLIENT.redirectUri)) {
      const cb = new URL(location);
      if (cb.searchParams.get('state') !== state) throw new Error('state mismatch');
      const code = cb.searchParams.get('code');
      if (!code)
        throw new Error(
          `no code: ${cb.searchParams.get('error')} ${cb.searchParams.get('error_description')}`,
        );
      const tokens = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: DEMO_CLIENT.redirectUri,
      });
      hops += 1;
      return { hops, tokens };
    }
    const next = new URL(location, base);
    if (next.origin !== new URL(base).origin) throw new Error(`left the origin: ${location}`);
    if (next.pathname.startsWith('/account/'))
      throw new Error(`sent to the sign-in site (${next.pathname}): no signed-in session`);
    url = next.pathname + next.search;
    if (hops > 10) throw new Error('too many redirects');
  }
}

/** POST /connect/token for the public client (no client authentication, PKCE carries the proof). */
export async function tokenRequest(base, form) {
  const res = await fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: DEMO_CLIENT.clientId, ...form }),
  });
  const json = await res.json().catch(() => ({}));
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

export { CookieJar };
