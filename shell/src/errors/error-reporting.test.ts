import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportClientError, stackPosition } from './error-reporting';

afterEach(() => vi.unstubAllGlobals());

describe('client error reports', () => {
  it.each([
    [
      'Error: x\n    at render (http://localhost:8080/assets/main.abc.js:1:2345)',
      'http://localhost:8080/assets/main.abc.js:1:2345',
    ],
    ['Error: x\n    at http://h/remotes/mfe-login/1/13.js:4:5', 'http://h/remotes/mfe-login/1/13.js:4:5'],
    ['no frames here', undefined],
    [undefined, undefined],
  ])('stack position of %j is %j', (stack, position) => {
    expect(stackPosition(stack)).toBe(position);
  });

  it('posts message, stack position and URL to the client-error endpoint, once per distinct error', () => {
    const fetchSpy = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
    vi.stubGlobal('fetch', fetchSpy);
    const report = {
      kind: 'remote-load' as const,
      origin: 'mfe-mfa',
      message: 'mfe-mfa failed to load',
      stack: 'Error\n    at http://h/a.js:1:2',
    };
    reportClientError(report);
    reportClientError(report);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/ops/client-errors');
    expect(JSON.parse(init.body as string)).toMatchObject({
      kind: 'remote-load',
      origin: 'mfe-mfa',
      message: 'mfe-mfa failed to load',
      source: 'http://h/a.js:1:2',
      url: window.location.href,
    });
  });
});
