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
 * - A new version waits until the page asks (the update toast's Reload → SKIP_WAITING message).
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { warmStrategyCache } from 'workbox-recipes';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';

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

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: 5,
  plugins: [new ExpirationPlugin({ maxEntries: 30, purgeOnQuotaError: true })],
});
// Every shell path answers the same index.html, so "/" warmed at install is the offline fallback for all.
warmStrategyCache({ urls: ['/'], strategy: pages });

registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pages.handle(options);
      } catch {
        return (await caches.match('/', { cacheName: PAGES_CACHE })) ?? Response.error();
      }
    },
    { denylist: NOT_A_PAGE },
  ),
);

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | undefined;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});
