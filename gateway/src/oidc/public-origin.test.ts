/**
 * Every absolute URL the provider hands out comes from PUBLIC_URL (ARCHITECTURE.md "One origin, one gateway"): a
 * forged Host, or X-Forwarded-Host / X-Forwarded-Proto from a client the gateway trusts as a proxy, changes none of
 * them — neither in discovery nor in the interaction's resume redirect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { pkcePair, rawGet, startOidcHarness, type OidcHarness } from '../testing/oidc-harness.js';

const CLIENT_ID = 'origin-portal';
const REDIRECT_URI = 'http://localhost:4000/callback';

const FORGED: { name: string; headers: Record<string, string> }[] = [
  { name: 'Host: evil.example', headers: { host: 'evil.example' } },
  {
    name: 'X-Forwarded-Host: evil.example + X-Forwarded-Proto: http',
    headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
  },
  {
    name: 'Host and X-Forwarded-Host: evil.example + X-Forwarded-Proto: https',
    headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
  },
];

/** Every string in the document that is an absolute URL, with where it sits. */
function absoluteUrls(value: unknown, at = ''): { at: string; url: string }[] {
  if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? [{ at, url: value }] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => absoluteUrls(item, `${at}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => absoluteUrls(item, at ? `${at}.${key}` : key));
  }
  return [];
}

/** Fetches discovery with `headers` and checks each URL in it is on `publicUrl`. */
async function expectDiscoveryOn(publicUrl: string, headers: Record<string, string>): Promise<void> {
  const response = await rawGet(`${publicUrl}/.well-known/openid-configuration`, headers);
  expect(response.status).toBe(200);
  const urls = absoluteUrls(JSON.parse(response.body));
  // issuer, authorization, token, userinfo, jwks, end_session, revocation at least: the check is not vacuous.
  expect(urls.length).toBeGreaterThanOrEqual(7);
  for (const { at, url } of urls) {
    expect(url === publicUrl || url.startsWith(`${publicUrl}/`), `${at} = ${url}`).toBe(true);
  }
}

describe('OIDC URLs come from the public URL', () => {
  let h: OidcHarness;

  beforeAll(async () => {
    h = await startOidcHarness({ variant: 'sqlite' });
    h.accounts.set('u-origin', { sub: 'u-origin', name: 'Olive Origin' });
    await h.addClient({ clientId: CLIENT_ID, name: 'Origin portal', redirectUris: [REDIRECT_URI] });
  });

  afterAll(async () => {
    await h?.close();
  });

  it.each(FORGED)('discovery lists only public URLs with $name', async ({ headers }) => {
    await expectDiscoveryOn(h.issuer, headers);
  });

  it.each(FORGED)('the interaction resumes on the public URL with $name', async ({ headers }) => {
    const authorize = new URL('/connect/authorize', h.issuer);
    authorize.search = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }).toString();
    // The authorization request is the one that records where the interaction resumes.
    const started = await rawGet(authorize.href, headers);
    expect(started.status).toBe(303);
    const login = new URL(started.headers.location!, h.issuer);
    const interaction = login.searchParams.get('returnUrl')!;
    expect(interaction).toMatch(/^\/interaction\/[\w-]+$/);

    const browser = h.browser();
    for (const line of started.headers['set-cookie'] ?? []) {
      const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
      const cookiePath = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      browser.setCookie(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1), cookiePath);
    }
    h.signIn(browser, 'u-origin');
    const finished = await browser.request(interaction);
    expect(finished.status).toBeGreaterThanOrEqual(300);
    expect(finished.status).toBeLessThan(400);
    const resume = finished.headers.get('location')!;
    expect(resume.startsWith(`${h.issuer}/connect/authorize/`), resume).toBe(true);
  });
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `OIDC URLs come from the public URL through the whole gateway (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;

      beforeAll(async () => {
        // Default TRUST_PROXY (loopback): the test client is a trusted proxy, so X-Forwarded-* reach the app.
        gw = await startTestGateway({ backend: backend.name, oidc: true });
      });

      afterAll(async () => {
        await gw?.close();
      });

      it.each(FORGED)('discovery lists only public URLs with $name', async ({ headers }) => {
        await expectDiscoveryOn(gw.url!, headers);
      });
    },
  );
}
