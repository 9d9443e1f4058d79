import { redirect, type LoaderFunctionArgs } from 'react-router';
import { ACCESS_DENIED_PATH, ANONYMOUS_USER, findRoute, type CurrentUser } from 'shared-contracts';
import { baseApi, type AppStore } from 'shared-contracts/api';

/** What the guard hands to every page: the user loaded for this navigation. */
export interface GuardData {
  user: CurrentUser;
}

/**
 * The navigation guard (SPEC.md §2): before each navigation the current user is loaded with the target's
 * returnUrl (default "/"); a route that is not anonymous, reached without an authenticated user, goes to
 * /error/access-denied?returnUrl=<full path>.
 */
export function createGuardLoader(store: AppStore) {
  return async ({ request }: LoaderFunctionArgs): Promise<GuardData> => {
    const url = new URL(request.url);
    const returnUrl = url.searchParams.get('returnUrl') ?? url.searchParams.get('ReturnUrl') ?? '/';
    const result = await store.dispatch(
      baseApi.endpoints.user.initiate({ returnUrl }, { forceRefetch: true, subscribe: false }),
    );
    const user = result.data ?? ANONYMOUS_USER;
    const route = findRoute(url.pathname);
    if (route && !route.anonymous && !user.isAuthenticated) {
      const fullPath = `${url.pathname}${url.search}`;
      // react-router's convention: a thrown Response redirects the navigation.
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a Response is what the router expects
      throw redirect(`${ACCESS_DENIED_PATH}?returnUrl=${encodeURIComponent(fullPath)}`);
    }
    return { user };
  };
}
