import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore, setTimedOut, setUsername, type AppStore } from 'shared-contracts/api';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { SignInForm } from './sign-in-form';

/** Answers the calls the form makes: the anti-forgery token, User (anonymous) and Login (a 400 errors map). */
const calls: { url: string; body?: unknown }[] = [];
function gateway(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  calls.push({ url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
  if (url.startsWith('/api/Account/Antiforgery')) {
    document.cookie = 'idp.x-csrf-token-value=t';
    return Promise.resolve(Response.json({ token: 't' }));
  }
  if (url.startsWith('/api/Account/Login')) {
    return Promise.resolve(
      Response.json(
        {
          title: 'One or more validation errors occurred.',
          errors: { Password: ['required'], '': ['invalidCredentials'] },
        },
        { status: 400 },
      ),
    );
  }
  return Promise.resolve(Response.json({ isAuthenticated: false }));
}

afterEach(() => {
  cleanup();
  calls.length = 0;
  sessionStorage.clear();
});

async function renderForm(prepare: (store: AppStore) => void = () => undefined) {
  const store = createAppStore();
  prepare(store);
  await renderWithProviders(<SignInForm returnUrl="/account/select" />, {
    store,
    fetch: gateway,
    resources: { 'en-GB': { 'mfe-login': enGB } },
  });
}

describe('SignInForm', () => {
  it('shows the caps-lock warning from key events and ties it to the password field', async () => {
    await renderForm();
    const password = screen.getByLabelText('Password');
    // The live region is there, empty, before the warning, so a screen reader announces the warning appearing.
    const live = password.closest('.hr-field')!.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('');
    expect(password.hasAttribute('aria-describedby')).toBe(false);
    // jsdom's KeyboardEvent ignores modifierCapsLock; the hook reads getModifierState, so the event carries one.
    const event = new KeyboardEvent('keydown', { key: 'A', bubbles: true });
    Object.defineProperty(event, 'getModifierState', { value: (k: string) => k === 'CapsLock' });
    fireEvent(password, event);
    expect(live.textContent).toBe('Caps Lock is on');
    expect(live.className).toBe('hr-field__warning');
    expect(password.getAttribute('aria-describedby')).toBe(live.id);
  });

  it('says the session timed out when not authenticated', async () => {
    await renderForm((store) => store.dispatch(setTimedOut(true)));
    expect(await screen.findByText('Your session had timed out. Please try again.')).toBeTruthy();
  });

  it('offers "sign in as different user" for a remembered username and forgets it', async () => {
    await renderForm((store) => store.dispatch(setUsername('employee')));
    expect(screen.getByLabelText<HTMLInputElement>('Username or email').value).toBe('employee');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in as a different user' }));
    expect(screen.getByLabelText<HTMLInputElement>('Username or email').value).toBe('');
    expect(screen.queryByText('Continue as employee.')).toBeNull();
  });

  it('sends Login with the returnUrl and shows field and form errors of the 400 map', async () => {
    await renderForm();
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'employee' } });
    fireEvent.click(screen.getByLabelText('Remember me'));
    fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }).closest('form')!);
    expect(await screen.findByText('The username or password is incorrect.')).toBeTruthy();
    expect(screen.getByText('This field is required.')).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true'));
    expect(calls.find((c) => c.url === '/api/Account/Login')?.body).toEqual({
      username: 'employee',
      password: '',
      rememberMe: true,
      returnUrl: '/account/select',
      // jsdom has no WebAuthn: no platform authenticator, so the sign-in will not offer to register one.
      platformAuthenticator: false,
    });
    // The username is kept for the session.
    expect(sessionStorage.getItem('hr-identity.username')).toBe('employee');
  });
});
