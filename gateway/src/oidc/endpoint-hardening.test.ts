/**
 * What the provider refuses at its edges: response modes the sign-in site's CSP cannot deliver (form_post), a
 * client authentication method other than the registered one, and a flood of new authorizations from one source.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkcePair, startOidcHarness, type OidcHarness, type OidcVariant } from '../testing/oidc-harness.js';

const PUBLIC_CLIENT = 'hardening-portal';
const CONFIDENTIAL_CLIENT = 'hardening-backend';
const SECRET = 'a-long-client-secret-for-tests-0123456789';
const REDIRECT_URI = 'http://localhost:4000/callback';
const INTERACTION_LIMIT = 5;

const variants: Array<{ variant: OidcVariant; skip: string | undefined }> = [
  { variant: 'sqlite', skip: undefined },
  { variant: 'postgres', skip: process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is not set' },
  { variant: 'redis', skip: process.env.TEST_REDIS_URL ? undefined : 'TEST_REDIS_URL is not set' },
];

for (const { variant, skip } of variants) {
  describe.skipIf(skip !== undefined)(
    `OIDC endpoint hardening on ${variant}${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      let h: OidcHarness;

      beforeAll(async () => {
        h = await startOidcHarness({
          variant,
          interactionLimit: { points: INTERACTION_LIMIT, durationSeconds: 60 },
        });
        h.accounts.set('u-1', { sub: 'u-1', name: 'One' });
        await h.addClient({ clientId: PUBLIC_CLIENT, name: 'Portal', redirectUris: [REDIRECT_URI] });
        await h.addClient({
          clientId: CONFIDENTIAL_CLIENT,
          name: 'Backend',
          clientSecret: SECRET,
          redirectUris: [REDIRECT_URI],
        });
      });

      afterAll(async () => {
        await h?.close();
      });

      function authorizeUrl(clientId: string, extra: Record<string, string> = {}) {
        const pkce = pkcePair();
        const url = new URL('/connect/authorize', h.issuer);
        url.search = new URLSearchParams({
          client_id: clientId,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid',
          state: 'st',
          nonce: 'n',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          ...extra,
        }).toString();
        return { url: url.href, verifier: pkce.verifier };
      }

      it('S33 discovery advertises only the query response mode (the CSP form-action would block form_post)', async () => {
        const doc = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<
          string,
          unknown
        >;
        expect(doc.response_modes_supported).toEqual(['query']);
      });

      it('S33 a form_post authorization is refused with an error in the query, never an auto-submitted form', async () => {
        const browser = h.browser();
        h.signIn(browser, 'u-1');
        const { url } = authorizeUrl(PUBLIC_CLIENT, { response_mode: 'form_post' });
        const result = await browser.follow(url, ['/account/login']);
        expect(result.response?.headers.get('content-type') ?? '').not.toMatch(/html/);
        const landed = new URL(result.url);
        expect(`${landed.origin}${landed.pathname}`).toBe(REDIRECT_URI);
        expect(landed.searchParams.get('code')).toBeNull();
        expect(landed.searchParams.get('error')).toBe('unsupported_response_mode');
        expect(landed.searchParams.get('state')).toBe('st');
      });

      it('S34 a client registered for client_secret_basic authenticates with it and not with client_secret_post', async () => {
        const code = async () => {
          const browser = h.browser();
          h.signIn(browser, 'u-1');
          const { url, verifier } = authorizeUrl(CONFIDENTIAL_CLIENT);
          const landed = new URL((await browser.follow(url, ['/account/login'])).url);
          const value = landed.searchParams.get('code');
          expect(value, landed.href).toBeTruthy();
          return { code: value!, verifier };
        };
        const grant = (c: { code: string; verifier: string }) =>
          new URLSearchParams({
            grant_type: 'authorization_code',
            code: c.code,
            redirect_uri: REDIRECT_URI,
            code_verifier: c.verifier,
          });

        const viaPost = grant(await code());
        viaPost.set('client_id', CONFIDENTIAL_CLIENT);
        viaPost.set('client_secret', SECRET);
        const post = await fetch(`${h.issuer}/connect/token`, { method: 'POST', body: viaPost });
        expect(post.status).toBe(401);
        expect(((await post.json()) as { error: string }).error).toBe('invalid_client');

        const basic = await fetch(`${h.issuer}/connect/token`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${CONFIDENTIAL_CLIENT}:${SECRET}`).toString('base64')}`,
          },
          body: grant(await code()),
        });
        expect(basic.status).toBe(200);

        const doc = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<
          string,
          unknown
        >;
        expect(doc.token_endpoint_auth_methods_supported).not.toContain('client_secret_post');
      });

      it('S35 a loop of anonymous authorizations from one source is cut off with 429 before it fills the store', async () => {
        const countInteractions = async (): Promise<number | undefined> => {
          if (variant === 'redis') return undefined;
          const { rows } = await sql<{ n: number | string }>`
            select count(*) as n from oidc_payloads where kind = 'Interaction'`.execute(h.store.database.db);
          return Number(rows[0]?.n ?? 0);
        };
        const before = await countInteractions();
        const statuses: number[] = [];
        let refused: Response | undefined;
        for (let i = 0; i < INTERACTION_LIMIT + 10; i += 1) {
          const response = await h.browser().request(authorizeUrl(PUBLIC_CLIENT).url);
          statuses.push(response.status);
          if (response.status === 429) refused ??= response;
        }
        // The limit is shared with the other tests of this suite from the same source; at most the limit passes.
        expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(INTERACTION_LIMIT);
        expect(statuses.slice(-10)).toEqual(Array(10).fill(429));
        expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(refused!.headers.get('content-type')).toMatch(/text\/html/);
        expect(await refused!.text()).toMatch(/too many/i);
        const after = await countInteractions();
        if (before !== undefined && after !== undefined) {
          expect(after - before).toBeLessThanOrEqual(INTERACTION_LIMIT);
        }
      });
    },
  );
}
