import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptchaProvider } from 'shared-contracts';
import { completeCaptcha, createAppStore, selectCaptcha } from 'shared-contracts/api';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { SignInForm } from './sign-in-form';

/** The gateway: Login answers `captchaRequired` until a challenge was solved (SPEC.md §4 "Captcha"). */
const logins: unknown[] = [];
let solved = false;
function gateway(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  if (url.startsWith('/api/Account/Antiforgery')) {
    document.cookie = 'idp.x-csrf-token-value=t';
    return Promise.resolve(Response.json({ token: 't' }));
  }
  if (url.startsWith('/api/Account/Login')) {
    logins.push(typeof init.body === 'string' ? JSON.parse(init.body) : undefined);
    const code = solved ? 'invalidCredentials' : 'captchaRequired';
    return Promise.resolve(Response.json({ errors: { '': [code] } }, { status: 400 }));
  }
  return Promise.resolve(Response.json({ isAuthenticated: false }));
}

afterEach(() => {
  cleanup();
  logins.length = 0;
  solved = false;
  sessionStorage.clear();
});

async function renderForm(props: { captcha?: CaptchaProvider; captchaRequired?: boolean } = {}) {
  const store = createAppStore();
  await renderWithProviders(<SignInForm returnUrl="/account/select" {...props} />, {
    store,
    fetch: gateway,
    resources: { 'en-GB': { 'mfe-login': enGB } },
  });
  return store;
}

function submit(username = 'employee', password = 'secret') {
  fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('SignInForm and the captcha', () => {
  it.each([
    [undefined, false],
    [{ version: 1 } as const, false],
    [{ version: 2, siteKey: 'k' } as const, true],
    [{ version: 3, siteKey: 'k' } as const, true],
  ])('provider %j: the reCAPTCHA notice shows: %s', async (captcha, shown) => {
    await renderForm(captcha ? { captcha } : {});
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByRole('link', { name: /Privacy Policy/ }) !== null).toBe(shown);
    if (shown)
      expect(screen.getByRole('link', { name: /Terms of Service/ }).getAttribute('href')).toBe(
        'https://policies.google.com/terms',
      );
  });

  it('Login answered captchaRequired: the shell is asked for a challenge; solved, Login goes again', async () => {
    const store = await renderForm();
    submit();
    await waitFor(() =>
      expect(selectCaptcha(store.getState())).toMatchObject({ show: true, target: 'login' }),
    );
    expect(logins).toHaveLength(1);
    solved = true;
    completeCaptcha(store.dispatch, selectCaptcha(store.getState()).callbackId);
    await waitFor(() => expect(logins).toHaveLength(2));
    expect(logins[1]).toMatchObject({ username: 'employee', password: 'secret' });
    await screen.findByText('The username or password is incorrect.');
    // The wrong password after the challenge: the username is a chip and the password field is empty again.
    expect(screen.getByRole('button', { name: 'Not you?' })).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe(''));
  });

  it('LoginView said captchaRequired: the challenge comes first and Login is not sent before it is solved', async () => {
    const store = await renderForm({ captchaRequired: true, captcha: { version: 1 } });
    submit();
    await waitFor(() => expect(selectCaptcha(store.getState()).show).toBe(true));
    expect(logins).toHaveLength(0);
    solved = true;
    completeCaptcha(store.dispatch, selectCaptcha(store.getState()).callbackId);
    await waitFor(() => expect(logins).toHaveLength(1));
  });
});
