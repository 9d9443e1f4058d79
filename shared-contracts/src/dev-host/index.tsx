// The standalone dev host of a remote (`npm run dev -w <remote>`): the remote's pages with the shared store, API
// client and i18n, but without the shell, so the flow team can work alone against a running gateway (its dev
// server proxies the gateway's paths). Not part of any production bundle.
import i18next from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router';
import { DEFAULT_LOCALE } from '../constants.js';
import { ERROR_TRANSLATIONS } from '../locales/index.js';
import type { RemoteModule } from '../remote.js';
import { createAppStore, registerNavigator } from '../api/index.js';
import '../ui/tokens.css';

/** Renders a remote's routes in a minimal page with a link list, the shared store and en-GB i18n. */
export async function startDevHost(remote: RemoteModule): Promise<void> {
  const translations = await remote.loadTranslations(DEFAULT_LOCALE);
  await i18next.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    ns: ['common', 'errors', remote.id],
    defaultNS: remote.id,
    resources: {
      [DEFAULT_LOCALE]: { errors: ERROR_TRANSLATIONS[DEFAULT_LOCALE], [remote.id]: translations },
    },
    interpolation: { escapeValue: false },
  });
  const store = createAppStore();
  const router = createBrowserRouter([
    {
      path: '/',
      element: (
        <main>
          <nav aria-label="Dev host">
            <ul>
              {remote.routes.map((route) => (
                <li key={route.path}>
                  <Link to={route.path}>{route.path}</Link>
                </li>
              ))}
            </ul>
          </nav>
          <Outlet />
        </main>
      ),
      HydrateFallback: () => <p>Loading…</p>,
      children: remote.routes.map((route) => ({ path: route.path, lazy: route.lazy })),
    },
  ]);
  registerNavigator((path, options) => router.navigate(path, options));
  createRoot(document.body.appendChild(document.createElement('div'))).render(
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18next}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </Provider>
    </StrictMode>,
  );
}
