/**
 * The shell's service worker (Workbox InjectManifest source; built to /sw.js by rspack.platform.mjs).
 *
 * - The shell's built assets are precached, so the site opens offline (SPEC.md §1).
 * - The remotes manifest and every federation manifest / remoteEntry.js are network-first and never
 *   precached: a newly promoted remote version must be seen on the next load (STACK.md gotcha).
 * - Versioned remote bundles (/remotes/<id>/<version>/…) never change, so they are cache-first once fetched.
 * - Page navigations are network-first: online, every page gets fresh HTML from the gateway with a fresh CSP
 *   nonce and the host's partner branding; offline, the last shell page answers and the shell shows its offline
 *   notice. OIDC and API paths are never cached: an answer about who is signed in must not be replayed.
 * - A page is stored only when it answered 200 without `no-store` and its address carries no secret
 *   (shared-contracts' SECRET_QUERY_PARAMETERS: a reset, one-time sign-in or e-mail change token, a recovery-code
 *   set's id; platform/page-cache-policy.ts). A secret's address goes to the network only, is never written to
 *   Cache Storage and, offline, gets the offline shell (S16, ADR 0044).
 * - A new version waits until the page asks (the update toast's Reload → SKIP_WAITING message).
 */
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { warmStrategyCache } from 'workbox-recipes';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { carriesSecret, storablePage } from './platform/page-cache-policy';

/** The parts of ServiceWorkerGlobalScope used here (the shell compiles with the DOM lib, not WebWorker). */
interface ServiceWorkerScope {
  __WB_MANIFEST: (PrecacheEntry | string)[];
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: { data?: unknown }) => void): void;
}
declare const self: ServiceWorkerScope;

/** Cache of shell pages (HTML) for offline opening. */
const PAGES_CACHE = 'shell-pages';
/** Cache of the remotes manifest and federation manifests/entries (network-first). */
const REMOTE_MANIFESTS_CACHE = 'remote-manifests';
/** Cache of immutable, versioned remote bundles. */
const REMOTE_ASSETS_CACHE = 'remote-assets';

/** Paths that are never shell pages: the API, OIDC, ops and the remotes store. */
const NOT_A_PAGE = [
  /^\/api\//,
  /^\/connect\//,
  /^\/\.well-known\//,
  /^\/interaction\//,
  /^\/remotes\//,
  /^\/metrics/,
  /^\/healthz/,
  /^\/readyz/,
];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install controls the open page at once, so it works offline without a reload; updates still wait.
clientsClaim();

registerRoute(
  ({ url, sameOrigin }) =>
    sameOrigin &&
    (url.pathname === '/remotes/manifest.json' ||
      url.pathname.endsWith('/mf-manifest.json') ||
      url.pathname.endsWith('/remoteEntry.js')),
  new NetworkFirst({ cacheName: REMOTE_MANIFESTS_CACHE, networkTimeoutSeconds: 5 }),
);

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && /^\/remotes\/[^/]+\/[^/]+\/.+/.test(url.pathname),
  new CacheFirst({
    cacheName: REMOTE_ASSETS_CACHE,
    plugins: [
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

/**
 * Lets a page's answer into {@link PAGES_CACHE} only when it is a plain 200 that does not say `no-store`, for an
 * address without a secret. It replaces Workbox's default check (200 or opaque) and runs before the expiration
 * plugin, which then never records such an address either.
 */
const storablePagesOnly: WorkboxPlugin = {
  cacheWillUpdate: ({ request, response }) =>
    Promise.resolve(storablePage(new URL(request.url), response) ? response : null),
};

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: 5,
  plugins: [storablePagesOnly, new ExpirationPlugin({ maxEntries: 30, purgeOnQuotaError: true })],
});

/** The offline fallback: every shell path answers the same index.html, kept under "/". */
async function offlineShell(): Promise<Response> {
  return (await caches.match('/', { cacheName: PAGES_CACHE })) ?? Response.error();
}

// Every shell path answers the same index.html, so "/" warmed at install is the offline fallback for all.
warmStrategyCache({ urls: ['/'], strategy: pages });

registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        // A secret's address goes to the network only: not stored, and never answered from a stored copy.
        if (carriesSecret(options.url)) return await fetch(options.request);
        return await pages.handle(options);
      } catch {
        return offlineShell();
      }
    },
    { denylist: NOT_A_PAGE },
  ),
);

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | undefined;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});
