import { lazy, Suspense, type ComponentType } from 'react';
import { useLoaderData, useRouteError, type RouteObject } from 'react-router';
import { ROUTES, type RemoteId, type RouteDefinition } from 'shared-contracts';
import type { AppStore } from 'shared-contracts/api';
import { ProgressBar } from 'shared-contracts/ui';
import { reportClientError } from '../errors/error-reporting';
import { AppLayout } from '../layout/app-layout';
import { AccountIndexPage } from '../pages/account-index-page';
import {
  AccessDeniedPage,
  ErrorIndexPage,
  ErrorNotFoundPage,
  ExpiredPage,
  LinkExpiredPage,
  NotFoundPage,
  SignInErrorPage,
  UnexpectedErrorPage,
} from '../pages/error-pages';
import { HomePage } from '../pages/home-page';
import { RedirectPage } from '../pages/redirect-page';
import { RemoteUnavailablePage } from '../pages/remote-unavailable-page';
import { prepareRemotePage, remotePage } from '../remotes/remote-loader';
import { createGuardLoader } from './guard';

// /devops (for the platform team, never on a sign-in path) loads its code and styles only when opened, so the
// sign-in page's first load does not carry them.
const LazyDevopsPage = lazy(() => import('../pages/devops-page').then((m) => ({ default: m.DevopsPage })));

function DevopsPage() {
  return (
    <Suspense fallback={<ProgressBar active label="…" />}>
      <LazyDevopsPage />
    </Suspense>
  );
}

/** The shell's own pages by route-table path (every `owner: 'shell'` row). */
export const SHELL_PAGES: Readonly<Record<string, ComponentType>> = {
  '/': HomePage,
  '/account': AccountIndexPage,
  '/account/': AccountIndexPage,
  '/devops': DevopsPage,
  '/error': ErrorIndexPage,
  '/error/access-denied': AccessDeniedPage,
  '/error/expired': ExpiredPage,
  '/error/link-expired': LinkExpiredPage,
  '/error/notfound': ErrorNotFoundPage,
  '/error/signin': SignInErrorPage,
  '/redirect': RedirectPage,
  '*': NotFoundPage,
};

/** Reports an error caught by a route's error boundary (deduplicated per page load by reportClientError). */
function useReportedRouteError(origin: string): void {
  const error = useRouteError();
  reportClientError({
    kind: 'boundary',
    origin,
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
}

/** Reports an error the shell threw while rendering and shows the friendly error page in its place. */
function RouteErrorBoundary({ origin }: { origin: string }) {
  useReportedRouteError(origin);
  return <UnexpectedErrorPage />;
}

/**
 * A remote's page threw while rendering: reported with kind `boundary`, and the remote's unavailable page with
 * Retry shown in its place (Retry forgets the remote's code and re-reads the manifest; the revalidation resets
 * this boundary). The layout and every other route keep working.
 */
function RemoteErrorBoundary({ remoteId }: { remoteId: RemoteId }) {
  useReportedRouteError(remoteId);
  return <RemoteUnavailablePage remoteId={remoteId} />;
}

/** What a remote route's loader hands its page: the remote's page component, or none when it is unavailable. */
interface RemoteRouteData {
  Page: ComponentType | undefined;
}

function remoteRoute(definition: RouteDefinition & { owner: RemoteId }): RouteObject {
  const { path, owner } = definition;
  function RemoteRoutePage() {
    const { Page } = useLoaderData<RemoteRouteData>();
    return Page ? <Page /> : <RemoteUnavailablePage remoteId={owner} />;
  }
  return {
    path,
    // The loader makes the router wait for the remote (progress bar) and never fails: a remote that cannot
    // load gives the fallback page, not a broken router.
    loader: async (): Promise<RemoteRouteData> => ({
      Page: (await prepareRemotePage(owner, path)) ? remotePage(path) : undefined,
    }),
    Component: RemoteRoutePage,
    ErrorBoundary: () => <RemoteErrorBoundary remoteId={owner} />,
  };
}

/** The router's route objects, built from the route table of shared-contracts (SPEC.md §2). */
export function buildRoutes(store: AppStore): RouteObject[] {
  const children: RouteObject[] = [];
  const seen = new Set<string>();
  for (const definition of ROUTES) {
    // "/account" and "/account/" are one route to the router (trailing slashes do not matter to it).
    const key = definition.path === '/account/' ? '/account' : definition.path;
    if (seen.has(key)) continue;
    seen.add(key);
    if (definition.owner === 'shell') {
      const Component = SHELL_PAGES[definition.path];
      if (!Component) throw new Error(`No shell page for ${definition.path}`);
      if (definition.path === '/') children.push({ index: true, Component });
      else children.push({ path: definition.path, Component });
    } else {
      children.push(remoteRoute(definition as RouteDefinition & { owner: RemoteId }));
    }
  }
  return [
    {
      id: 'root',
      path: '/',
      Component: AppLayout,
      loader: createGuardLoader(store),
      // The user is loaded before each navigation, not only when the root's params change.
      shouldRevalidate: () => true,
      HydrateFallback: () => <ProgressBar active label="…" />,
      ErrorBoundary: () => <RouteErrorBoundary origin="shell" />,
      children,
    },
  ];
}
