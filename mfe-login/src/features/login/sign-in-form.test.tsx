import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore, setTimedOut, setUsername, type AppStore } from 'shared-contracts/api';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { SignInForm } from './sign-in-form';

/** Answers the calls the form makes: the anti-forgery token, User (anonymous) and Login (a 400 errors map). */
const calls: { url: string; body?: unknown }[] = [];
/** The errors map Login answers with (a missing password and the form's refusal, unless a test says otherwise). */
let loginErrors: Record<string, string[]> = { Password: ['required'], '': ['invalidCredentials'] };
/** Login's answer instead of the errors map, when a test sets one. */
let loginReply: (() => Response) | undefined;
function gateway(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  calls.push({ url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
  if (url.startsWith('/api/Account/Antiforgery')) {
    document.cookie = 'idp.x-csrf-token-value=t';
    return Promise.resolve(Response.json({ token: 't' }));
  }
  if (url.startsWith('/api/Account/Login')) {
    if (loginReply) return Promise.resolve(loginReply());
    return Promise.resolve(
      Response.json(
        {
          title: 'One or more validation errors occurred.',
          errors: loginErrors,
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
  loginErrors = { Password: ['required'], '': ['invalidCredentials'] };
  loginReply = undefined;
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

  it('fills a remembered username into the editable field, with no "continue as" line', async () => {
    await renderForm((store) => store.dispatch(setUsername('employee')));
    const username = screen.getByRole<HTMLInputElement>('textbox', { name: 'Username or email' });
    expect(username.value).toBe('employee');
    expect(username.readOnly).toBe(false);
    expect(screen.queryByText(/Continue as/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in as a different user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Not you?' })).toBeNull();
  });

  it('a wrong password: the username becomes a chip, the password is emptied and focused; "Not you?" undoes it', async () => {
    loginErrors = { '': ['invalidCredentials'] };
    await renderForm();
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: ' employee ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'not-the-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    const notYou = await screen.findByRole('button', { name: 'Not you?' });
    // The error is shown (a fresh alert, read out) and the emptied password field has the focus.
    expect(screen.getByRole('alert').textContent).toBe('The username or password is incorrect.');
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    await waitFor(() => expect(password.value).toBe(''));
    await waitFor(() => expect(document.activeElement).toBe(password));
    // The username is no longer a field to type in: it is a chip (a group named like the field) with its button.
    expect(screen.queryByRole('textbox', { name: 'Username or email' })).toBeNull();
    const chip = screen.getByRole('group', { name: 'Username or email' });
    expect(chip.textContent).toContain('employee');
    expect(notYou.getAttribute('aria-describedby')).toBe(screen.getByTestId('username-chip').id);
    expect(screen.queryByText(/Continue as/)).toBeNull();

    // The next attempt sends the chip's username with the new password.
    fireEvent.change(password, { target: { value: 'second-try' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/Account/Login')).toHaveLength(2));
    expect(calls.filter((c) => c.url === '/api/Account/Login')[1]?.body).toMatchObject({
      username: ' employee ',
      password: 'second-try',
    });
    await waitFor(() => expect(password.value).toBe(''));

    // "Not you?": the chip goes; the username field is back, empty and focused; the old error is gone.
    fireEvent.click(screen.getByRole('button', { name: 'Not you?' }));
    const username = screen.getByRole<HTMLInputElement>('textbox', { name: 'Username or email' });
    expect(username.value).toBe('');
    expect(document.activeElement).toBe(username);
    expect(screen.queryByRole('group', { name: 'Username or email' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sessionStorage.getItem('hr-identity.username')).toBeNull();
  });

  it('a refusal that is not a wrong password (a missing username) keeps the editable field, no chip', async () => {
    loginErrors = { Username: ['required'] };
    await renderForm();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('This field is required.');
    const username = screen.getByRole('textbox', { name: 'Username or email' });
    await waitFor(() => expect(document.activeElement).toBe(username));
    expect(screen.queryByRole('button', { name: 'Not you?' })).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('secret');
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

  it.each([
    ['an empty 500', () => new Response('', { status: 500, statusText: 'Internal Server Error' })],
    ['a 500 without an errors map', () => Response.json({ title: 'Internal Server Error' }, { status: 500 })],
  ])('SPEC.md §7: Login ignores %s (no raw status text)', async (_name, reply) => {
    loginReply = reply;
    await renderForm();
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'employee' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }).closest('form')!);
    await waitFor(() => expect(calls.some((c) => c.url === '/api/Account/Login')).toBe(true));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Internal Server Error|went wrong/i)).toBeNull();
  });

  it('SPEC.md §7: Login\'s own empty 400 shows the timed-out message only, no "Bad Request" under it', async () => {
    loginReply = () => new Response('', { status: 400, statusText: 'Bad Request' });
    // Nothing else in this tab had a sign-in: the form says so from Login's own answer.
    await renderForm();
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'employee' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }).closest('form')!);
    expect(await screen.findByText('Your session had timed out. Please try again.')).toBeTruthy();
    expect(screen.queryByText('Bad Request')).toBeNull();
    // The warning is the only message on the form.
    expect(screen.queryAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Your session had timed out. Please try again.',
    ]);
  });
});
