import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
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

afterEach(() => {
  cleanup();
  calls.length = 0;
  partnerAllows = true;
});

function renderPage(
  Page: typeof LoginPage,
  path = '/account/login?returnUrl=%2Faccount%2Fselect',
  lng = 'en-GB',
) {
  return renderWithProviders(<Page />, {
    path,
    lng,
    fetch: gateway,
    resources: { 'en-GB': { 'mfe-login': enGB }, de: { 'mfe-login': de } },
  });
}

describe('LoginPage external providers', () => {
  it('shows a translated link per provider to the vendor sign-in when the partner allows them', async () => {
    await renderPage(LoginPage);
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
    await renderPage(LoginPage, undefined, 'de');
    expect(await screen.findByRole('link', { name: 'Mit Microsoft anmelden' })).toBeTruthy();
  });

  it('hides them when the partner does not allow them, even though LoginView lists some', async () => {
    partnerAllows = false;
    await renderPage(LoginPage);
    await screen.findByLabelText('Password');
    await waitFor(() => expect(calls.some((url) => url.includes('GetPartnerMetaData'))).toBe(true));
    // Let the partner answer land before checking the absence.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('login-providers')).toBeNull();
    expect(screen.queryByRole('link', { name: /Sign in with (?!a passkey)/ })).toBeNull();
  });

  it('never shows them on the local-only route', async () => {
    await renderPage(LocalLoginPage, '/account/login/local');
    await screen.findByLabelText('Password');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: /Sign in with (?!a passkey)/ })).toBeNull();
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

describe('LoginPage SilentLogin (ADR 0020)', () => {
  /** A signed-in visitor; SilentLogin answers `silent` (false, or a 200 the page treats as going on). */
  function signedInGateway(silent: unknown) {
    const asked: string[] = [];
    const fetch = (input: RequestInfo | URL): Promise<Response> => {
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      asked.push(url);
      if (url.startsWith('/api/Account/SilentLogin')) return Promise.resolve(Response.json(silent));
      if (url.startsWith('/api/Account/User'))
        return Promise.resolve(
          Response.json({ isAuthenticated: true, userName: 'emma', displayName: 'Emma Employee', roles: [] }),
        );
      return gateway(input);
    };
    return { asked, fetch };
  }

  async function render(path: string, fetch: (input: RequestInfo | URL) => Promise<Response>) {
    await renderWithProviders(<LoginPage />, {
      path,
      fetch,
      resources: { 'en-GB': { 'mfe-login': enGB } },
    });
  }

  it('asks once for an application sign-in and, declined, shows the choice', async () => {
    const { asked, fetch } = signedInGateway(false);
    await render('/account/login?returnUrl=%2Finteraction%2Fabc', fetch);
    expect(await screen.findByRole('button', { name: 'Sign in as a different user' })).toBeTruthy();
    expect(asked.filter((url) => url.includes('SilentLogin'))).toHaveLength(1);
  });

  it('says it is signing in while the answer is not false', async () => {
    const { fetch } = signedInGateway(true);
    await render('/account/login?returnUrl=%2Finteraction%2Fabc', fetch);
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Signing in…');
  });

  it('does not ask for other targets', async () => {
    const { asked, fetch } = signedInGateway(false);
    await render('/account/login?returnUrl=%2Faccount%2F', fetch);
    expect(await screen.findByRole('button', { name: 'Sign in as a different user' })).toBeTruthy();
    expect(asked.some((url) => url.includes('SilentLogin'))).toBe(false);
  });
});
