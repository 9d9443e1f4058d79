import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from 'shared-contracts/api';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { SignInForm } from './sign-in-form';

const OPTIONS = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'preferred' };
/** What the browser's `credential.toJSON()` gives for a picked passkey. */
const ASSERTION = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  clientExtensionResults: {},
  response: {
    authenticatorData: 'YXV0aA',
    clientDataJSON: 'Y2xpZW50',
    signature: 'c2ln',
    userHandle: 'dXNlcg',
  },
};

/**
 * The gateway: anti-forgery, User (anonymous), AssertionOptions, SecureLogin answering `secureLogin` and Login
 * answering `login`.
 */
function gateway(secureLogin: () => Response, login?: () => Promise<Response>) {
  const calls: { url: string; body?: unknown }[] = [];
  const fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    calls.push({ url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
    if (url.startsWith('/api/Account/Antiforgery')) {
      document.cookie = 'idp.x-csrf-token-value=t';
      return Promise.resolve(Response.json({ token: 't' }));
    }
    if (url.startsWith('/api/Account/AssertionOptions')) return Promise.resolve(Response.json(OPTIONS));
    if (url.startsWith('/api/Account/SecureLogin')) return Promise.resolve(secureLogin());
    if (login && url.startsWith('/api/Account/Login')) return login();
    return Promise.resolve(Response.json({ isAuthenticated: false }));
  };
  return { calls, fetch };
}

/** A browser with conditional mediation whose autofill list hands back `picked` (or waits until aborted). */
function browserWithAutofill(picked: 'passkey' | 'wait') {
  const requests: CredentialRequestOptions[] = [];
  const get = vi.fn((request: CredentialRequestOptions) => {
    requests.push(request);
    if (picked === 'passkey') return Promise.resolve({ toJSON: () => ASSERTION });
    return new Promise((_resolve, reject) =>
      request.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
  });
  vi.stubGlobal('PublicKeyCredential', {
    isConditionalMediationAvailable: () => Promise.resolve(true),
    parseRequestOptionsFromJSON: (json: unknown) => ({ parsed: json }),
  });
  Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
  return { get, requests };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'credentials');
  sessionStorage.clear();
});

async function renderForm(fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  return renderWithProviders(<SignInForm returnUrl="/account/" />, {
    store: createAppStore(),
    fetch,
    resources: { 'en-GB': { 'mfe-login': enGB } },
  });
}

describe('passkey autofill on the sign-in form', () => {
  it('marks the username field for passkeys and waits quietly for one with a fresh challenge', async () => {
    const { get, requests } = browserWithAutofill('wait');
    const { calls, fetch } = gateway(() => Response.json({}));
    const { unmount } = await renderForm(fetch);
    expect(screen.getByLabelText('Username or email').getAttribute('autocomplete')).toBe('username webauthn');
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    expect(requests[0]?.mediation).toBe('conditional');
    expect(requests[0]?.publicKey).toEqual({ parsed: OPTIONS });
    expect(calls.filter((c) => c.url.startsWith('/api/Account/SecureLogin'))).toEqual([]);
    // Leaving the form ends the waiting request, so the passkey page's own request is not refused as pending.
    unmount();
    expect(requests[0]?.signal?.aborted).toBe(true);
  });

  it('posts the picked passkey to SecureLogin with the returnUrl', async () => {
    browserWithAutofill('passkey');
    const { calls, fetch } = gateway(() => Response.json(null));
    await renderForm(fetch);
    await waitFor(() => expect(calls.find((c) => c.url.startsWith('/api/Account/SecureLogin'))).toBeTruthy());
    const call = calls.find((c) => c.url.startsWith('/api/Account/SecureLogin'))!;
    expect(new URL(call.url, 'http://x').searchParams.get('returnUrl')).toBe('/account/');
    expect(call.body).toEqual({
      id: 'Y3JlZA',
      rawId: 'Y3JlZA',
      type: 'public-key',
      extensions: {},
      response: {
        authenticatorData: 'YXV0aA',
        clientDataJson: 'Y2xpZW50',
        signature: 'c2ln',
        userHandle: 'dXNlcg',
      },
    });
  });

  it('says a refused passkey failed and keeps the password form', async () => {
    browserWithAutofill('passkey');
    const { fetch } = gateway(() =>
      Response.json({ title: 'x', errors: { '': ['secureSignInFailed'] } }, { status: 400 }),
    );
    await renderForm(fetch);
    expect(await screen.findByText(/We could not verify you or the passkey you used/)).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });

  it('asks for no challenge while a password sign-in is under way, and asks again once it failed', async () => {
    // Enter pressed before LoginView answered (the drawn page's held submit): an AssertionOptions sent while Login
    // replaces the session would answer with a fresh anonymous session's cookie over the signed-in one.
    const { get } = browserWithAutofill('wait');
    let answerLogin!: (response: Response) => void;
    const { calls, fetch } = gateway(
      () => Response.json({}),
      () => new Promise<Response>((resolve) => (answerLogin = resolve)),
    );
    function Page() {
      const [viewLoaded, setViewLoaded] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setViewLoaded(true)}>
            LoginView answered
          </button>
          <SignInForm returnUrl="/account/" viewLoaded={viewLoaded} />
        </>
      );
    }
    await renderWithProviders(<Page />, {
      store: createAppStore(),
      fetch,
      resources: { 'en-GB': { 'mfe-login': enGB } },
    });
    const assertionCalls = () => calls.filter((c) => c.url.startsWith('/api/Account/AssertionOptions'));
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'employee' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }).closest('form')!);
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/Account/Login'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'LoginView answered' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(assertionCalls()).toEqual([]);
    expect(get).not.toHaveBeenCalled();
    answerLogin(Response.json({ title: 'x', errors: { '': ['invalidCredentials'] } }, { status: 400 }));
    await waitFor(() => expect(assertionCalls()).toHaveLength(1));
  });

  it('changes nothing in a browser without conditional mediation', async () => {
    const { calls, fetch } = gateway(() => Response.json({}));
    await renderForm(fetch);
    await screen.findByLabelText('Password');
    expect(calls.filter((c) => c.url.startsWith('/api/Account/AssertionOptions'))).toEqual([]);
  });
});
