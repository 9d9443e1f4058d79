import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from 'shared-contracts';
import { configureApiClient, createAppStore } from 'shared-contracts/api';
import type { LoaderFunctionArgs } from 'react-router';
import { createGuardLoader } from './guard';

/** A gateway stub answering the anti-forgery and User calls; records the User queries. */
function gateway(user: CurrentUser) {
  const userQueries: string[] = [];
  const fetchStub = (input: RequestInfo | URL): Promise<Response> => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    if (url.startsWith('/api/Account/Antiforgery')) {
      document.cookie = 'idp.x-csrf-token-value=t';
      return Promise.resolve(Response.json({ token: 't' }));
    }
    userQueries.push(url);
    return Promise.resolve(Response.json(user));
  };
  configureApiClient({ fetch: fetchStub });
  return userQueries;
}

async function navigate(path: string, user: CurrentUser | boolean) {
  const userQueries = gateway(typeof user === 'boolean' ? { isAuthenticated: user } : user);
  const loader = createGuardLoader(createAppStore());
  try {
    const args = {
      request: new Request(`http://localhost${path}`),
      params: {},
      context: undefined,
    } as unknown as LoaderFunctionArgs;
    const data = await loader(args);
    return { data, userQueries };
  } catch (thrown) {
    return { redirect: (thrown as Response).headers.get('Location'), userQueries };
  }
}

afterEach(() => configureApiClient({ fetch: (...args) => globalThis.fetch(...args) }));

describe('navigation guard (SPEC.md §2)', () => {
  it('loads the user with the target returnUrl, default "/"', async () => {
    expect((await navigate('/account/login?returnUrl=%2Fconnect%2Fx', false)).userQueries).toEqual([
      '/api/Account/User?returnUrl=%2Fconnect%2Fx',
    ]);
    expect((await navigate('/account/recover', false)).userQueries).toEqual([
      '/api/Account/User?returnUrl=%2F',
    ]);
    expect((await navigate('/account/recover?ReturnUrl=%2Fa', false)).userQueries).toEqual([
      '/api/Account/User?returnUrl=%2Fa',
    ]);
  });

  it.each([
    '/account/select?cid=3',
    '/account/registerdevice',
    '/Account/Select',
    '/admin',
    '/admin/releases',
  ])(
    'sends a signed-out visitor of %s to the sign-in page with the full path as returnUrl (issue 43)',
    async (path) => {
      const { redirect } = await navigate(path, false);
      const full = new URL(path, 'http://localhost');
      expect(redirect).toBe(`/account/login?returnUrl=${encodeURIComponent(full.pathname + full.search)}`);
    },
  );

  it.each([
    ['/account/', '/account/'],
    ['/account', '/account/'],
    ['/Account/', '/account/'],
    ['/account/?confirmEmail=abc', '/account/?confirmEmail=abc'],
  ])(
    'sends a signed-out visitor of the account page %s to sign in and back to %s (issue 49)',
    async (path, back) => {
      const { redirect } = await navigate(path, false);
      expect(redirect).toBe(`/account/login?returnUrl=${encodeURIComponent(back)}`);
    },
  );

  it.each(['/account/', '/account'])('lets a signed-in user open the account page %s', async (path) => {
    const { data, redirect } = await navigate(path, true);
    expect(redirect).toBeUndefined();
    expect(data?.user.isAuthenticated).toBe(true);
  });

  it.each(['/account/select', '/account/registerdevice', '/admin', '/admin/releases'])(
    'lets a signed-in user open %s',
    async (path) => {
      const { data } = await navigate(path, true);
      expect(data?.user.isAuthenticated).toBe(true);
    },
  );

  it.each(['/', '/account/login', '/error/access-denied', '/no/such/page'])(
    'lets anyone open %s',
    async (path) => {
      const { data, redirect } = await navigate(path, false);
      expect(redirect).toBeUndefined();
      expect(data?.user.isAuthenticated).toBe(false);
    },
  );

  describe('a pending sign-in (User answers signInStep)', () => {
    it.each([
      ['/account/select?cid=3&returnUrl=%2Fconnect%2Fx', '/account/select'],
      ['/account/registerdevice', '/account/registerdevice'],
      ['/Account/Select', '/account/select'],
    ])('lets the user open %s, the step it waits at', async (path, signInStep) => {
      const { data, redirect } = await navigate(path, { isAuthenticated: false, signInStep });
      expect(redirect).toBeUndefined();
      expect(data?.user).toEqual({ isAuthenticated: false, signInStep });
    });

    it.each([
      ['/account/registerdevice', '/account/select'],
      ['/account/select', '/account/registerdevice'],
      ['/account/select', '/account/login/twofactor'],
      ['/account/select', '/account/select/other'],
    ])('sends a user waiting at another step away from %s (step %s)', async (path, signInStep) => {
      const { redirect } = await navigate(path, { isAuthenticated: false, signInStep });
      expect(redirect).toBe(`/error/access-denied?returnUrl=${encodeURIComponent(path)}`);
    });
  });
});
