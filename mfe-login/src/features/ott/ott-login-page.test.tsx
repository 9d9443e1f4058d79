import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import frCA from '../../locales/fr-CA.json';
import { OttLoginPage } from './ott-login-page';

/** The gateway as the page sees it: SendOTP accepts, LoginWithOTT answers what the test says. */
const posts: { url: string; body: unknown }[] = [];
let loginAnswer: () => Response = () => Response.json({ errors: { code: ['invalidCode'] } }, { status: 400 });

function gateway(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  if (init?.method === 'POST' && typeof init.body === 'string')
    posts.push({ url, body: JSON.parse(init.body) as unknown });
  if (url.startsWith('/api/Account/Antiforgery')) return Promise.resolve(Response.json({ token: 't' }));
  if (url.startsWith('/api/Account/SendOTP'))
    return Promise.resolve(Response.json({ accepted: true, codeLength: 6, expiresInMinutes: 10 }));
  if (url.startsWith('/api/Account/LoginWithOTT')) return Promise.resolve(loginAnswer());
  return Promise.resolve(Response.json({ isAuthenticated: false }));
}

afterEach(() => {
  cleanup();
  posts.length = 0;
  loginAnswer = () => Response.json({ errors: { code: ['invalidCode'] } }, { status: 400 });
});

const render = (path: string) =>
  renderWithProviders(<OttLoginPage />, {
    path,
    fetch: gateway,
    resources: { 'en-GB': { 'mfe-login': enGB } },
  });

const callsTo = (name: string) => posts.filter((p) => p.url.startsWith(`/api/Account/${name}`));

describe('OttLoginPage', () => {
  it('is headed with the words of the link that leads to it: "one-time sign-in code", in every locale', async () => {
    await render('/account/login/ott');
    expect(await screen.findByRole('heading', { level: 1, name: 'One-time sign-in code' })).toBeTruthy();
    expect(enGB.login.oneTimeCode).toBe('Email me a one-time sign-in code');
    for (const locale of [enGB, en, de, frCA, es])
      expect(locale.login.oneTimeCode.toLowerCase()).toContain(locale.routes.loginOtt.toLowerCase());
  });

  it('asks for the username, says the same neutral notice, then signs in with the typed code', async () => {
    await render('/account/login/ott?returnUrl=%2Faccount%2F');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Username or email' }), {
      target: { value: ' ann ' },
    });
    // A real click focuses the button first.
    const send = screen.getByRole('button', { name: 'Send code' });
    send.focus();
    fireEvent.click(send);
    expect(await screen.findByText(/If an account matches, we have sent it an email/)).toBeTruthy();
    expect(callsTo('SendOTP')[0]!.body).toEqual({ username: 'ann', returnUrl: '/account/' });

    const code = screen.getByRole('textbox', { name: 'One-time sign-in code' });
    // The code field takes the focus (not the button pressed on the form before it).
    expect(document.activeElement).toBe(code);
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // A wrong code: the field says so and has the focus.
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('The code is not valid or has expired. Check it and try again.')).toBeTruthy();
    expect(callsTo('LoginWithOTT')[0]!.body).toEqual({ code: '123 456', returnUrl: '/account/' });
  });

  it('posts a link’s token once, without a returnUrl of its own, and shows why a refused link failed', async () => {
    loginAnswer = () => Response.json({ errors: { '': ['oneTimeLinkOtherBrowser'] } }, { status: 400 });
    await render('/account/login/ott?token=abc_DEF-123');
    expect(
      await screen.findByText(
        'This sign-in link works only in the browser where the code was asked for. Open it there, or type the code there.',
      ),
    ).toBeTruthy();
    expect(callsTo('LoginWithOTT').map((c) => c.body)).toEqual([{ token: 'abc_DEF-123' }]);
    // The form to ask for a new code is there.
    expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
  });
});
