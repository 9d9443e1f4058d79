// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { baseApi } from './base-api.js';
import { configureApiClient } from './client-config.js';
import { createAppStore } from './store.js';

afterEach(() => configureApiClient({ fetch: (...args) => globalThis.fetch(...args) }));

describe('user endpoint', () => {
  it('asks User once per page however its readers spell the returnUrl (the answer is the session, not the target)', async () => {
    const calls: string[] = [];
    configureApiClient({
      fetch: (input) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        calls.push(url);
        return Promise.resolve(Response.json({ isAuthenticated: false }));
      },
    });
    const store = createAppStore();
    // The sign-in page reads it with its returnUrl, the shell's idle watch without one.
    const page = store.dispatch(baseApi.endpoints.user.initiate({ returnUrl: '/interaction/abc' }));
    const idle = store.dispatch(baseApi.endpoints.user.initiate());
    const [a, b] = await Promise.all([page, idle]);
    expect(a.data).toEqual({ isAuthenticated: false });
    expect(b.data).toEqual({ isAuthenticated: false });
    const users = calls.filter((url) => url.includes('/User'));
    expect(users).toHaveLength(1);
    expect(users[0]).toContain('returnUrl=%2Finteraction%2Fabc');
  });
});
