import { redirect, type LoaderFunctionArgs } from 'react-router';
import {
  ACCESS_DENIED_PATH,
  ANONYMOUS_USER,
  findRoute,
  LOGIN_PATH,
  returnUrlOf,
  type CurrentUser,
  type RouteDefinition,
  withReturnUrl,
} from 'shared-contracts';
import { baseApi, type AppStore } from 'shared-contracts/api';

/** What the guard hands to every page: the user loaded for this navigation. */
export interface GuardData {
  user: CurrentUser;
}

/**
 * Whether the user may open a route. Anonymous routes are open to all; any other needs a signed-in user, or a
 * pending sign-in waiting at exactly that route (the server's state machine sent the user to that step, e.g.
 * `/account/select` before the sign-in completes), and no other non-anonymous route.
 */
export function mayOpen(route: RouteDefinition | undefined, user: CurrentUser): boolean {
  if (!route || route.anonymous || user.isAuthenticated) return true;
  return user.signInStep !== undefined && findRoute(user.signInStep) === route;
}

/** The account page (`/account` and `/account/`): the security centre. */
function isAccountIndex(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return path === '/account' || path === '/account/';
}

/**
 * Where a visitor who opens the account page goes (issue 49): the sign-in page, coming back to `/account/` with the
 * same query (an e-mail change link, ADR 0036, keeps its `confirmEmail`), instead of a bare page of two links.
 */
export function accountSignInPath(search: string): string {
  return withReturnUrl(LOGIN_PATH, `/account/${search}`);
}

/**
 * The navigation guard (SPEC.md §2): before each navigation the current user is loaded with the target's
 * returnUrl (default "/"); a route that is not anonymous, reached without an authenticated user (and not the step
 * a pending sign-in waits at, see {@link mayOpen}), goes to /error/access-denied?returnUrl=<full path> — except a
 * visitor who is not signing in at all (a signed-out deep link to /account/select or /account/registerdevice),
 * who goes to the sign-in page with that returnUrl, as every anchor does (issue 43, ADR 0036). Access denied stays
 * for a sign-in pending at another step: signing in again would not help it. The account page is anonymous in the
 * route table (SPEC.md §2), yet shows nothing to a visitor but the security centre's sign-in: a visitor who opens it
 * goes to sign in and comes back (issue 49, {@link accountSignInPath}).
 */
export function createGuardLoader(store: AppStore) {
  return async ({ request }: LoaderFunctionArgs): Promise<GuardData> => {
    const url = new URL(request.url);
    const returnUrl = returnUrlOf(url.searchParams);
    const result = await store.dispatch(
      baseApi.endpoints.user.initiate({ returnUrl }, { forceRefetch: true, subscribe: false }),
    );
    const user = result.data ?? ANONYMOUS_USER;
    if (!mayOpen(findRoute(url.pathname), user)) {
      const fullPath = `${url.pathname}${url.search}`;
      // react-router's convention: a thrown Response redirects the navigation.
      const target = user.signInStep === undefined ? LOGIN_PATH : ACCESS_DENIED_PATH;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a Response is what the router expects
      throw redirect(withReturnUrl(target, fullPath));
    }
    if (!user.isAuthenticated && isAccountIndex(url.pathname)) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a Response is what the router expects
      throw redirect(accountSignInPath(url.search));
    }
    return { user };
  };
}
