import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute, isKnownPage } from './routes.js';

describe('route table (SPEC.md §2)', () => {
  it("has all 30 rows of SPEC.md and the console's two", () => {
    expect(ROUTES).toHaveLength(34);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(34);
    expect(ROUTES.filter((r) => r.owner === 'mfe-admin').map((r) => r.path)).toEqual([
      '/admin',
      '/admin/releases',
      '/admin/people',
      '/admin/person',
    ]);
  });

  it('marks only registerdevice, select and the console as not anonymous', () => {
    expect(ROUTES.filter((r) => !r.anonymous).map((r) => r.path)).toEqual([
      '/account/registerdevice',
      '/account/select',
      '/admin',
      '/admin/releases',
      '/admin/people',
      '/admin/person',
    ]);
  });

  it('gives / no sidebar and /devops neither sidebar nor navbar', () => {
    expect(findRoute('/')?.layout).toEqual({ sidebar: false, navbar: true });
    expect(findRoute('/devops')?.layout).toEqual({ sidebar: false, navbar: false });
    expect(findRoute('/admin/releases')?.layout).toEqual({ sidebar: false, navbar: true });
  });

  it('knows pages case-insensitively and with a trailing slash, not unknown paths', () => {
    expect(isKnownPage('/Account/Login')).toBe(true);
    expect(isKnownPage('/account/login/')).toBe(true);
    expect(isKnownPage('/account/')).toBe(true);
    expect(isKnownPage('/nope')).toBe(false);
  });
});
