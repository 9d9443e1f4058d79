/**
 * Customer (tenant) selection (ADR 0009) on the whole gateway with the real OIDC provider: the three calls of SPEC.md
 * §7 "Customers" as the selection page uses them (search, paging, bounds), and S37 through the OIDC flow — only the
 * user's own customers, and a token is only ever for the customer chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import { defaultSignInSteps } from '../identity/sign-in/step-registry.js';
import { pkcePair, verifyJwt } from '../testing/oidc-harness.js';
import {
  BACKENDS,
  TEST_PASSWORD,
  TestBrowser,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway.js';

const CLIENT_ID = 'portal-customers';
const REDIRECT_URI = 'http://localhost:4000/callback';

/** The browser side of the account API: cookies, the anti-forgery token, 209 + Exchange. */
class Site {
  token = '';
  constructor(readonly browser: TestBrowser) {}

  async start(): Promise<void> {
    this.token = (
      (await (await this.browser.request('/api/Account/Antiforgery')).json()) as { token: string }
    ).token;
  }

  get(path: string): Promise<Response> {
    return this.browser.request(path);
  }

  post(path: string, body: unknown): Promise<Response> {
    return this.browser.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token-value': this.token },
      body: JSON.stringify(body),
    });
  }

  /** Follows a 209 as the client does; answers its target. */
  async follow209(response: Response): Promise<string> {
    expect(response.status).toBe(209);
    const step = (await response.json()) as { redirect: string; state: string };
    const exchanged = await this.post('/api/Account/Exchange', { state: step.state });
    expect(exchanged.status).toBe(200);
    this.token = ((await exchanged.json()) as { token: string }).token;
    return step.redirect;
  }

  async signIn(username: string, returnUrl?: string): Promise<string> {
    if (!this.token) await this.start();
    return this.follow209(
      await this.post('/api/Account/Login', {
        username,
        password: TEST_PASSWORD,
        rememberMe: false,
        ...(returnUrl ? { returnUrl } : {}),
      }),
    );
  }

  async customers(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.get(`/api/Account/Customers${query}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
}

const names = (body: Record<string, unknown>) => (body.customers as { name: string }[]).map((c) => c.name);

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `customer selection (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let issuer: string;
      let multi: string;
      let single: string;
      let other: string;
      const customerIds: Record<string, string> = {};

      const CUSTOMERS = [
        'Zürich Payroll AG',
        'ZURICH Transport',
        '50% Discount Ltd',
        '500 Club',
        'a_b Holdings',
        'aXb Holdings',
        'Customer 01',
        'Customer 02',
        'Customer 03',
        'Customer 04',
        'Customer 05',
        'Customer 06',
      ];

      beforeAll(async () => {
        gw = await startTestGateway({
          backend: backend.name,
          oidc: true,
          overrides: { signInSteps: defaultSignInSteps({ selectCustomer: true }) },
        });
        issuer = gw.url!;
        await gw.store.clients.create({
          clientId: CLIENT_ID,
          name: 'Payroll portal',
          redirectUris: [REDIRECT_URI],
          postLogoutRedirectUris: ['http://localhost:4000/'],
        });
        const many = await gw.addUser({ roles: ['EMPLOYEE'] });
        const one = await gw.addUser({ roles: ['EMPLOYEE'] });
        const outsider = await gw.addUser();
        multi = many.username;
        single = one.username;
        other = outsider.username;
        for (const [i, name] of CUSTOMERS.entries()) {
          const id = `c${String(i).padStart(2, '0')}-${backend.name}`;
          customerIds[name] = id;
          await gw.store.customers.create({ id, name, partnerId: null });
          await gw.store.customers.addMembership({
            userId: many.id,
            customerId: id,
            // Roles differ per customer: the token must carry those of the chosen one.
            roles: name === 'Customer 02' ? ['HR_ADMIN'] : ['MANAGER'],
          });
        }
        await gw.store.customers.create({
          id: `secret-${backend.name}`,
          name: 'Secret Corp',
          partnerId: null,
        });
        await gw.store.customers.addMembership({
          userId: outsider.id,
          customerId: `secret-${backend.name}`,
          roles: ['ADMIN'],
        });
        await gw.store.customers.addMembership({
          userId: one.id,
          customerId: customerIds['500 Club']!,
          roles: ['EMPLOYEE'],
        });
      });

      afterAll(async () => {
        await gw?.close();
      });

      /** A browser whose sign-in waits at the customer step. */
      async function atSelection(username = multi): Promise<Site> {
        const site = new Site(new TestBrowser(issuer));
        const next = await site.signIn(username, '/account/profile');
        expect(next).toBe(`/account/select?returnUrl=${encodeURIComponent('/account/profile')}`);
        return site;
      }

      it('a user of several customers is stopped at /account/select; a user of one goes straight on', async () => {
        const site = await atSelection();
        const me = (await (await site.get('/api/Account/User')).json()) as Record<string, unknown>;
        expect(me).toEqual({ isAuthenticated: false, signInStep: '/account/select' });

        const alone = new Site(new TestBrowser(issuer));
        expect(await alone.signIn(single, '/account/profile')).toBe('/account/profile');
        const signedIn = (await (await alone.get('/api/Account/User')).json()) as Record<string, unknown>;
        expect(signedIn.isAuthenticated).toBe(true);
      });

      it('Customers pages by 5 by default with the total; the last page is partial; past the end is empty', async () => {
        const site = await atSelection();
        const first = await site.customers('');
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ total: 12, page: 1, size: 5 });
        expect(names(first.body)).toHaveLength(5);
        const third = await site.customers('?page=3');
        expect(names(third.body)).toHaveLength(2);
        const all = [
          ...names(first.body),
          ...names((await site.customers('?page=2')).body),
          ...names(third.body),
        ];
        // Every customer once, in name order (accents and case folded), no other user's.
        expect(new Set(all).size).toBe(12);
        expect(all).not.toContain('Secret Corp');
        expect(all.filter((n) => n.startsWith('Customer '))).toEqual([
          'Customer 01',
          'Customer 02',
          'Customer 03',
          'Customer 04',
          'Customer 05',
          'Customer 06',
        ]);
        const past = await site.customers('?page=4');
        expect(past.body).toMatchObject({ customers: [], total: 12, page: 4 });
        const huge = await site.customers('?page=2147483647&size=50');
        expect(huge.status).toBe(200);
        expect(huge.body).toMatchObject({ customers: [], total: 12 });
        expect(names((await site.customers('?size=50')).body)).toHaveLength(12);
        expect(names((await site.customers('?Size=1&PAGE=12')).body)).toHaveLength(1);
      });

      it.each([
        ['?page=0', 'page'],
        ['?page=-1', 'page'],
        ['?page=1.5', 'page'],
        ['?page=abc', 'page'],
        ['?page=99999999999999999999', 'page'],
        ['?page=2147483648', 'page'],
        ['?size=0', 'size'],
        ['?size=51', 'size'],
        ['?size=1&size=2', 'size'],
        [`?filter=${'x'.repeat(101)}`, 'filter'],
      ])('Customers%s is a 400 on %s in the visitor’s language, never a 500', async (query, field) => {
        const site = await atSelection();
        const response = await site.browser.request(`/api/Account/Customers${query}`, {
          headers: { 'accept-language': 'de' },
        });
        expect(response.status).toBe(400);
        expect(response.headers.get('content-language')).toBe('de');
        const body = (await response.json()) as { errors: Record<string, string[]> };
        expect(body.errors[field]).toEqual(['invalidValue']);
      });

      it('the filter ignores case and accents, and treats % and _ as text', async () => {
        const site = await atSelection();
        const zurich = await site.customers('?filter=zurich');
        expect(names(zurich.body).sort()).toEqual(['ZURICH Transport', 'Zürich Payroll AG']);
        expect(names((await site.customers(`?filter=${encodeURIComponent('ZÜRICH')}`)).body)).toHaveLength(2);
        const percent = await site.customers(`?filter=${encodeURIComponent('%')}`);
        expect(names(percent.body)).toEqual(['50% Discount Ltd']);
        expect(names((await site.customers(`?filter=${encodeURIComponent('50%')}`)).body)).toEqual([
          '50% Discount Ltd',
        ]);
        const underscore = await site.customers(`?filter=${encodeURIComponent('a_b')}`);
        expect(names(underscore.body)).toEqual(['a_b Holdings']);
        expect(names((await site.customers(`?filter=${encodeURIComponent('_')}`)).body)).toEqual([
          'a_b Holdings',
        ]);
        const none = await site.customers('?filter=Secret');
        expect(none.body).toMatchObject({ customers: [], total: 0 });
        // The escape character is text too, and the longest filter allowed is an ordinary search.
        for (const text of ['\\', '\\%', 'a\\_b', 'x'.repeat(100)]) {
          const answer = await site.customers(`?filter=${encodeURIComponent(text)}`);
          expect(answer.status, text).toBe(200);
          expect(answer.body, text).toMatchObject({ customers: [], total: 0 });
        }
        const paged = await site.customers('?filter=customer&size=4&page=2');
        expect(paged.body).toMatchObject({ total: 6, page: 2 });
        expect(names(paged.body)).toEqual(['Customer 05', 'Customer 06']);
      });

      it('SelectCustomerView preselects cid only when the user belongs to it, with no hint otherwise', async () => {
        const site = await atSelection();
        const view = async (cid: string) =>
          (await (
            await site.get(`/api/Account/SelectCustomerView?cid=${encodeURIComponent(cid)}`)
          ).json()) as Record<string, unknown>;
        expect(await view(customerIds['Customer 03']!)).toEqual({
          preselected: { id: customerIds['Customer 03'], name: 'Customer 03' },
          total: 12,
          returnUrl: '/account/profile',
        });
        const someoneElses = await view(`secret-${backend.name}`);
        const unknown = await view('no-such-customer');
        expect(someoneElses).toEqual({ preselected: null, total: 12, returnUrl: '/account/profile' });
        expect(unknown).toEqual(someoneElses);
      });

      it('S37 SelectCustomer refuses another user’s or an unknown customer alike; the sign-in stays at the step', async () => {
        const site = await atSelection();
        const tampered = await site.post('/api/Account/SelectCustomer', {
          customerId: `secret-${backend.name}`,
        });
        expect(tampered.status).toBe(400);
        const tamperedBody = (await tampered.json()) as { errors: unknown };
        expect(tamperedBody.errors).toEqual({ customerId: ['invalidValue'] });
        const unknown = await site.post('/api/Account/SelectCustomer', { customerId: 'no-such-customer' });
        expect(((await unknown.json()) as { errors: unknown }).errors).toEqual(tamperedBody.errors);
        expect((await site.post('/api/Account/SelectCustomer', {})).status).toBe(400);
        const me = (await (await site.get('/api/Account/User')).json()) as Record<string, unknown>;
        expect(me.signInStep).toBe('/account/select');

        const chosen = await site.post('/api/Account/SelectCustomer', {
          customerId: customerIds['Customer 04'],
        });
        expect(await site.follow209(chosen)).toBe('/account/profile');
        const signedIn = (await (await site.get('/api/Account/User')).json()) as Record<string, unknown>;
        expect(signedIn).toMatchObject({ isAuthenticated: true, customerId: customerIds['Customer 04'] });

        // The customer used last comes first next time, whatever its name.
        const again = await atSelection();
        expect(names((await again.customers('')).body)[0]).toBe('Customer 04');
      });

      it('the customer used last leads every list it matches, once, and paging stays whole around it', async () => {
        // The test before chose Customer 04.
        const site = await atSelection();
        const pages = [];
        for (let page = 1; page <= 3; page++)
          pages.push(...names((await site.customers(`?page=${page}`)).body));
        expect(pages[0]).toBe('Customer 04');
        expect(pages).toHaveLength(12);
        expect(new Set(pages).size).toBe(12);
        const bySize = [];
        for (let page = 1; page <= 4; page++)
          bySize.push(...names((await site.customers(`?size=4&page=${page}`)).body));
        expect(bySize).toEqual(pages);
        const matching = await site.customers('?filter=customer&size=2&page=2');
        expect(matching.body).toMatchObject({ total: 6 });
        expect(names(matching.body)).toEqual(['Customer 02', 'Customer 03']);
        expect(names((await site.customers('?filter=customer&size=2')).body)).toEqual([
          'Customer 04',
          'Customer 01',
        ]);
        expect(names((await site.customers('?filter=zurich')).body)).not.toContain('Customer 04');
      });

      it('the calls answer nobody who is neither at the step nor signed in', async () => {
        const site = new Site(new TestBrowser(issuer));
        await site.start();
        const response = await site.get('/api/Account/Customers');
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({});
        const select = await site.post('/api/Account/SelectCustomer', {
          customerId: customerIds['Customer 01'],
        });
        expect(select.status).toBe(400);
      });

      // ---- through the OIDC flow ----

      function authorizeUrl(extra: Record<string, string> = {}) {
        const pkce = pkcePair();
        const url = new URL('/connect/authorize', issuer);
        url.search = new URLSearchParams({
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid profile roles offline_access',
          prompt: 'consent',
          state: 's',
          nonce: 'n',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          ...extra,
        }).toString();
        return { url: url.href, verifier: pkce.verifier };
      }

      async function redeem(code: string, verifier: string) {
        return fetch(`${issuer}/connect/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: REDIRECT_URI,
            client_id: CLIENT_ID,
            code_verifier: verifier,
          }),
        });
      }

      async function tokensOf(code: string, verifier: string) {
        const response = await redeem(code, verifier);
        expect(response.status).toBe(200);
        const tokens = (await response.json()) as {
          id_token: string;
          access_token: string;
          refresh_token: string;
        };
        const claims = await verifyJwt(tokens.id_token, `${issuer}/connect/jwks`);
        return { ...tokens, claims };
      }

      async function refresh(refreshToken: string) {
        return fetch(`${issuer}/connect/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: CLIENT_ID,
          }),
        });
      }

      async function userinfo(accessToken: string) {
        return fetch(`${issuer}/connect/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
      }

      /** Goes through the portal's sign-in, choosing `choose` at the selection page (after a tampered attempt). */
      async function portalSignIn(username: string, choose: string | undefined) {
        const site = new Site(new TestBrowser(issuer));
        const { url, verifier } = authorizeUrl();
        const landed = new URL((await site.browser.follow(url, ['/account/login'])).url);
        const returnUrl = landed.searchParams.get('returnUrl')!;
        let next = await site.signIn(username, returnUrl);
        if (choose) {
          expect(next).toBe(`/account/select?returnUrl=${encodeURIComponent(returnUrl)}`);
          const tampered = await site.post('/api/Account/SelectCustomer', {
            customerId: `secret-${backend.name}`,
          });
          expect(tampered.status).toBe(400);
          next = await site.follow209(await site.post('/api/Account/SelectCustomer', { customerId: choose }));
        }
        expect(next).toBe(returnUrl);
        const callback = new URL((await site.browser.follow(next)).url);
        expect(callback.origin + callback.pathname, callback.href).toBe(REDIRECT_URI);
        return { site, ...(await tokensOf(callback.searchParams.get('code')!, verifier)) };
      }

      it('S37 the ID token and userinfo carry the chosen customer and the roles in it, never the tampered one', async () => {
        const chosen = customerIds['Customer 02']!;
        const { claims, access_token } = await portalSignIn(multi, chosen);
        expect(claims.customer).toEqual({ id: chosen, name: 'Customer 02' });
        expect(claims.roles).toEqual(['HR_ADMIN']);
        const info = (await (await userinfo(access_token)).json()) as Record<string, unknown>;
        expect(info.customer).toEqual({ id: chosen, name: 'Customer 02' });
        expect(info.roles).toEqual(['HR_ADMIN']);
      });

      it('a user of one customer never meets the page and gets that customer in the token', async () => {
        const { claims } = await portalSignIn(single, undefined);
        expect(claims.customer).toEqual({ id: customerIds['500 Club'], name: '500 Club' });
        expect(claims.roles).toEqual(['EMPLOYEE']);
      });

      it('S37 a stale choice: after the membership is removed no token is issued for that customer', async () => {
        const user = await gw.addUser();
        for (const name of ['Customer 05', 'Customer 06']) {
          await gw.store.customers.addMembership({
            userId: user.id,
            customerId: customerIds[name]!,
            roles: ['MANAGER'],
          });
        }
        const chosen = customerIds['Customer 05']!;
        const { site, refresh_token, access_token, claims } = await portalSignIn(user.username, chosen);
        expect(claims.customer).toEqual({ id: chosen, name: 'Customer 05' });

        // The operator ends the membership with the admin CLI.
        const printed: string[] = [];
        await runAdminCommand(
          gw.store,
          ['memberships', 'remove', '--username', user.username, '--customer', chosen],
          (line) => printed.push(line),
        );
        expect(printed).toEqual([`${user.username} is no longer a member of ${chosen}`]);
        const refused = await refresh(refresh_token);
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
        expect((await userinfo(access_token)).status).toBe(401);

        // A new authorization from the same signed-in browser: no token for the removed customer either.
        const { url, verifier } = authorizeUrl({ prompt: 'none' });
        const callback = new URL((await site.browser.follow(url)).url);
        const code = callback.searchParams.get('code');
        if (code) {
          const redeemed = await redeem(code, verifier);
          expect(redeemed.status).toBe(400);
          expect(((await redeemed.json()) as { error: string }).error).toBe('invalid_grant');
        } else {
          expect(callback.searchParams.get('error')).toBeTruthy();
        }
        // Nor can the page choose it again.
        const again = await site.post('/api/Account/SelectCustomer', { customerId: chosen });
        expect(again.status).toBe(400);
      });

      it('prompt=select_account sends the user to the page; the switch issues tokens for the new customer only', async () => {
        const first = customerIds['Customer 01']!;
        const second = customerIds['Customer 03']!;
        const { site, refresh_token, claims } = await portalSignIn(multi, first);
        expect((claims.customer as { id: string }).id).toBe(first);

        const { url, verifier } = authorizeUrl({ prompt: 'select_account consent' });
        const landed = new URL((await site.browser.follow(url, ['/account/select'])).url);
        expect(landed.pathname).toBe('/account/select');
        const returnUrl = landed.searchParams.get('returnUrl')!;
        expect(returnUrl).toMatch(/^\/interaction\//);
        // Signed in, the page's calls answer; a customer of someone else is still refused.
        expect((await site.customers('')).body).toMatchObject({ total: 12 });
        expect(
          (
            await site.post('/api/Account/SelectCustomer', {
              customerId: `secret-${backend.name}`,
              returnUrl,
            })
          ).status,
        ).toBe(400);
        const back = await site.follow209(
          await site.post('/api/Account/SelectCustomer', { customerId: second, returnUrl }),
        );
        expect(back).toBe(returnUrl);
        const callback = new URL((await site.browser.follow(back)).url);
        expect(callback.origin + callback.pathname, callback.href).toBe(REDIRECT_URI);
        const switched = await tokensOf(callback.searchParams.get('code')!, verifier);
        expect(switched.claims.customer).toEqual({ id: second, name: 'Customer 03' });
        expect(switched.claims.sub).toBe(claims.sub);
        // The old customer's refresh token ended with its grant: nothing more is issued for it.
        expect((await refresh(refresh_token)).status).toBe(400);
        const renewed = await refresh(switched.refresh_token);
        expect(renewed.status).toBe(200);
        const renewedClaims = await verifyJwt(
          ((await renewed.json()) as { id_token: string }).id_token,
          `${issuer}/connect/jwks`,
        );
        expect(renewedClaims.customer).toEqual({ id: second, name: 'Customer 03' });
      });

      it('an application asking again without prompt gets the current customer (single sign-on)', async () => {
        const chosen = customerIds['Customer 06']!;
        const { site } = await portalSignIn(multi, chosen);
        const { url, verifier } = authorizeUrl({ prompt: 'none' });
        const callback = new URL((await site.browser.follow(url)).url);
        const again = await tokensOf(callback.searchParams.get('code')!, verifier);
        expect((again.claims.customer as { id: string }).id).toBe(chosen);
        void other;
      });
    },
  );
}
