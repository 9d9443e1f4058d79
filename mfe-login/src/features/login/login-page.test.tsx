import { cleanup, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { ERROR_MESSAGES } from 'shared-contracts';
import { configureApiClient, createAppStore } from 'shared-contracts/api';
import enGB from '../../locales/en-GB.json';
import de from '../../locales/de.json';
import { LocalLoginPage, LoginPage, vendorSignInPath } from './login-page';

const PROVIDERS = [
  { vendorId: 'azure-ad', displayName: 'Microsoft' },
  { vendorId: 'okta & co', displayName: 'Okta' },
];

/** The gateway as the page sees it: the partner's flag and a LoginView listing two providers. */
let partnerAllows = true;
const calls: string[] = [];
function gateway(input: RequestInfo | URL): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  calls.push(url);
  if (url.startsWith('/api/Account/GetPartnerMetaData')) {
    return Promise.resolve(
      Response.json({ partnerId: 'demo', partnerName: 'Acme', showLoginProviders: partnerAllows }),
    );
  }
  if (url.startsWith('/api/Account/LoginView')) {
    return Promise.resolve(
      Response.json({
        allowLocal: true,
        showLoginProviders: true,
        providers: PROVIDERS,
        returnUrl: '/account/select',
      }),
    );
  }
  return Promise.resolve(Response.json({ isAuthenticated: false }));
}

beforeAll(async () => {
  configureApiClient({ fetch: gateway });
  await i18next.use(initReactI18next).init({
    lng: 'en-GB',
    resources: { 'en-GB': { 'mfe-login': enGB, errors: ERROR_MESSAGES }, de: { 'mfe-login': de } },
    interpolation: { escapeValue: false },
  });
});

afterEach(async () => {
  cleanup();
  calls.length = 0;
  partnerAllows = true;
  await i18next.changeLanguage('en-GB');
});

function renderPage(Page: typeof LoginPage, path = '/account/login?returnUrl=%2Faccount%2Fselect') {
  render(
    <Provider store={createAppStore()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter initialEntries={[path]}>
          <Page />
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

describe('LoginPage external providers', () => {
  it('shows a translated link per provider to the vendor sign-in when the partner allows them', async () => {
    renderPage(LoginPage);
    const microsoft = await screen.findByRole('link', { name: 'Sign in with Microsoft' });
    expect(microsoft.getAttribute('href')).toBe(
      '/account/login/vendor?vendorId=azure-ad&returnUrl=%2Faccount%2Fselect',
    );
    const okta = screen.getByRole('link', { name: 'Sign in with Okta' });
    expect(okta.getAttribute('href')).toBe(
      '/account/login/vendor?vendorId=okta+%26+co&returnUrl=%2Faccount%2Fselect',
    );
    expect(calls.filter((url) => url.includes('GetPartnerMetaData'))).toHaveLength(1);
  });

  it('translates the label', async () => {
    await i18next.changeLanguage('de');
    renderPage(LoginPage);
    expect(await screen.findByRole('link', { name: 'Mit Microsoft anmelden' })).toBeTruthy();
  });

  it('hides them when the partner does not allow them, even though LoginView lists some', async () => {
    partnerAllows = false;
    renderPage(LoginPage);
    await screen.findByLabelText('Password');
    await waitFor(() => expect(calls.some((url) => url.includes('GetPartnerMetaData'))).toBe(true));
    // Let the partner answer land before checking the absence.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('login-providers')).toBeNull();
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });

  it('never shows them on the local-only route', async () => {
    renderPage(LocalLoginPage, '/account/login/local');
    await screen.findByLabelText('Password');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });
});

describe('vendorSignInPath', () => {
  it('encodes the vendor id and keeps the returnUrl', () => {
    expect(vendorSignInPath('a/b', '/connect/authorize?x=1')).toBe(
      '/account/login/vendor?vendorId=a%2Fb&returnUrl=%2Fconnect%2Fauthorize%3Fx%3D1',
    );
    expect(vendorSignInPath('x', '')).toBe('/account/login/vendor?vendorId=x');
  });
});
