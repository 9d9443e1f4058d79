/**
 * LoginView names the application a sign-in was started by (issue 49): the registered client name when the
 * returnUrl is a live OIDC interaction, cut to the schema's length; nothing for the site's own sign-in, an
 * unknown interaction or a client registered without a usable name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_NAME_MAX, loginViewSchema, type LoginView } from 'shared-contracts';
import { pkcePair, TestBrowser } from '../testing/oidc-harness.js';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const REDIRECT_URI = 'http://localhost:4000/callback';

function authorizeUrl(issuer: string, clientId: string): string {
  const url = new URL('/connect/authorize', issuer);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile',
    state: 'st-1',
    nonce: 'n-1',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

describe('LoginView names the application of a sign-in', () => {
  let gw: TestGateway;
  let issuer: string;
  const longName = `Payroll ${'and HR '.repeat(20)}portal`;

  beforeAll(async () => {
    gw = await startTestGateway({ oidc: true, realClock: true });
    issuer = gw.url!;
    await gw.store.clients.create({
      clientId: 'named',
      name: 'Payroll portal',
      redirectUris: [REDIRECT_URI],
    });
    await gw.store.clients.create({ clientId: 'long', name: longName, redirectUris: [REDIRECT_URI] });
    await gw.store.clients.create({ clientId: 'blank', name: '   ', redirectUris: [REDIRECT_URI] });
  });

  afterAll(async () => {
    await gw?.close();
  });

  /** Starts an application's sign-in in a fresh browser: the sign-in page's returnUrl (`/interaction/<uid>`). */
  async function startSignIn(clientId: string) {
    const browser = new TestBrowser(issuer);
    const toLogin = await browser.follow(authorizeUrl(issuer, clientId), ['/account/login']);
    const returnUrl = new URL(toLogin.url).searchParams.get('returnUrl')!;
    expect(returnUrl).toMatch(/^\/interaction\//);
    return { browser, returnUrl };
  }

  async function loginView(browser: TestBrowser, returnUrl: string): Promise<LoginView> {
    const response = await browser.request(
      `/api/Account/LoginView?returnUrl=${encodeURIComponent(returnUrl)}`,
    );
    expect(response.status).toBe(200);
    // The page parses the answer with the same schema: it must accept what the gateway sends.
    return loginViewSchema.parse(await response.json());
  }

  it('answers the registered name for the live interaction of an application sign-in', async () => {
    const { browser, returnUrl } = await startSignIn('named');
    expect((await loginView(browser, returnUrl)).clientName).toBe('Payroll portal');
  });

  it('names nothing for a sign-in to the site itself, or an interaction that does not exist', async () => {
    const browser = new TestBrowser(issuer);
    expect(await loginView(browser, '/account/')).not.toHaveProperty('clientName');
    expect(await loginView(browser, '/interaction/no-such-interaction')).not.toHaveProperty('clientName');
  });

  it('cuts a long registered name to the length the page shows, and leaves out a blank one', async () => {
    const long = await startSignIn('long');
    const name = (await loginView(long.browser, long.returnUrl)).clientName!;
    expect(name.length).toBe(CLIENT_NAME_MAX);
    expect(name.endsWith('…')).toBe(true);
    expect(longName.startsWith(name.slice(0, -1))).toBe(true);
    const blank = await startSignIn('blank');
    expect(await loginView(blank.browser, blank.returnUrl)).not.toHaveProperty('clientName');
  });
});
