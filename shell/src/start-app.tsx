import { startTransition, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from 'shared-contracts';
import {
  configureApiClient,
  createAppStore,
  ensureAntiforgeryToken,
  FALLBACK_PARTNER,
  partnerApi,
  registerNavigator,
} from 'shared-contracts/api';
import { installGlobalErrorReporting } from './errors/error-reporting';
import { initI18n } from './i18n/i18n';
import { partnerLocale } from './platform/language';
import { rememberedPartner } from './platform/remembered-partner';
import { routerReady, takeOverFirstPaint } from './platform/first-paint';
import { splitNextTakeoverRender } from './platform/page-after-frame';
import { yieldToMain } from './platform/yield-to-main';
import { PlatformRoot } from './platform/platform-root';
import { connectI18n, registerManifestRemotes } from './remotes/remote-loader';
import { buildRoutes } from './router/routes';

/**
 * Start-up (SPEC.md §4): error reporting first, then the anti-forgery token if absent, the partner metadata
 * (tolerating its absence: SPEC.md §3 defaults), i18n in the chosen locale, the remotes of the manifest, then the
 * router inside the platform (branding, theme, offline worker).
 */
export async function startApp(): Promise<void> {
  installGlobalErrorReporting();
  const store = createAppStore();
  await ensureAntiforgeryToken();
  // The one cache entry (shared-contracts/api) PlatformRoot and the remotes read, so the partner is fetched once.
  const partnerResult = await store.dispatch(partnerApi.endpoints.partnerMetadata.initiate());
  const partner = partnerResult.data ?? rememberedPartner() ?? FALLBACK_PARTNER;
  const i18n = await initI18n(partnerLocale(partner));
  configureApiClient({
    supportedLocales: SUPPORTED_LOCALES,
    defaultLocale: DEFAULT_LOCALE,
    currentLocale: () => i18n.language,
  });
  connectI18n(i18n);
  // A manifest failure is not fatal: the shell's pages work and remote routes show the unavailable page.
  await registerManifestRemotes().catch((error: unknown) =>
    console.error('[shell] remotes manifest:', error),
  );

  // Creating the router runs its first loaders (user, remote entry) at once: a task of its own.
  await yieldToMain();
  const router = createBrowserRouter(buildRoutes(store));
  registerNavigator((path, options) => router.navigate(path, options));

  const app = (
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <PlatformRoot>
            <RouterProvider router={router} />
          </PlatformRoot>
        </I18nextProvider>
      </Provider>
    </StrictMode>
  );
  const root = document.getElementById('root')!;
  // A first paint (the page already drawn by the gateway) stays until the app can show the same page at once:
  // the router's first loaders (user, remote page) have run, then the app's first commit is swapped in.
  const drawn = root.hasAttribute('data-first-paint');
  if (drawn) {
    await routerReady(router);
    // The app's first render as two tasks, the frame and then the page (page-after-frame.tsx).
    splitNextTakeoverRender();
  }
  await yieldToMain();
  await takeOverFirstPaint(root, (container) => {
    const reactRoot = createRoot(container);
    // Behind a drawn page the render is a transition (React may yield to input while it renders) and the takeover
    // swaps the rendered app in at the next task, so render and swap are two tasks; without one, render at once.
    if (drawn) startTransition(() => reactRoot.render(app));
    else flushSync(() => reactRoot.render(app));
  });
}
