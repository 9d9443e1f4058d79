import type { RouteOwner } from './remote.js';

/** Layout switches of a route (SPEC.md §2). */
export interface RouteLayout {
  /** Whether the side panel (branding column) shows. */
  sidebar: boolean;
  /** Whether the top navigation bar shows. */
  navbar: boolean;
}

/** One row of the route table of SPEC.md §2. */
export interface RouteDefinition {
  /** The path as the router matches it; `*` is any unknown path. */
  path: string;
  /** Who renders it. */
  owner: RouteOwner;
  /** Whether an unauthenticated visitor may open it (SPEC.md §2, §6). */
  anonymous: boolean;
  /** Layout switches. */
  layout: RouteLayout;
  /** Translation key of the page title, in the owner's namespace (`common` for the shell). */
  titleKey: string;
  /** The en-GB title, for documentation and for places without i18n (server-rendered HTML). */
  title: string;
}

const full: RouteLayout = { sidebar: true, navbar: true };
const consoleLayout: RouteLayout = { sidebar: false, navbar: true };

function route(
  path: string,
  owner: RouteOwner,
  titleKey: string,
  title: string,
  options: { anonymous?: boolean; layout?: RouteLayout } = {},
): RouteDefinition {
  return {
    path,
    owner,
    anonymous: options.anonymous ?? true,
    layout: options.layout ?? full,
    titleKey,
    title,
  };
}

/**
 * The route table of SPEC.md §2 (all 30 rows) and the operators' console under `/admin` (issue 51, ADR 0060). The shell builds its router from it; the gateway uses it to know
 * which paths are pages (any other path is answered with the shell and HTTP 404).
 */
export const ROUTES: readonly RouteDefinition[] = [
  route('/', 'shell', 'routes.home', 'Home', { layout: { sidebar: false, navbar: true } }),
  route('*', 'shell', 'routes.notFound', 'Page not found'),
  route('/account', 'shell', 'routes.account', 'Account'),
  route('/account/', 'shell', 'routes.accountIndex', 'Account'),
  route(
    '/account/change-expired-password',
    'mfe-recovery',
    'routes.changeExpiredPassword',
    'Change password',
  ),
  route('/account/link', 'mfe-login', 'routes.link', 'Link your account'),
  route('/account/loggedout', 'mfe-login', 'routes.loggedOut', 'Signed out'),
  route('/account/login', 'mfe-login', 'routes.login', 'Sign in'),
  route('/account/login/local', 'mfe-login', 'routes.loginLocal', 'Sign in'),
  route('/account/login/ott', 'mfe-login', 'routes.loginOtt', 'One-time sign-in code'),
  route('/account/login/recoverycode', 'mfe-mfa', 'routes.loginRecoveryCode', 'Sign in with recovery code'),
  route('/account/login/secure', 'mfe-devices', 'routes.loginSecure', 'Sign in with a passkey'),
  route('/account/login/twofactor', 'mfe-mfa', 'routes.loginTwoFactor', 'Two-step verification'),
  route('/account/login/vendor', 'mfe-login', 'routes.loginVendor', 'Vendor sign-in'),
  route('/account/logout', 'mfe-login', 'routes.logout', 'Sign out'),
  route('/account/logout/upstream', 'mfe-login', 'routes.logoutUpstream', 'Signing out'),
  route('/account/recover', 'mfe-recovery', 'routes.recover', 'Recover your account'),
  route('/account/redeem-recoverycodes', 'mfe-mfa', 'routes.redeemRecoveryCodes', 'Recovery codes'),
  route('/account/registerdevice', 'mfe-devices', 'routes.registerDevice', 'Add a passkey', {
    anonymous: false,
  }),
  route('/account/reset-password', 'mfe-recovery', 'routes.resetPassword', 'Reset password'),
  route('/account/select', 'mfe-tenant', 'routes.selectCustomer', 'Select customer', { anonymous: false }),
  route('/account/setup-twofactor', 'mfe-mfa', 'routes.setupTwoFactor', 'Set up two-step verification'),
  // The console's pages are wide working pages: no branding column (ADR 0060).
  route('/admin', 'mfe-admin', 'routes.admin', 'Administration', { anonymous: false, layout: consoleLayout }),
  route('/admin/releases', 'mfe-admin', 'routes.releases', 'Releases', {
    anonymous: false,
    layout: consoleLayout,
  }),
  route('/admin/people', 'mfe-admin', 'routes.people', 'People', { anonymous: false, layout: consoleLayout }),
  route('/admin/person', 'mfe-admin', 'routes.person', 'Person', { anonymous: false, layout: consoleLayout }),
  route('/devops', 'shell', 'routes.devops', 'DevOps', { layout: { sidebar: false, navbar: false } }),
  route('/error', 'shell', 'routes.error', 'Error'),
  route('/error/access-denied', 'shell', 'routes.accessDenied', 'Access denied'),
  route('/error/expired', 'shell', 'routes.expired', 'Expired'),
  route('/error/link-expired', 'shell', 'routes.linkExpired', 'Link expired'),
  route('/error/notfound', 'shell', 'routes.errorNotFound', 'Not found'),
  route('/error/signin', 'shell', 'routes.signInError', 'Sign-in error'),
  route('/redirect', 'shell', 'routes.redirect', 'Redirecting'),
];

function normalise(pathname: string): string {
  if (pathname === '/' || pathname === '') return '/';
  // "/account/" is its own row; any other trailing slash is the same page as without it.
  if (pathname === '/account/') return pathname;
  return pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** The route row for a pathname (case-insensitive, as the server routes are), or undefined for unknown paths. */
export function findRoute(pathname: string): RouteDefinition | undefined {
  const wanted = normalise(pathname).toLowerCase();
  return ROUTES.find((r) => r.path !== '*' && r.path.toLowerCase() === wanted);
}

/** True when the pathname is a page of the route table (the gateway answers 200), false for not-found (404). */
export function isKnownPage(pathname: string): boolean {
  return findRoute(pathname) !== undefined;
}

/** The local sign-in route, which a 209 redirect pushes directly (SPEC.md §4). */
export const LOCAL_LOGIN_PATH = '/account/login/local';
/** The sign-in page (SPEC.md §4: the timed-out flag sends the browser here). */
export const LOGIN_PATH = '/account/login';
/** Where a non-anonymous route without a user goes (SPEC.md §2). */
export const ACCESS_DENIED_PATH = '/error/access-denied';
/** The console's index (ADR 0060): it sends the caller to the first console page they may see. */
export const ADMIN_PATH = '/admin';
/** The console's releases page (issue 51). */
export const ADMIN_RELEASES_PATH = '/admin/releases';
/** The console's People section (issue 52): the search … */
export const ADMIN_PEOPLE_PATH = '/admin/people';
/** … and one person's page (`?id=`). */
export const ADMIN_PERSON_PATH = '/admin/person';
/** The home route. */
export const HOME_PATH = '/';
