// The standalone dev host (`npm run dev`): this remote's pages with the shared store, API client and i18n, but
// without the shell, so the flow team can work alone against a running gateway (proxied at /api).
import i18next from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router';
import { DEFAULT_LOCALE, ERROR_MESSAGES } from 'shared-contracts';
import { createAppStore, registerNavigator } from 'shared-contracts/api';
import 'shared-contracts/ui/tokens.css';
import { remote } from '../remote';

async function start() {
  const translations = await remote.loadTranslations(DEFAULT_LOCALE);
  await i18next.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    ns: ['common', 'errors', remote.id],
    defaultNS: remote.id,
    // The shell's `errors` namespace is the en-GB text of the codes; enough for a dev host.
    resources: { [DEFAULT_LOCALE]: { errors: ERROR_MESSAGES, [remote.id]: translations } },
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

void start();
