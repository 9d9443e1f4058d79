// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../protocol.js';
import type { AccountCall } from './account-base-query.js';
import { SESSION_USED_STORAGE_KEY, timedOutLoginPath, unauthorizedHomePath } from './account-base-query.js';
import { readAntiforgeryToken } from './antiforgery.js';
import { baseApi } from './base-api.js';
import { configureApiClient } from './client-config.js';
import { registerLocationAssigner, registerNavigator } from './navigation.js';
import { selectTimedOut } from './session.slice.js';
import { createAppStore } from './store.js';

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  /** The answer handed to the client, to see whether it read it. */
  response?: Response;
}

/** An answer of the stub server; `hold`: it is given only once that promise settles (a slow answer). */
type Reply = { status: number; body?: unknown; setCookie?: string; hold?: Promise<void> };

/**
 * A fetch stub answering by "METHOD path" (path without query), recording every request. A route given a list
 * answers its n-th request with the n-th reply (the last one from then on).
 */
function stubServer(routes: Record<string, Reply | Reply[]>) {
  const calls: Recorded[] = [];
  const fetchStub = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    calls.push({
      url,
      method,
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const key = `${method} ${url.split('?')[0]}`;
    const route = routes[key] ?? { status: 404, body: { title: 'Not Found' } };
    const replies = Array.isArray(route) ? route : [route];
    const nth = calls.filter((c) => `${c.method} ${c.url.split('?')[0]}` === key).length - 1;
    const reply = replies[Math.min(nth, replies.length - 1)]!;
    const recorded = calls.at(-1)!;
    const answer = () => {
      if (reply.setCookie) document.cookie = reply.setCookie;
      const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
      const response = new Response(reply.status === 204 ? null : text, {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      });
      recorded.response = response;
      return response;
    };
    return reply.hold ? reply.hold.then(answer) : Promise.resolve(answer());
  };
  return { calls, fetchStub };
}

const probeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({ probe: build.mutation<unknown, AccountCall>({ query: (call) => call }) }),
});

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

let navigations: string[];
let fullLoads: string[];

beforeEach(() => {
  clearCookies();
  sessionStorage.clear();
  window.history.replaceState({}, '', '/account/login?returnUrl=%2Fconnect%2Fauth%3Fx%3D1');
  navigations = [];
  fullLoads = [];
  registerNavigator((path) => {
    navigations.push(path);
  });
  registerLocationAssigner((url) => fullLoads.push(url));
});

afterEach(() => registerNavigator(undefined));

async function run(routes: Record<string, Reply>, call: AccountCall) {
  const server = stubServer(routes);
  configureApiClient({ fetch: server.fetchStub, currentLocale: () => 'de' });
  const store = createAppStore();
  const result = await store.dispatch(probeApi.endpoints.probe.initiate(call));
  return { result, calls: server.calls, store };
}

const antiforgery: Record<string, Reply> = {
  'GET /api/Account/Antiforgery': {
    status: 200,
    body: { token: 'tok-1' },
    setCookie: 'idp.x-csrf-token-value=tok-1',
  },
  'POST /api/Account/Exchange': {
    status: 200,
    body: { token: 'tok-2' },
    setCookie: 'idp.x-csrf-token-value=tok-2',
  },
};

describe('account base query: headers (SPEC.md §7)', () => {
  it('sends Accept, X-Requested-With and the locale headers on every call, GET or not', async () => {
    const { calls } = await run(
      { ...antiforgery, 'GET /api/Account/SystemStatus': { status: 200, body: {} } },
      {
        url: 'SystemStatus',
        method: 'GET',
      },
    );
    const call = calls.find((c) => c.url.includes('SystemStatus'))!;
    expect(call.headers).toMatchObject({
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'x-supported-locales': 'en-GB,en,de,fr-CA,es',
      'x-default-locale': 'en-GB',
      'Accept-Language': 'de',
    });
    expect(call.headers['x-csrf-token-value']).toBeUndefined();
  });

  it('sends a file as it is, with its own type, and JSON otherwise (UploadPartnerLogo, issue 52)', async () => {
    const file = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    const { calls } = await run(
      { ...antiforgery, 'POST /api/Account/UploadPartnerLogo': { status: 200, body: {} } },
      { url: 'UploadPartnerLogo', params: { id: 'demo' }, body: file },
    );
    const call = calls.find((c) => c.url.includes('UploadPartnerLogo'))!;
    expect(call.headers['Content-Type']).toBe('image/png');
    expect(call.body).toBeUndefined();
  });

  it('fetches an anti-forgery token first when the cookie is absent, then sends it on the POST', async () => {
    const { calls } = await run(
      { ...antiforgery, 'POST /api/Account/Login': { status: 200, body: {} } },
      {
        url: 'Login',
        body: { username: 'a' },
      },
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/Account/Antiforgery',
      'POST /api/Account/Login',
    ]);
    expect(calls[1]!.headers['x-csrf-token-value']).toBe('tok-1');
    expect(calls[1]!.headers['Content-Type']).toBe('application/json');
    expect(calls[1]!.body).toEqual({ username: 'a' });
  });

  it('reads the token from any cookie whose name ends with x-csrf-token-value (the __Host- form too)', async () => {
    // jsdom refuses __Host- cookies over http, so the reader is checked on the cookie string directly.
    expect(readAntiforgeryToken('a=1; __Host-idp.x-csrf-token-value=host%2Btoken; b=2')).toBe('host+token');
    expect(readAntiforgeryToken('a=1; x-csrf-token-valueX=no')).toBeUndefined();
    document.cookie = 'idp.x-csrf-token-value=plain-token';
    const { calls } = await run({ 'POST /api/Account/Logout': { status: 200, body: {} } }, { url: 'Logout' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers['x-csrf-token-value']).toBe('plain-token');
  });

  it('builds the query string and leaves out undefined values', async () => {
    document.cookie = 'idp.x-csrf-token-value=t';
    const { calls } = await run(
      { 'POST /api/Account/User': { status: 200, body: {} } },
      {
        url: 'User',
        params: { returnUrl: '/a b', vendorId: undefined },
      },
    );
    expect(calls[0]!.url).toBe('/api/Account/User?returnUrl=%2Fa+b');
  });
});

describe('account base query: statuses (SPEC.md §4, §8)', () => {
  it.each([200, 201, 204, 208])('%i is success and resolves the body', async (status) => {
    document.cookie = 'idp.x-csrf-token-value=t';
    const { result } = await run(
      { 'POST /api/Account/Probe': { status, body: status === 204 ? undefined : { ok: 1 } } },
      {
        url: 'Probe',
      },
    );
    expect('data' in result).toBe(true);
  });

  it.each([
    ['/account/select?cid=1', 'in-app', '/account/select?cid=1'],
    ['/account/login/local?returnUrl=%2F', 'in-app', '/account/login/local?returnUrl=%2F'],
    ['/some/client/route', 'in-app', '/redirect?returnUrl=%2Fsome%2Fclient%2Froute'],
    ['/connect/authorize/callback?x=1', 'full', 'http://localhost:3000/connect/authorize/callback?x=1'],
    ['https://portal.example/callback', 'full', 'https://portal.example/callback'],
  ])('209 to %s: Exchange with the state, then %s navigation to %s', async (redirect, kind, expected) => {
    const { result, calls } = await run(
      { ...antiforgery, 'POST /api/Account/Login': { status: 209, body: { redirect, state: 'st-9' } } },
      { url: 'Login', body: {} },
    );
    const exchange = calls.find((c) => c.url === '/api/Account/Exchange')!;
    expect(exchange.body).toEqual({ state: 'st-9' });
    expect(exchange.headers['x-csrf-token-value']).toBe('tok-1');
    expect(calls.at(-1)!.url).toBe('/api/Account/Exchange');
    if (kind === 'in-app') {
      expect(navigations).toEqual([expected]);
      expect(fullLoads).toEqual([]);
    } else {
      expect(fullLoads).toEqual([expected]);
      expect(navigations).toEqual([]);
    }
    expect(result).toMatchObject({ data: { redirected: true, redirect } });
  });

  it("209: Exchange's answer is read to its end, so the browser's connection does not stay busy", async () => {
    const { calls } = await run(
      {
        ...antiforgery,
        'POST /api/Account/Login': { status: 209, body: { redirect: '/account/select', state: 's' } },
      },
      { url: 'Login', body: {} },
    );
    const exchange = calls.find((c) => c.url === '/api/Account/Exchange')!;
    expect(exchange.response!.bodyUsed).toBe(true);
  });

  it('400 without errors: sets the timed-out flag and goes to the login page keeping its returnUrl', async () => {
    // A sign-in had moved on in this tab (or User had said signed in) before the session lapsed.
    sessionStorage.setItem(SESSION_USED_STORAGE_KEY, '1');
    const { result, store } = await run(
      { ...antiforgery, 'POST /api/Account/Login': { status: 400 } },
      { url: 'Login' },
    );
    expect(selectTimedOut(store.getState())).toBe(true);
    expect(navigations).toEqual(['/account/login?returnUrl=%2Fconnect%2Fauth%3Fx%3D1']);
    expect((result as { error: ApiError }).error.status).toBe(400);
  });

  it('400 without errors on another page: login page with that page as returnUrl', async () => {
    window.history.replaceState({}, '', '/account/setup-twofactor?step=2');
    await run(
      { ...antiforgery, 'POST /api/Account/Setup2FAView': { status: 400, body: { title: 'x' } } },
      {
        url: 'Setup2FAView',
      },
    );
    expect(navigations).toEqual(['/account/login?returnUrl=%2Faccount%2Fsetup-twofactor%3Fstep%3D2']);
  });

  it('400 with an errors map: field errors lower-cased, lists kept, empty key form-level; no navigation', async () => {
    const { result, store } = await run(
      {
        ...antiforgery,
        'POST /api/Account/Login': {
          status: 400,
          body: {
            title: 'One or more validation errors occurred.',
            errors: { Username: ['required'], Password: ['a', 'b'], '': ['invalidCredentials'] },
          },
        },
      },
      { url: 'Login' },
    );
    expect((result as { error: ApiError }).error.errors).toEqual({
      username: ['required'],
      password: ['a', 'b'],
      '': ['invalidCredentials'],
    });
    expect(navigations).toEqual([]);
    expect(selectTimedOut(store.getState())).toBe(false);
  });

  it('400 without errors on a page opened cold: the login page, but no "timed out" (nothing was in use)', async () => {
    window.history.replaceState({}, '', '/account/setup-twofactor');
    const { store } = await run(
      {
        ...antiforgery,
        'POST /api/Account/User': { status: 200, body: { isAuthenticated: false } },
        'POST /api/Account/Setup2FAView': { status: 400 },
      },
      { url: 'User' },
    );
    await store.dispatch(probeApi.endpoints.probe.initiate({ url: 'Setup2FAView' }));
    expect(navigations).toEqual(['/account/login?returnUrl=%2Faccount%2Fsetup-twofactor']);
    expect(selectTimedOut(store.getState())).toBe(false);
  });

  it('400 without errors after User said signed in: "timed out"', async () => {
    window.history.replaceState({}, '', '/account/');
    const { store } = await run(
      {
        ...antiforgery,
        'POST /api/Account/User': { status: 200, body: { isAuthenticated: true, userName: 'emma' } },
        'POST /api/Account/Sessions': { status: 400 },
      },
      { url: 'User' },
    );
    await store.dispatch(probeApi.endpoints.probe.initiate({ url: 'Sessions' }));
    expect(selectTimedOut(store.getState())).toBe(true);
  });

  it('400 without errors after a sign-in step change: "timed out", said once; not after signing out', async () => {
    window.history.replaceState({}, '', '/account/setup-twofactor');
    const routes = {
      ...antiforgery,
      'POST /api/Account/Login': { status: 209, body: { redirect: '/account/setup-twofactor', state: 's' } },
      'POST /api/Account/Setup2FAView': { status: 400 },
      'POST /api/Account/Logout': {
        status: 209,
        body: { redirect: '/account/loggedout?logoutId=1', state: 's' },
      },
    };
    // Login moved the sign-in on to a step: when that step's session lapses, the login page says so.
    const { store } = await run(routes, { url: 'Login', body: {} });
    await store.dispatch(probeApi.endpoints.probe.initiate({ url: 'Setup2FAView' }));
    expect(selectTimedOut(store.getState())).toBe(true);
    // Said once: the same page opened again without a new use of the session says nothing.
    const again = (await run(routes, { url: 'Setup2FAView' })).store;
    expect(selectTimedOut(again.getState())).toBe(false);
    // Signing out ends the session: nothing of it can time out afterwards.
    const out = (await run(routes, { url: 'Logout', body: {} })).store;
    await out.dispatch(probeApi.endpoints.probe.initiate({ url: 'Setup2FAView' }));
    expect(selectTimedOut(out.getState())).toBe(false);
  });

  it('401: goes home with the current page as returnUrl', async () => {
    window.history.replaceState({}, '', '/account/select?cid=4');
    await run(
      { ...antiforgery, 'POST /api/Account/SelectCustomer': { status: 401 } },
      { url: 'SelectCustomer' },
    );
    expect(navigations).toEqual(['/?returnUrl=%2Faccount%2Fselect%3Fcid%3D4']);
  });

  it('two 401s at once go home once, never nesting the returnUrl', async () => {
    window.history.replaceState({}, '', '/account/');
    // The navigator moves the browser as the router would, so the second 401 sees the home page the first went to.
    registerNavigator((path) => {
      navigations.push(path);
      window.history.pushState({}, '', path);
    });
    const { store } = await run(
      {
        ...antiforgery,
        'POST /api/Account/Sessions': { status: 401 },
        'POST /api/Account/Devices': { status: 401 },
      },
      { url: 'Sessions' },
    );
    await store.dispatch(probeApi.endpoints.probe.initiate({ url: 'Devices' }));
    expect(navigations).toEqual(['/?returnUrl=%2Faccount%2F', '/?returnUrl=%2Faccount%2F']);
  });

  for (const again of [200, 401] as const) {
    it(`a call answered 401 while another succeeded meanwhile (a new session id) is sent once more: ${again === 200 ? 'its answer is kept' : 'a second 401 goes home'}`, async () => {
      window.history.replaceState({}, '', '/admin/releases');
      // The poll leaves with the old session id; its 401 arrives after "Confirm it's you" answered with a new one.
      let answerPoll: () => void = () => undefined;
      const hold = new Promise<void>((resolve) => (answerPoll = resolve));
      const server = stubServer({
        ...antiforgery,
        'GET /api/Account/ReleaseHealth': [
          { status: 401, hold },
          again === 200 ? { status: 200, body: { versions: [] } } : { status: 401 },
        ],
        'POST /api/Account/ConfirmItsYouSecondFactor': { status: 200, body: {} },
      });
      configureApiClient({ fetch: server.fetchStub, currentLocale: () => 'en-GB' });
      const store = createAppStore();
      const poll = store.dispatch(probeApi.endpoints.probe.initiate({ url: 'ReleaseHealth', method: 'GET' }));
      await store.dispatch(probeApi.endpoints.probe.initiate({ url: 'ConfirmItsYouSecondFactor', body: {} }));
      answerPoll();
      const result = await poll;
      const sent = server.calls.map((c) => c.url.split('?')[0]);
      expect(sent.filter((p) => p === '/api/Account/ReleaseHealth')).toHaveLength(2);
      if (again === 200) {
        expect(result).toMatchObject({ data: { versions: [] } });
        expect(navigations).toEqual([]);
      } else {
        expect(navigations).toEqual(['/?returnUrl=%2Fadmin%2Freleases']);
      }
    });
  }

  it('a call answered 401 with no other call answered meanwhile goes home at once, sent once', async () => {
    window.history.replaceState({}, '', '/account/');
    const { calls } = await run(
      { ...antiforgery, 'POST /api/Account/Sessions': { status: 401 } },
      { url: 'Sessions' },
    );
    expect(calls.filter((c) => c.url.includes('/Sessions'))).toHaveLength(1);
    expect(navigations).toEqual(['/?returnUrl=%2Faccount%2F']);
  });

  it('401 and 403 are normal responses where the call accepts them', async () => {
    const { result } = await run(
      { ...antiforgery, 'POST /api/Account/A': { status: 401, body: { x: 1 } } },
      {
        url: 'A',
        acceptUnauthorized: true,
      },
    );
    expect(result).toMatchObject({ data: { x: 1 } });
    const forbidden = await run(
      { ...antiforgery, 'POST /api/Account/B': { status: 403, body: { y: 2 } } },
      {
        url: 'B',
        acceptForbidden: true,
      },
    );
    expect(forbidden.result).toMatchObject({ data: { y: 2 } });
    expect(navigations).toEqual([]);
  });

  it.each([
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
    [418, 'Generic Error'],
    [302, 'Generic Error'],
  ])('%i maps through the status catalogue to "%s" with status and body', async (status, message) => {
    const { result } = await run(
      { ...antiforgery, 'POST /api/Account/X': { status, body: { detail: 'd' } } },
      {
        url: 'X',
      },
    );
    expect((result as { error: ApiError }).error).toMatchObject({
      status,
      message,
      body: { detail: 'd' },
      errors: {},
    });
    expect(navigations).toEqual([]);
  });

  it('a network failure is an error with the offline message, not a throw', async () => {
    configureApiClient({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    const store = createAppStore();
    document.cookie = 'idp.x-csrf-token-value=t';
    const result = await store.dispatch(probeApi.endpoints.probe.initiate({ url: 'Y' }));
    expect((result as { error: ApiError }).error).toMatchObject({ status: 0 });
  });
});

describe('timedOutLoginPath', () => {
  it.each([
    ['/account/login?returnUrl=%2Fx', '/account/login?returnUrl=%2Fx'],
    ['/account/login/local', '/account/login?returnUrl=%2F'],
    ['/account/recover?a=1', '/account/login?returnUrl=%2Faccount%2Frecover%3Fa%3D1'],
    // A step page of a pending sign-in carries the whole sign-in's target: the restart keeps it.
    ['/account/select?returnUrl=%2Finteraction%2Fabc', '/account/login?returnUrl=%2Finteraction%2Fabc'],
    ['/account/change-expired-password?ReturnUrl=%2Fx', '/account/login?returnUrl=%2Fx'],
  ])('%s → %s', (from, to) => {
    expect(timedOutLoginPath(from)).toBe(to);
  });
});

describe('unauthorizedHomePath', () => {
  it.each([
    ['/account/select?cid=4', '/?returnUrl=%2Faccount%2Fselect%3Fcid%3D4'],
    ['/account/', '/?returnUrl=%2Faccount%2F'],
    // Already home with a target (a second 401 of the same moment): the target is passed on, not wrapped.
    ['/?returnUrl=%2Faccount%2F', '/?returnUrl=%2Faccount%2F'],
    ['/?ReturnUrl=%2Faccount%2F', '/?returnUrl=%2Faccount%2F'],
    // The sign-in page and the steps of a sign-in carry the whole sign-in's target.
    ['/account/login?returnUrl=%2Finteraction%2Fabc', '/?returnUrl=%2Finteraction%2Fabc'],
    ['/account/login', '/'],
    ['/', '/'],
  ])('%s → %s', (from, to) => {
    expect(unauthorizedHomePath(from)).toBe(to);
  });
});
