import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import fr from '../../locales/fr-CA.json';
import { LinkPage } from './link-page';
import { UpstreamLogoutPage } from './upstream-logout-page';
import { VendorLoginPage } from './vendor-login-page';

/** Requests the pages sent: URL, method and JSON body. */
const sent: { url: string; method: string; body: unknown }[] = [];
let answers: Record<string, () => Response> = {};

function gateway(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  const method = init?.method ?? 'GET';
  sent.push({ url, method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
  const key = Object.keys(answers).find((prefix) => url.startsWith(prefix));
  if (key) return Promise.resolve(answers[key]!());
  if (url.includes('Antiforgery')) return Promise.resolve(Response.json({ token: 't' }));
  return Promise.resolve(Response.json({ isAuthenticated: false }));
}

afterEach(() => {
  cleanup();
  sent.length = 0;
  answers = {};
});

function render(Page: () => React.JSX.Element, path: string, lng = 'en-GB') {
  return renderWithProviders(<Page />, {
    path,
    lng,
    fetch: gateway,
    resources: { 'en-GB': { 'mfe-login': enGB }, 'fr-CA': { 'mfe-login': fr } },
  });
}

const problem = (errors: Record<string, string[]>) => () =>
  Response.json({ title: 'One or more validation errors occurred.', errors }, { status: 400 });

describe('VendorLoginPage', () => {
  it("shows the provider's name and starts its sign-in with VendorLogin", async () => {
    answers['/api/Account/VendorLoginView'] = () => Response.json({ vendorId: 'contoso', name: 'Contoso' });
    answers['/api/Account/VendorLogin'] = () => Response.json(true);
    await render(VendorLoginPage, '/account/login/vendor?vendorId=contoso&returnUrl=%2Finteraction%2Fabc');
    expect(
      await screen.findByText(
        'Sign in with your Contoso account. You will be taken to Contoso and brought back here.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Contoso' }));
    await waitFor(() =>
      expect(
        sent.find(
          (r) => r.url.startsWith('/api/Account/VendorLogin?') || r.url === '/api/Account/VendorLogin',
        )?.body,
      ).toEqual({
        vendorId: 'contoso',
        returnUrl: '/interaction/abc',
      }),
    );
  });

  it("says so when the provider is unknown, in the visitor's language", async () => {
    answers['/api/Account/VendorLoginView'] = () => Response.json({ title: 'Not Found' }, { status: 404 });
    await render(VendorLoginPage, '/account/login/vendor?vendorId=nobody', 'fr-CA');
    expect(await screen.findByText(fr.vendor.unknown)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('LinkPage', () => {
  it('shows who the upstream says it is and links with the local username and password', async () => {
    answers['/api/Account/ExternalUser'] = () =>
      Response.json({ name: 'Lee Linker', email: 'lee@social.example', provider: 'Social ID' });
    answers['/api/Account/Link'] = problem({ '': ['invalidCredentials'] });
    await render(LinkPage, '/account/link?returnUrl=%2F');
    expect(await screen.findByText('Social ID says you are Lee Linker (lee@social.example).')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'lee.local' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret pw ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() =>
      expect(sent.find((r) => r.url.startsWith('/api/Account/Link'))?.body).toEqual({
        username: 'lee.local',
        password: 'secret pw ',
      }),
    );
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('Go back sends Next with the back button', async () => {
    answers['/api/Account/ExternalUser'] = () => Response.json({ provider: 'Social ID' });
    answers['/api/Account/Next'] = () => Response.json(true);
    await render(LinkPage, '/account/link');
    expect(await screen.findByText('You signed in with Social ID.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() =>
      expect(sent.some((r) => r.url.startsWith('/api/Account/Next?button=back'))).toBe(true),
    );
  });

  it('without an identity to link, offers the way back to the sign-in page', async () => {
    answers['/api/Account/ExternalUser'] = () => Response.json({ title: 'Not Found' }, { status: 404 });
    await render(LinkPage, '/account/link?returnUrl=%2Fx');
    expect(await screen.findByText(enGB.link.nothingToLink)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe(
      '/account/login?returnUrl=%2Fx',
    );
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});

describe('UpstreamLogoutPage', () => {
  it('asks about the upstream (reading LogoutView by GET) and answers with UpstreamLogout', async () => {
    answers['/api/Account/LogoutView'] = () =>
      Response.json({ showLogoutPrompt: false, upstream: 'Contoso' });
    answers['/api/Account/UpstreamLogout'] = () => Response.json(true);
    await render(UpstreamLogoutPage, '/account/logout/upstream?logoutId=abc');
    expect(
      await screen.findByText('You signed in through Contoso. Do you also want to sign out of Contoso?'),
    ).toBeTruthy();
    const view = sent.find((r) => r.url.startsWith('/api/Account/LogoutView'));
    expect(view?.method).toBe('GET');
    expect(view?.url).toContain('logoutId=abc');
    fireEvent.click(screen.getByRole('button', { name: 'Yes, sign out of Contoso too' }));
    await waitFor(() =>
      expect(
        sent.some((r) => r.url.startsWith('/api/Account/UpstreamLogout?button=yes') && r.method === 'POST'),
      ).toBe(true),
    );
  });
});
