import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute, isKnownPage } from './routes.js';

describe('route table (SPEC.md §2)', () => {
  it('has all 30 rows', () => {
    expect(ROUTES).toHaveLength(30);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(30);
  });

  it('marks only registerdevice and select as not anonymous', () => {
    expect(ROUTES.filter((r) => !r.anonymous).map((r) => r.path)).toEqual([
      '/account/registerdevice',
      '/account/select',
    ]);
  });

  it('gives / no sidebar and /devops neither sidebar nor navbar', () => {
    expect(findRoute('/')?.layout).toEqual({ sidebar: false, navbar: true });
    expect(findRoute('/devops')?.layout).toEqual({ sidebar: false, navbar: false });
  });

  it('knows pages case-insensitively and with a trailing slash, not unknown paths', () => {
    expect(isKnownPage('/Account/Login')).toBe(true);
    expect(isKnownPage('/account/login/')).toBe(true);
    expect(isKnownPage('/account/')).toBe(true);
    expect(isKnownPage('/nope')).toBe(false);
  });
});
