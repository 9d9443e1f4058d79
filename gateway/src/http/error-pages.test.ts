import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorRecordSchema, type ErrorRecord } from 'shared-contracts';
import {
  createErrorRecords,
  ERROR_RECORD_TTL_MS,
  ERROR_RECORDS_PER_SOURCE_PER_HOUR,
} from '../identity/ops/error-records.service.js';
import { BACKENDS, startTestGateway, TestBrowser, type TestGateway } from '../testing/test-gateway.js';

const CLIENT_ID = 'error-portal';
const REDIRECT_URI = 'http://localhost:4000/signin-oidc';

/**
 * What must never reach an error page or the `Error` answer: stack frames, source files, SQL, tokens (JWTs, OAuth
 * parameters), e-mail addresses, and the raw OAuth error codes and descriptions meant for developers.
 */
const INTERNALS =
  /\bat [\w.<>]+ \(|\.(?:ts|js):\d+|\b(?:select|insert|update|delete|drop)\b.*\b(?:from|into|table|set)\b|eyJ[\w-]{10,}|access_token|id_token|refresh_token|client_secret|@|redirect_uri|invalid_redirect_uri|error_description|ECONNREFUSED/i;

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `error pages with a reference (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let issuer: string;

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, oidc: true });
        issuer = gw.url!;
        await gw.store.clients.create({
          clientId: CLIENT_ID,
          name: 'Error portal',
          redirectUris: [REDIRECT_URI],
          postLogoutRedirectUris: [],
        });
      });
      afterAll(async () => {
        await gw?.close();
      });

      function authorize(params: Record<string, string>): string {
        const url = new URL('/connect/authorize', issuer);
        url.search = new URLSearchParams(params).toString();
        return url.href;
      }

      const good = {
        client_id: CLIENT_ID,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      };
      const jwt =
        'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ2aWN0aW0iLCJlbWFpbCI6InZpY3RpbUBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

      /** The failures a browser can bring to the provider, and what the page must say for each. */
      const corpus: { name: string; params: Record<string, string>; expected: Partial<ErrorRecord> }[] = [
        {
          name: 'a redirect_uri the client did not register',
          params: { ...good, redirect_uri: 'http://attacker.test/cb' },
          expected: {
            kind: 'signIn',
            messageKey: 'invalidRedirectUri',
            clientName: 'Error portal',
            returnUrl: 'http://localhost:4000/',
          },
        },
        {
          name: 'a redirect_uri carrying a token, an e-mail address and SQL',
          params: {
            ...good,
            redirect_uri: `http://attacker.test/cb?access_token=${jwt}&email=victim@example.com&q=' OR 1=1; DROP TABLE users;--`,
            state: `select * from users where email='victim@example.com'`,
            login_hint: 'victim@example.com',
          },
          expected: { kind: 'signIn', messageKey: 'invalidRedirectUri', clientName: 'Error portal' },
        },
        {
          name: 'an unknown client',
          params: { ...good, client_id: `nobody' UNION SELECT password_hash FROM users--` },
          expected: { kind: 'signIn', messageKey: 'unknownApplication', clientName: null, returnUrl: null },
        },
        {
          name: 'no client at all',
          params: { response_type: 'code', scope: 'openid' },
          expected: { kind: 'signIn', clientName: null, returnUrl: null },
        },
        {
          name: 'a malformed request with no redirect_uri',
          params: { client_id: CLIENT_ID, response_type: 'token', scope: 'openid', id_token_hint: jwt },
          expected: { kind: 'signIn', clientName: 'Error portal' },
        },
      ];

      it.each(corpus)(
        '$name: the error page with a reference that Error resolves, nothing internal',
        async (c) => {
          const browser = new TestBrowser(issuer);
          const response = await browser.request(authorize(c.params));
          expect(response.status).toBe(303);
          const location = new URL(response.headers.get('location') ?? '', issuer);
          expect(location.origin).toBe(issuer);
          expect(location.pathname).toBe('/error/signin');
          expect([...location.searchParams.keys()]).toEqual(['errorId']);
          const errorId = location.searchParams.get('errorId') ?? '';

          const answer = await browser.request(`/api/Account/Error?errorId=${errorId}`);
          expect(answer.status).toBe(200);
          const text = await answer.text();
          const record = errorRecordSchema.parse(JSON.parse(text));
          expect(record).toMatchObject({ errorId, ...c.expected });
          expect(record.requestId).toMatch(/\S/);
          expect(text).not.toMatch(INTERNALS);
          expect(response.headers.get('location')).not.toMatch(INTERNALS);
        },
      );

      it('a dead sign-in interaction lands on the expired page with a reference', async () => {
        const browser = new TestBrowser(issuer);
        const response = await browser.request('/interaction/no-such-interaction');
        expect(response.status).toBe(303);
        const location = new URL(response.headers.get('location') ?? '', issuer);
        expect(location.pathname).toBe('/error/expired');
        const errorId = location.searchParams.get('errorId') ?? '';
        const answer = await browser.request(`/api/Account/Error?errorId=${errorId}`);
        expect(answer.status).toBe(200);
        expect(await answer.json()).toMatchObject({
          errorId,
          kind: 'expired',
          messageKey: 'sessionExpired',
          clientName: null,
          returnUrl: null,
        });
      });

      it('answers 404 alike for an unknown reference, and 400 for a malformed one', async () => {
        const browser = new TestBrowser(issuer);
        const unknown = await browser.request('/api/Account/Error?errorId=0000000000000000');
        expect(unknown.status).toBe(404);
        const malformed = await browser.request(
          `/api/Account/Error?errorId=${encodeURIComponent("1' OR '1'='1")}`,
        );
        expect(malformed.status).toBe(400);
        expect(((await malformed.json()) as { errors: unknown }).errors).toEqual({
          errorId: ['invalidValue'],
        });
        expect((await browser.request('/api/Account/Error')).status).toBe(400);
      });
    },
  );
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a record');
  return value;
}

describe('error records', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('expire after a day', async () => {
    const records = createErrorRecords({ kv: gw.kv, now: () => gw.clock.now() });
    const record = must(await records.record({ kind: 'expired', messageKey: 'sessionExpired' }));
    expect(records.pageOf(record)).toBe(`/error/expired?errorId=${record.errorId}`);
    expect(await records.find(record.errorId)).toEqual(record);
    gw.clock.advance(ERROR_RECORD_TTL_MS + 1);
    expect(await records.find(record.errorId)).toBeUndefined();
  });

  it('keep only an origin as the way back and a known message key', async () => {
    const records = createErrorRecords({ kv: gw.kv, now: () => gw.clock.now() });
    const record = must(
      await records.record({
        kind: 'signIn',
        // A caller mistake must not turn into raw text on the page.
        messageKey: 'SQLITE_ERROR: no such table' as never,
        returnUrl: 'https://payroll.example/cb?code=abc&token=xyz',
      }),
    );
    expect(record.messageKey).toBe('unexpected');
    expect(record.returnUrl).toBe('https://payroll.example/');
    const javascript = must(
      await records.record({
        kind: 'signIn',
        messageKey: 'unexpected',
        returnUrl: 'javascript:alert(1)',
      }),
    );
    expect(javascript.returnUrl).toBeNull();
  });

  it('give one source at most 60 references an hour, then none (the page without a reference)', async () => {
    const records = createErrorRecords({ kv: gw.kv, now: () => gw.clock.now() });
    const made = [];
    for (let i = 0; i < ERROR_RECORDS_PER_SOURCE_PER_HOUR + 1; i += 1)
      made.push(
        await records.record({ kind: 'expired', messageKey: 'sessionExpired', source: '198.51.100.9' }),
      );
    expect(made.slice(0, ERROR_RECORDS_PER_SOURCE_PER_HOUR).every((r) => r !== undefined)).toBe(true);
    expect(made.at(-1)).toBeUndefined();
    // Another source is not affected.
    expect(
      await records.record({ kind: 'expired', messageKey: 'sessionExpired', source: '198.51.100.10' }),
    ).toBeDefined();
  });
});
