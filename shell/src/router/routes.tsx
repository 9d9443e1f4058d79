import { lazy, Suspense, type ComponentType } from 'react';
import { useLoaderData, useRouteError, type LazyRouteFunction, type RouteObject } from 'react-router';
import { ROUTES, type RemoteId, type RouteDefinition } from 'shared-contracts';
import type { AppStore } from 'shared-contracts/api';
import { Alert, Page, ProgressBar } from 'shared-contracts/ui';
import { useTranslation } from 'react-i18next';
import { reportClientError } from '../errors/error-reporting';
import { AppLayout } from '../layout/app-layout';
import { RemoteUnavailablePage } from '../pages/remote-unavailable-page';
import { prepareRemotePage, remotePage } from '../remotes/remote-loader';
import { createGuardLoader } from './guard';

/** A shell page loaded with its route: the router fetches the page's chunk before it renders it (no flash). */
type ShellPage = { lazy: LazyRouteFunction<RouteObject> };

// The shell's own pages load with their route, never with the first page: the sign-in page (a remote's) carries
// none of their code (issue 54; e2e first-paint and bench/budget.test.mjs). The `lazy:` key is what the byte walk
// (bench/lib/route-bytes.mjs) recognises as a route's own load, as it does for the remotes' routes.
const errorPage = (name: keyof typeof import('../pages/error-pages')): ShellPage => ({
  lazy: () => import('../pages/error-pages').then((m) => ({ Component: m[name] as ComponentType })),
});

/** The shell's own pages by route-table path (every `owner: 'shell'` row). */
export const SHELL_PAGES: Readonly<Record<string, ShellPage>> = {
  '/': { lazy: () => import('../pages/home-page').then((m) => ({ Component: m.HomePage })) },
  '/account': {
    lazy: () => import('../pages/account-index-page').then((m) => ({ Component: m.AccountIndexPage })),
  },
  '/account/': {
    lazy: () => import('../pages/account-index-page').then((m) => ({ Component: m.AccountIndexPage })),
  },
  // For the platform team, never on a sign-in path: its code and styles only when opened.
  '/devops': { lazy: () => import('../pages/devops-page').then((m) => ({ Component: m.DevopsPage })) },
  '/error': errorPage('ErrorIndexPage'),
  '/error/access-denied': errorPage('AccessDeniedPage'),
  '/error/expired': errorPage('ExpiredPage'),
  '/error/link-expired': errorPage('LinkExpiredPage'),
  '/error/notfound': errorPage('ErrorNotFoundPage'),
  '/error/signin': errorPage('SignInErrorPage'),
  '/redirect': { lazy: () => import('../pages/redirect-page').then((m) => ({ Component: m.RedirectPage })) },
  '*': errorPage('NotFoundPage'),
};

/**
 * What a crashed page shows: the error pages' own, loaded when needed; if even that chunk cannot load (the crash
 * may be a failed load), the same words from the strings already there.
 */
const UnexpectedErrorPage = lazy(() =>
  import('../pages/error-pages')
    .then((m) => ({ default: m.UnexpectedErrorPage }))
    .catch(() => ({ default: UnexpectedErrorFallback })),
);

function UnexpectedErrorFallback() {
  const { t } = useTranslation('common');
  return (
    <Page title={t('errorPages.unexpectedTitle')} pageId="unexpected-error">
      <Alert kind="error">{t('errorPages.unexpected')}</Alert>
    </Page>
  );
}

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
  return (
    <Suspense fallback={<ProgressBar active label="…" />}>
      <UnexpectedErrorPage />
    </Suspense>
  );
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
      const page = SHELL_PAGES[definition.path];
      if (!page) throw new Error(`No shell page for ${definition.path}`);
      if (definition.path === '/') children.push({ index: true, ...page });
      else children.push({ path: definition.path, ...page });
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
