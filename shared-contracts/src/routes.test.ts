import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute, isKnownPage } from './routes.js';

describe('route table (SPEC.md §2)', () => {
  it("has all 30 rows of SPEC.md and the console's pages, each path once", () => {
    expect(ROUTES.filter((r) => r.owner !== 'mfe-admin')).toHaveLength(30);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
    const pages = ROUTES.filter((r) => r.owner === 'mfe-admin').map((r) => r.path);
    // Issue 51's pages, then each page of issue 52 (every console page under /admin).
    expect(pages.slice(0, 2)).toEqual(['/admin', '/admin/releases']);
    expect(pages).toEqual(
      expect.arrayContaining(['/admin/people', '/admin/person', '/admin/partners', '/admin/applications']),
    );
    expect(pages.every((path) => path.startsWith('/admin/') || path === '/admin')).toBe(true);
    expect(pages).toEqual(expect.arrayContaining(['/admin/grants', '/admin/audit', '/admin/import']));
  });

  it('marks only registerdevice, select and the console as not anonymous', () => {
    expect(ROUTES.filter((r) => !r.anonymous).map((r) => r.path)).toEqual([
      '/account/registerdevice',
      '/account/select',
      ...ROUTES.filter((r) => r.owner === 'mfe-admin').map((r) => r.path),
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
