import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import de from '../../locales/de.json';
import { LocalLoginPage, LoginPage } from './login-page';

const PROVIDERS = [
  { vendorId: 'azure-ad', displayName: 'Microsoft' },
  { vendorId: 'okta & co', displayName: 'Okta' },
];

/** The gateway as the page sees it: the partner's flag and a LoginView listing two providers. */
let partnerAllows = true;
const calls: string[] = [];
const bodies: unknown[] = [];
function gateway(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  calls.push(url);
  if (url.startsWith('/api/Account/Antiforgery')) {
    document.cookie = 'idp.x-csrf-token-value=t';
    return Promise.resolve(Response.json({ token: 't' }));
  }
  if (url.startsWith('/api/Account/VendorLogin')) {
    bodies.push(typeof init.body === 'string' ? JSON.parse(init.body) : undefined);
    return Promise.resolve(
      Response.json({ title: 'x', errors: { '': ['serviceUnavailable'] } }, { status: 400 }),
    );
  }
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
  bodies.length = 0;
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
  it('shows a translated button per provider that starts its sign-in with VendorLogin', async () => {
    await renderPage(LoginPage);
    const microsoft = await screen.findByRole('button', { name: 'Sign in with Microsoft' });
    expect(screen.getByRole('button', { name: 'Sign in with Okta' })).toBeTruthy();
    expect(calls.filter((url) => url.includes('GetPartnerMetaData'))).toHaveLength(1);
    fireEvent.click(microsoft);
    await waitFor(() => expect(bodies).toEqual([{ vendorId: 'azure-ad', returnUrl: '/account/select' }]));
    // A provider that cannot be reached says so; the page stays.
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('translates the label', async () => {
    await renderPage(LoginPage, undefined, 'de');
    expect(await screen.findByRole('button', { name: 'Mit Microsoft anmelden' })).toBeTruthy();
  });

  it('hides them when the partner does not allow them, even though LoginView lists some', async () => {
    partnerAllows = false;
    await renderPage(LoginPage);
    await screen.findByLabelText('Password');
    await waitFor(() => expect(calls.some((url) => url.includes('GetPartnerMetaData'))).toBe(true));
    // Let the partner answer land before checking the absence.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('login-providers')).toBeNull();
    expect(screen.queryByRole('button', { name: /Sign in with/ })).toBeNull();
  });

  it('never shows them on the local-only route', async () => {
    await renderPage(LocalLoginPage, '/account/login/local');
    await screen.findByLabelText('Password');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: /Sign in with/ })).toBeNull();
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

  it('S21 sent to the sign-in page by SilentLogin (the password first, ADR 0020), shows the password form', async () => {
    let ended = false;
    let silentCalls = 0;
    const fetch = (input: RequestInfo | URL): Promise<Response> => {
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      if (url.startsWith('/api/Account/SilentLogin')) {
        silentCalls += 1;
        // The server ended the remembered sign-in and answers the sign-in page for the same application.
        ended = true;
        return Promise.resolve(
          Response.json(
            { redirect: '/account/login?returnUrl=%2Finteraction%2Fabc', state: 's' },
            { status: 209 },
          ),
        );
      }
      if (url.startsWith('/api/Account/Exchange')) return Promise.resolve(Response.json({ token: 't' }));
      if (url.startsWith('/api/Account/User'))
        return Promise.resolve(
          Response.json(
            ended
              ? { isAuthenticated: false }
              : { isAuthenticated: true, userName: 'emma', displayName: 'Emma Employee', roles: [] },
          ),
        );
      return gateway(input);
    };
    await render('/account/login?returnUrl=%2Finteraction%2Fabc', fetch);
    // The form shows at once (before User answers); what counts is the page after SilentLogin's answer.
    await waitFor(() => expect(ended).toBe(true));
    await waitFor(() => expect(screen.queryByText('Signing in…')).toBeNull());
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in as a different user' })).toBeNull();
    // Asked once: the 209 back to this page does not ask again.
    expect(silentCalls).toBe(1);
  });

  it('does not ask for other targets', async () => {
    const { asked, fetch } = signedInGateway(false);
    await render('/account/login?returnUrl=%2Faccount%2F', fetch);
    expect(await screen.findByRole('button', { name: 'Sign in as a different user' })).toBeTruthy();
    expect(asked.some((url) => url.includes('SilentLogin'))).toBe(false);
  });
});

describe('LoginPage names the application (issue 49)', () => {
  /** LoginView naming `clientName` (or nothing) for the page's returnUrl. */
  function namingGateway(clientName: string | undefined) {
    return (input: RequestInfo | URL): Promise<Response> => {
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      if (url.startsWith('/api/Account/LoginView'))
        return Promise.resolve(
          Response.json({
            allowLocal: true,
            showLoginProviders: false,
            providers: [],
            returnUrl: '/interaction/abc',
            ...(clientName ? { clientName } : {}),
          }),
        );
      return gateway(input);
    };
  }

  it.each([
    [
      LoginPage,
      '/account/login?returnUrl=%2Finteraction%2Fabc',
      'en-GB',
      'to continue to Payroll <b>portal</b>',
    ],
    [
      LocalLoginPage,
      '/account/login/local?returnUrl=%2Finteraction%2Fabc',
      'de',
      'weiter zu Payroll <b>portal</b>',
    ],
  ])(
    'says under the heading which application the sign-in continues to, as text (%#)',
    async (Page, path, lng, text) => {
      await renderWithProviders(<Page />, {
        path,
        lng,
        fetch: namingGateway('Payroll <b>portal</b>'),
        resources: { 'en-GB': { 'mfe-login': enGB }, de: { 'mfe-login': de } },
      });
      const line = await screen.findByTestId('login-client');
      // Text, never markup: the name's angle brackets show as typed.
      expect(line.textContent).toBe(text);
      expect(line.querySelector('b')).toBeNull();
      // Right under the page's heading, before the form's card.
      expect(line.previousElementSibling?.tagName).toBe('H1');
    },
  );

  it('names nothing when LoginView names no application', async () => {
    await renderWithProviders(<LoginPage />, {
      path: '/account/login?returnUrl=%2Faccount%2F',
      fetch: namingGateway(undefined),
      resources: { 'en-GB': { 'mfe-login': enGB } },
    });
    await screen.findByLabelText('Password');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('login-client')).toBeNull();
  });
});
