import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorSetupStep } from '../identity/two-factor/two-factor-setup.step.js';
import { customerSelectionStep } from '../identity/customers/customer-selection.step.js';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import { defaultSignInSteps } from '../identity/sign-in/step-registry.js';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** The second factor's calls (SPEC.md §7 "Two-factor and codes"), views also by GET. */
const TWO_FACTOR_ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['get', '/api/Account/LoginWith2FAView'],
  ['post', '/api/Account/LoginWith2FAView'],
  ['post', '/api/Account/LoginWith2FA'],
  ['get', '/api/Account/LoginWithRecoveryCodeView'],
  ['post', '/api/Account/LoginWithRecoveryCode'],
  ['post', '/api/Account/RedeemRecoveryCode'],
  ['get', '/api/Account/RedeemState'],
  ['post', '/api/Account/RedeemState'],
  ['post', '/api/Account/SendOTP'],
  ['post', '/api/Account/PinReference'],
  ['get', '/api/Account/PinReference'],
  ['post', '/api/Account/GeneratePin'],
  ['post', '/api/Account/GeneratePhoneVerification'],
  ['post', '/api/Account/Validate2faSetupCode'],
  ['get', '/api/Account/Setup2FAView'],
  ['post', '/api/Account/Setup2FAView'],
  ['post', '/api/Account/EnableTwoFactor'],
];

/** Recovery and passwords (SPEC.md §7), PasswordRules also by GET. */
const RECOVERY_ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['post', '/api/Account/Recover'],
  ['get', '/api/Account/PasswordRules'],
  ['post', '/api/Account/PasswordRules'],
  ['post', '/api/Account/ResetPassword'],
  ['post', '/api/Account/ChangeExpiredPassword'],
  // The captcha (ADR 0014).
  ['post', '/api/Account/VerifyCaptcha'],
  ['get', '/api/Account/CaptchaChallenge'],
];

/** Customer selection (SPEC.md §7 "Customers"), views also by POST. */
const CUSTOMER_ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['get', '/api/Account/SelectCustomerView'],
  ['post', '/api/Account/SelectCustomerView'],
  ['get', '/api/Account/Customers'],
  ['post', '/api/Account/Customers'],
  ['post', '/api/Account/SelectCustomer'],
];

/** Queries aimed at the customer search: bounds, wildcards, repeats, nesting, huge numbers. */
const CUSTOMER_QUERIES = [
  '?page=0&size=0',
  '?page=-5&size=-1',
  '?page=1e309&size=NaN',
  `?page=${'9'.repeat(400)}`,
  '?page[]=1&size[x]=2',
  '?filter=%25%25_%5C%27%22;--',
  `?filter=${'%25'.repeat(3000)}`,
  '?filter[]=a&filter[]=b',
  '?cid[]=x&cid=y',
  `?cid=${'c'.repeat(5000)}`,
  '?filter=%00%E0%A4%A',
];

/** Secure sign-in (SPEC.md §7 "Secure sign-in") and SkipFido. */
const SECURE_SIGN_IN_ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['post', '/api/Account/AssertionOptions'],
  ['post', '/api/Account/SecureLogin'],
  ['post', '/api/Account/CredentialOptions'],
  ['post', '/api/Account/RegisterCredential'],
  ['get', '/api/Account/Devices'],
  ['post', '/api/Account/Devices'],
  ['post', '/api/Account/RenameDevice'],
  ['post', '/api/Account/RemoveDevice'],
  // Last: it ends the passkey offer of the fuzzed sign-in.
  ['post', '/api/Account/SkipFido'],
];

/** WebAuthn-shaped bodies: bad base64, wrong types, nesting, huge blobs. */
const WEBAUTHN_BODIES: unknown[] = [
  { id: 'a', rawId: 'a', type: 'public-key', response: null },
  { id: '!!', rawId: '??', type: 'public-key', response: { clientDataJson: '%%%' } },
  { id: ['a'], rawId: { a: 1 }, type: 7, extensions: 'x', response: [] },
  {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { authenticatorData: 'AAAA', clientDataJson: 'e30', signature: 'AAAA', userHandle: 5 },
  },
  {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { authenticatorData: 'AAAA', clientDataJson: 'bnVsbA', signature: 'AAAA' },
  },
  {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { attestationObject: 'A'.repeat(50_000), clientDataJson: 'eyJjaGFsbGVuZ2UiOjF9' },
  },
  {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: {
      attestationObject: 'oWNmbXQ',
      clientDataJson: 'eyJjaGFsbGVuZ2UiOiJBQUFBQUFBQUFBQUFBQUFBQUFBQSJ9',
    },
  },
  { remember: 'yes' },
  { remember: null },
  { id: 'AAAA', name: ['x'] },
  { id: 'AAAA', name: 'n'.repeat(500) },
  { id: '../../etc', name: '' },
];

/** Vendor and external sign-in (ADR 0018), views also by GET; the upstream callback is a full-page GET. */
const EXTERNAL_ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['get', '/api/Account/VendorLoginView'],
  ['post', '/api/Account/VendorLoginView'],
  ['post', '/api/Account/VendorLogin'],
  ['get', '/api/Account/ExternalUser'],
  ['post', '/api/Account/Link'],
  ['post', '/api/Account/Next'],
  ['post', '/api/Account/EexLink'],
  ['get', '/api/Account/ExternalLogins'],
  ['post', '/api/Account/EexUnlink'],
  ['post', '/api/Account/UpstreamLogout'],
  ['get', '/signin/contoso/callback'],
  ['get', '/signin/%00%2F..%2F/callback'],
];

const ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['get', '/api/Account/Antiforgery'],
  ['post', '/api/Account/Exchange'],
  ['post', '/api/account/exchange'],
  ['get', '/api/Account/User'],
  ['post', '/api/Account/User'],
  ['get', '/api/Account/LoginView'],
  ['post', '/api/Account/LoginView'],
  ['post', '/api/Account/Login'],
  ['post', '/api/Account/LocalAllowed'],
  ['post', '/api/Account/IsRemoteAuthentication'],
  ['post', '/api/Account/LogoutView'],
  ['post', '/api/Account/Logout'],
  ['get', '/api/Account/ProfileImage'],
  // One-time-token sign-in (ADR 0019); SendOTP with a username is in TWO_FACTOR_ENDPOINTS' list already.
  ['post', '/api/Account/LoginWithOTT'],
  ...TWO_FACTOR_ENDPOINTS,
  ...CUSTOMER_ENDPOINTS,
  ...RECOVERY_ENDPOINTS,
  ...SECURE_SIGN_IN_ENDPOINTS,
  ...EXTERNAL_ENDPOINTS,
  ['post', '/api/ops/client-errors'],
  ['get', '/remotes/manifest.json'],
  // Last: a SilentLogout that passes ends the session, and the calls after it would only meet the token check.
  ['post', '/api/Account/SilentLogin'],
  ['post', '/api/Account/SilentLogout'],
];

const JSON_BODIES: unknown[] = [
  null,
  [],
  [1, 2],
  'text',
  42,
  true,
  {},
  { username: 5, password: {} },
  { username: null, password: null, rememberMe: 'yes', returnUrl: 7 },
  { username: ['a'], password: ['b'] },
  { username: 'x'.repeat(10_000), password: 'y'.repeat(20_000) },
  { state: { $gt: '' } },
  { state: 'a'.repeat(5000) },
  { logoutId: ['x'] },
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
  { message: null, url: [], kind: 5 },
  { method: 'authenticator', code: ['123456'] },
  { method: 'authenticator', code: '１２３４５６' },
  { method: ['pin'], code: '12', rememberBrowser: 'yes' },
  { method: 'authenticator', code: '\u0000123456' },
  { recoveryCode: {} },
  { recoveryCode: 'ABCD-EFGH-JKMN-'.repeat(500) },
  { code: 'x'.repeat(60_000) },
  { token: ['a'], newPassword: 1, confirmPassword: {} },
  { token: 'x'.repeat(300), newPassword: 'p'.repeat(5000), confirmPassword: 'p'.repeat(5000) },
  {
    currentPassword: null,
    newPassword: '\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000',
    confirmPassword: 5,
  },
  { username: '\ud800', token: '\udfff' },
  // One-time-token sign-in: codes and link tokens of every wrong shape, both at once, neither.
  { code: '１２３４５６' },
  { code: 123456 },
  { code: '12 34-56', token: 'AAAA' },
  { token: 'A'.repeat(43), returnUrl: '//evil.example' },
  { token: null, code: null },
  { username: 'someone@example.test', returnUrl: ['/'] },
  { username: { $ne: '' } },
  { vendorId: ['contoso'], returnUrl: {} },
  { vendorId: 'x'.repeat(5000), returnUrl: '//evil.example' },
  { vendorId: '../admin' },
  ...WEBAUTHN_BODIES,
];

const RAW_BODIES: [contentType: string, body: string][] = [
  ['application/json', '{"username": "a",'],
  ['application/json', 'not json at all'],
  ['application/json', '\u0000\u0001'],
  ['application/json', '{"a":'.repeat(2000)],
  ['application/json', `{"username":"${'z'.repeat(100_000)}"}`],
  ['text/plain', 'username=a&password=b'],
  ['application/x-www-form-urlencoded', 'username=a&password=b'],
  ['application/xml', '<a/>'],
];

const QUERIES = [
  '',
  '?returnUrl=a&returnUrl=b',
  `?returnUrl=${'%2F'.repeat(3000)}`,
  '?returnUrl[a]=1',
  '?logoutId[]=1&logoutId[]=2',
  '?returnUrl=%E0%A4%A',
  '?ReturnUrl=javascript:alert(1)',
  '?id=&state=',
  '?id[]=a&state[x]=b',
  `?id=${'a'.repeat(5000)}&state=${'b'.repeat(5000)}`,
  '?forced=maybe&Id=%00',
  '?displayName[]=a&displayName[]=b',
  `?displayName=${'d'.repeat(5000)}`,
  '?displayName=%00%E0%A4%A',
  '?vendorId[]=a&button[x]=yes',
  `?vendorId=${'v'.repeat(5000)}&button=${'y'.repeat(5000)}`,
  '?vendorId=%00&button=yes&code=x&state=y',
  '?button=no&error=access_denied&error_description=%3Cscript%3E',
];

describe('fuzz: malformed input never gives a 5xx', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers every endpoint and malformed body or query with a status below 500', async () => {
    const b = await browser(gw.app);
    const failures: string[] = [];
    const check = (label: string, status: number) => {
      if (status >= 500) failures.push(`${label} → ${status}`);
    };
    for (const [method, path] of ENDPOINTS) {
      for (const query of QUERIES) {
        const res = method === 'get' ? await b.agent.get(path + query) : await b.post(path + query, {});
        check(`${method} ${path}${query}`, res.status);
      }
      if (method === 'get') continue;
      for (const body of JSON_BODIES) {
        for (const withToken of [true, false]) {
          const req = b.agent.post(path).set('Content-Type', 'application/json');
          if (withToken) req.set('x-csrf-token-value', b.token);
          const res = await req.send(JSON.stringify(body));
          check(`${path} ${JSON.stringify(body)?.slice(0, 60)} token=${withToken}`, res.status);
          if (res.status === 400 && withToken && path.startsWith('/api/Account/Login')) {
            expect(res.body.errors, 'a 400 for bad input carries the errors map').toBeTypeOf('object');
          }
        }
      }
      for (const [contentType, body] of RAW_BODIES) {
        const res = await b.agent
          .post(path)
          .set('x-csrf-token-value', b.token)
          .set('Content-Type', contentType)
          .send(body);
        check(`${path} ${contentType} ${body.slice(0, 30)}`, res.status);
        if (res.status === 400 && contentType === 'application/json' && path.startsWith('/api/Account')) {
          expect(res.body.errors, `${path} ${body.slice(0, 20)}`).toBeTypeOf('object');
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('one-time-token sign-in: bad input to SendOTP and LoginWithOTT gets the errors map, never a 5xx', async () => {
    // A browser of its own per input (one source each, so the throttles answer the input, not the count).
    const failures: string[] = [];
    let n = 0;
    for (const path of ['/api/Account/SendOTP', '/api/Account/LoginWithOTT']) {
      const inputs: [string, unknown][] = [
        ...QUERIES.map((query): [string, unknown] => [query, { code: '123456' }]),
        ...JSON_BODIES.map((body): [string, unknown] => ['', body]),
      ];
      for (const [query, body] of inputs) {
        n += 1;
        const b = await browser(gw.app, `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`);
        const res = await b.agent
          .post(path + query)
          .set('Content-Type', 'application/json')
          .set('x-csrf-token-value', b.token)
          .send(JSON.stringify(body));
        const label = `${path}${query} ${JSON.stringify(body)?.slice(0, 40)} → ${res.status}`;
        if (res.status >= 500) failures.push(label);
        if (res.status === 400 && typeof res.body.errors !== 'object' && JSON.stringify(res.body) !== '{}')
          failures.push(`${label}: a 400 without the errors map`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('at the expired-password step, bad input to its calls gets the errors map, never a 5xx', async () => {
    const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1 });
    const failures: string[] = [];
    for (const body of JSON_BODIES) {
      // A fresh pending sign-in each time: a refused call may have ended the previous one.
      const b = await browser(gw.app);
      expect((await b.signIn(user.username)).status).toBe(209);
      const res = await b.agent
        .post('/api/Account/ChangeExpiredPassword')
        .set('Content-Type', 'application/json')
        .set('x-csrf-token-value', b.token)
        .send(JSON.stringify(body));
      if (res.status >= 500 || (res.status === 400 && typeof res.body.errors !== 'object'))
        failures.push(`${JSON.stringify(body)?.slice(0, 60)} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it.each([
    // SendOTP without a username is the step's SMS resend (an outside call the one-time-token route answers).
    [
      'the 2FA step',
      { requiresTwoFactor: false, withFactor: true, calls: [...twoFactorStep.calls, 'SendOTP'] },
    ],
    [
      'the 2FA step with SMS and PIN',
      {
        requiresTwoFactor: false,
        withFactor: true,
        delivered: true,
        calls: [...twoFactorStep.calls, 'SendOTP'],
      },
    ],
    ['the set-up wizard', { requiresTwoFactor: true, withFactor: false, calls: twoFactorSetupStep.calls }],
  ])('at %s, bad input to the step calls gets the errors map, never a 5xx', async (_label, setup) => {
    const user = await gw.addUser({ requiresTwoFactor: setup.requiresTwoFactor });
    if (setup.withFactor)
      await gw.store.secondFactors.enableAuthenticator(
        user.id,
        gw.store.secrets.encrypt('JBSWY3DPEHPK3PXP'),
        0,
      );
    if ('delivered' in setup) {
      await gw.store.secondFactors.enableSms(user.id, '+447700900123');
      await gw.store.secondFactors.enablePin(user.id);
    }
    const failures: string[] = [];
    const own = new Set(setup.calls.map((c) => `/api/account/${c.toLowerCase()}`));
    const b = await browser(gw.app);
    expect((await b.signIn(user.username)).status).toBe(209);
    for (const [method, path] of TWO_FACTOR_ENDPOINTS.filter(([, p]) => own.has(p.toLowerCase()))) {
      const inputs: [string, unknown][] = [
        ...QUERIES.map((query): [string, unknown] => [query, {}]),
        ...(method === 'get' ? [] : JSON_BODIES.map((body): [string, unknown] => ['', body])),
      ];
      {
        for (const [query, body] of inputs) {
          const res =
            method === 'get'
              ? await b.agent.get(path + query)
              : await b.agent
                  .post(path + query)
                  .set('Content-Type', 'application/json')
                  .set('x-csrf-token-value', b.token)
                  .send(JSON.stringify(body));
          if (res.status >= 500)
            failures.push(`${method} ${path}${query} ${JSON.stringify(body)?.slice(0, 40)} → ${res.status}`);
          if (res.status === 400 && res.body.errors === undefined && JSON.stringify(res.body) !== '{}')
            failures.push(`${path}${query}: a 400 without the errors map or the empty timed-out body`);
          // A refused call forgets the pending sign-in: start it again so the next input meets the step.
          if (res.status === 400 && JSON.stringify(res.body) === '{}') {
            b.token = (await b.agent.get('/api/Account/Antiforgery')).body.token;
            await b.signIn(user.username);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('at the passkey offer, bad input to its calls gets the errors map, never a 5xx', async () => {
    const user = await gw.addUser();
    const failures: string[] = [];
    const signIn = async (b: Awaited<ReturnType<typeof browser>>) =>
      expect((await b.signIn(user.username, undefined, { platformAuthenticator: true })).status).toBe(209);
    const b = await browser(gw.app);
    await signIn(b);
    for (const [, path] of SECURE_SIGN_IN_ENDPOINTS) {
      const inputs: [string, unknown][] = [
        ...QUERIES.map((query): [string, unknown] => [query, {}]),
        ...JSON_BODIES.map((body): [string, unknown] => ['?displayName=Laptop', body]),
      ];
      for (const [query, body] of inputs) {
        const res = await b.agent
          .post(path + query)
          .set('Content-Type', 'application/json')
          .set('x-csrf-token-value', b.token)
          .send(JSON.stringify(body));
        if (res.status >= 500)
          failures.push(`${path}${query} ${JSON.stringify(body)?.slice(0, 40)} → ${res.status}`);
        if (res.status === 400 && res.body.errors === undefined && JSON.stringify(res.body) !== '{}')
          failures.push(`${path}${query}: a 400 without the errors map or the empty timed-out body`);
        // A finished or refused step: sign in again so the next input meets the offer.
        if (res.status === 209 || (res.status === 400 && JSON.stringify(res.body) === '{}')) {
          b.token = (await b.agent.get('/api/Account/Antiforgery')).body.token;
          await signIn(b);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('at the customer step, bad input gets the errors map, never a 5xx', async () => {
    const withStep = await startTestGateway({
      overrides: { signInSteps: defaultSignInSteps({ selectCustomer: true }) },
    });
    try {
      const user = await withStep.addUser();
      for (const id of ['fz-1', 'fz-2']) {
        await withStep.store.customers.create({ id, name: `Fuzz ${id}`, partnerId: null });
        await withStep.store.customers.addMembership({
          userId: user.id,
          customerId: id,
          roles: ['EMPLOYEE'],
        });
      }
      const failures: string[] = [];
      const b = await browser(withStep.app);
      expect((await b.signIn(user.username)).status).toBe(209);
      const own = new Set(customerSelectionStep.calls.map((c) => `/api/account/${c.toLowerCase()}`));
      for (const [method, path] of CUSTOMER_ENDPOINTS.filter(([, p]) => own.has(p.toLowerCase()))) {
        const inputs: [string, unknown][] = [
          ...[...QUERIES, ...CUSTOMER_QUERIES].map((query): [string, unknown] => [query, {}]),
          ...(method === 'get'
            ? []
            : [
                ...JSON_BODIES,
                { customerId: ['fz-1'] },
                { customerId: 'x'.repeat(5000) },
                { customerId: '%' },
              ].map((body): [string, unknown] => ['', body])),
        ];
        for (const [query, body] of inputs) {
          const res =
            method === 'get'
              ? await b.agent.get(path + query)
              : await b.agent
                  .post(path + query)
                  .set('Content-Type', 'application/json')
                  .set('x-csrf-token-value', b.token)
                  .send(JSON.stringify(body));
          if (res.status >= 500)
            failures.push(`${method} ${path}${query} ${JSON.stringify(body)?.slice(0, 40)} → ${res.status}`);
          if (res.status === 400 && res.body.errors === undefined && JSON.stringify(res.body) !== '{}')
            failures.push(`${path}${query}: a 400 without the errors map or the empty timed-out body`);
          if (res.status === 200 && path.toLowerCase().endsWith('/customers')) {
            const page = res.body as { customers: unknown[] };
            if (!Array.isArray(page.customers)) failures.push(`${path}${query}: no list`);
          }
        }
      }
      expect(failures).toEqual([]);
    } finally {
      await withStep.close();
    }
  });
});
