import { describe, expect, it } from 'vitest';
import { classifyResponse, normaliseFieldErrors, resolveRedirectTarget, statusMessage } from './protocol.js';
import { isKnownPage } from './routes.js';

describe('classifyResponse (SPEC.md §4, §8)', () => {
  it.each([200, 201, 204, 208])('treats %i as success', (status) => {
    expect(classifyResponse(status, null)).toEqual({ kind: 'success' });
  });

  it('reads a 209 as a redirect with state', () => {
    expect(classifyResponse(209, { redirect: '/account/select', state: 's1' })).toEqual({
      kind: 'redirect',
      redirect: '/account/select',
      state: 's1',
    });
  });

  it('treats a 209 without a redirect body as an error', () => {
    expect(classifyResponse(209, {})).toEqual({ kind: 'error', message: 'Generic Error' });
  });

  it('reads a 400 without an errors map as a timed-out session', () => {
    expect(classifyResponse(400, null)).toEqual({ kind: 'timeout' });
    expect(classifyResponse(400, { title: 'x' })).toEqual({ kind: 'timeout' });
  });

  it('reads a 400 with an errors map as field errors with lower-cased keys and lists', () => {
    expect(
      classifyResponse(400, {
        title: 't',
        errors: { UserName: 'required', Password: ['a', 'b'], '': ['form'] },
      }),
    ).toEqual({ kind: 'validation', errors: { userName: ['required'], password: ['a', 'b'], '': ['form'] } });
  });

  it('sends a 401 home unless accepted', () => {
    expect(classifyResponse(401, null)).toEqual({ kind: 'unauthorized' });
    expect(classifyResponse(401, null, { acceptUnauthorized: true })).toEqual({ kind: 'success' });
  });

  it('accepts a 403 when the call says so', () => {
    expect(classifyResponse(403, null, { acceptForbidden: true })).toEqual({ kind: 'success' });
    expect(classifyResponse(403, null)).toEqual({ kind: 'error', message: 'Forbidden' });
  });

  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
    [418, 'Generic Error'],
    [504, 'Generic Error'],
  ])('maps status %i to "%s"', (status, message) => {
    expect(statusMessage(status)).toBe(message);
  });
});

describe('normaliseFieldErrors', () => {
  it('merges keys that differ only in the first letter', () => {
    expect(normaliseFieldErrors({ Email: ['a'], email: 'b' })).toEqual({ email: ['a', 'b'] });
  });
});

describe('resolveRedirectTarget (SPEC.md §4)', () => {
  const origin = 'https://id.example.com';
  it.each([
    ['/account/select?returnUrl=%2F', { kind: 'in-app', path: '/account/select?returnUrl=%2F' }],
    ['https://id.example.com/account/login/twofactor', { kind: 'in-app', path: '/account/login/twofactor' }],
    ['/account/login/local', { kind: 'push', path: '/account/login/local' }],
    ['/some/client/page', { kind: 'via-redirect', path: '/redirect?returnUrl=%2Fsome%2Fclient%2Fpage' }],
    ['/interaction/abc123', { kind: 'full', url: 'https://id.example.com/interaction/abc123' }],
    ['/connect/authorize?x=1', { kind: 'full', url: 'https://id.example.com/connect/authorize?x=1' }],
    ['https://payroll.example.com/cb', { kind: 'full', url: 'https://payroll.example.com/cb' }],
  ])('follows %s', (redirect, expected) => {
    expect(resolveRedirectTarget(redirect, origin, isKnownPage)).toEqual(expected);
  });
});
