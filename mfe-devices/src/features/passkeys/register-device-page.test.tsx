import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerLocationAssigner } from 'shared-contracts/api';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import { TOAST_EVENT, type ToastEventDetail } from 'shared-contracts/ui';
import enGB from '../../locales/en-GB.json';
import { RegisterDevicePage } from './register-device-page';

// jsdom has no WebAuthn; a test that needs the device to say yes sets `attestation`.
const device = vi.hoisted((): { attestation: unknown } => ({ attestation: undefined }));
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<typeof import('@simplewebauthn/browser')>()),
  startRegistration: () =>
    device.attestation === undefined
      ? Promise.reject(new Error('NotAllowedError'))
      : Promise.resolve(device.attestation),
}));

afterEach(() => {
  cleanup();
  device.attestation = undefined;
});

async function renderPage(answers: Parameters<typeof stubGateway>[0] = {}) {
  const gateway = stubGateway({
    CredentialOptions: () =>
      Response.json({
        challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
        rp: { id: 'localhost', name: 'Identity' },
        user: { id: 'dXNlcg', name: 'employee', displayName: 'Emma' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      }),
    ...answers,
  });
  await renderWithProviders(<RegisterDevicePage />, {
    path: '/account/registerdevice?returnUrl=%2Faccount%2F',
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-devices': enGB } },
  });
  return gateway.calls;
}

describe('RegisterDevicePage', () => {
  it('shows the name field prefilled, register, skip and the way back to sign-in', async () => {
    await renderPage();
    const name = screen.getByLabelText<HTMLInputElement>('Passkey name');
    expect(name.value.length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Add passkey' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Skip for now' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe(
      '/account/login?returnUrl=%2Faccount%2F',
    );
  });

  it('asks for a name before calling the server', async () => {
    const calls = await renderPage();
    fireEvent.change(screen.getByLabelText('Passkey name'), { target: { value: '   ' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Add passkey' }).closest('form')!);
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Passkey name'));
    expect(calls.some((c) => c.call === 'CredentialOptions')).toBe(false);
  });

  it('asks CredentialOptions for the typed name and shows the registration error when the device cannot register', async () => {
    // jsdom has no WebAuthn: the device step fails as a refusing authenticator would.
    const calls = await renderPage();
    fireEvent.change(screen.getByLabelText('Passkey name'), { target: { value: 'Work laptop' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Add passkey' }).closest('form')!);
    expect(
      await screen.findByText('There was a problem registering your passkey. Please try again later.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.call === 'CredentialOptions')?.query.get('displayName')).toBe('Work laptop');
    expect(calls.some((c) => c.call === 'RegisterCredential')).toBe(false);
  });

  it('shows the registration error when the server refuses the options', async () => {
    await renderPage({
      CredentialOptions: () =>
        Response.json({ title: 'x', errors: { '': ['deviceRegistrationError'] } }, { status: 400 }),
    });
    fireEvent.submit(screen.getByRole('button', { name: 'Add passkey' }).closest('form')!);
    expect(
      await screen.findByText('There was a problem registering your passkey. Please try again later.'),
    ).toBeTruthy();
  });

  describe('a signed-in person without a recent sign-in (S21): "Confirm it\'s you" in place (ADR 0045)', () => {
    const refused = () =>
      Response.json({ title: 'x', errors: { '': ['recentSignInRequired'] } }, { status: 403 });
    const signedIn = {
      User: () => Response.json({ isAuthenticated: true, name: 'Emma' }),
      Devices: () => Response.json({ devices: [] }),
      ConfirmItsYouView: () => Response.json({ password: true, passkey: false, secondFactor: [] }),
    };
    const options = () =>
      Response.json({
        challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
        rp: { id: 'localhost', name: 'Identity' },
        user: { id: 'dXNlcg', name: 'employee', displayName: 'Emma' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      });
    const attestation = {
      id: 'cred',
      rawId: 'cred',
      type: 'public-key',
      clientExtensionResults: {},
      response: { attestationObject: 'AA', clientDataJSON: 'AA', transports: ['internal'] },
    };

    async function addWorkLaptop() {
      await screen.findByRole('list', { name: 'Your passkeys' });
      fireEvent.change(screen.getByLabelText('Passkey name'), { target: { value: 'Work laptop' } });
      fireEvent.submit(screen.getByRole('button', { name: 'Add passkey' }).closest('form')!);
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
      expect(dialog.textContent).toContain(
        'For your security, confirm it’s you before you change your passkeys.',
      );
      return dialog;
    }

    async function confirmWithPassword(dialog: HTMLElement) {
      fireEvent.change(await within(dialog).findByLabelText('Password'), { target: { value: 'pw' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    }

    it('asks for the password, then asks for the options again with the name typed and adds the passkey', async () => {
      device.attestation = attestation;
      let confirmed = false;
      const calls = await renderPage({
        ...signedIn,
        CredentialOptions: () => (confirmed ? options() : refused()),
        ConfirmItsYou: () => {
          confirmed = true;
          return Response.json({ confirmed: true });
        },
        RegisterCredential: () => Response.json({ redirect: '/account/', state: 's' }, { status: 209 }),
      });
      const dialog = await addWorkLaptop();
      expect(calls.some((c) => c.call === 'RegisterCredential')).toBe(false);
      await confirmWithPassword(dialog);
      expect(await screen.findByText('Passkey registered')).toBeTruthy();
      expect(
        calls.filter((c) => c.call === 'CredentialOptions').map((c) => c.query.get('displayName')),
      ).toEqual(['Work laptop', 'Work laptop']);
      expect(calls.filter((c) => c.call === 'RegisterCredential')).toHaveLength(1);
      expect(calls.some((c) => c.call === 'SignInAgain')).toBe(false);
      expect(screen.queryByRole('button', { name: 'Sign in again' })).toBeNull();
    });

    it('starts the ceremony again once confirmed when the window lapsed during it (its challenge is the old session’s)', async () => {
      device.attestation = attestation;
      let confirmed = false;
      const calls = await renderPage({
        ...signedIn,
        CredentialOptions: options,
        ConfirmItsYou: () => {
          confirmed = true;
          return Response.json({ confirmed: true });
        },
        RegisterCredential: () =>
          confirmed ? Response.json({ redirect: '/account/', state: 's' }, { status: 209 }) : refused(),
      });
      await confirmWithPassword(await addWorkLaptop());
      expect(await screen.findByText('Passkey registered')).toBeTruthy();
      expect(calls.filter((c) => c.call === 'CredentialOptions')).toHaveLength(2);
      expect(calls.filter((c) => c.call === 'RegisterCredential')).toHaveLength(2);
    });

    it('cancelled: says the passkey was not added because it was not confirmed, not the registration error', async () => {
      const calls = await renderPage({ ...signedIn, CredentialOptions: refused });
      const dialog = await addWorkLaptop();
      fireEvent.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
      expect(
        await screen.findByText('The change was not made because you did not confirm it’s you.'),
      ).toBeTruthy();
      expect(
        screen.queryByText('There was a problem registering your passkey. Please try again later.'),
      ).toBeNull();
      expect(screen.getByLabelText<HTMLInputElement>('Passkey name').value).toBe('Work laptop');
      expect(calls.filter((c) => c.call === 'CredentialOptions')).toHaveLength(1);
    });
  });

  it('says "Passkey registered" (SPEC.md §8 "device registered") when a signed-in person adds one', async () => {
    device.attestation = {
      id: 'cred',
      rawId: 'cred',
      type: 'public-key',
      clientExtensionResults: {},
      response: { attestationObject: 'AA', clientDataJSON: 'AA', transports: ['internal'] },
    };
    const toasts: ToastEventDetail[] = [];
    const listen = (event: Event) => toasts.push((event as CustomEvent<ToastEventDetail>).detail);
    window.addEventListener(TOAST_EVENT, listen);
    try {
      const calls = await renderPage({
        User: () => Response.json({ isAuthenticated: true, name: 'Emma' }),
        Devices: () => Response.json({ devices: [] }),
        RegisterCredential: () => Response.json({ redirect: '/account/', state: 's' }, { status: 209 }),
      });
      await screen.findByRole('list', { name: 'Your passkeys' });
      fireEvent.change(screen.getByLabelText('Passkey name'), { target: { value: 'Work laptop' } });
      fireEvent.submit(screen.getByRole('button', { name: 'Add passkey' }).closest('form')!);
      await waitFor(() => expect(toasts).toEqual([{ kind: 'success', message: 'Passkey registered' }]));
      expect(calls.find((c) => c.call === 'RegisterCredential')?.body).toMatchObject({
        id: 'cred',
        response: { clientDataJson: 'AA' },
      });
    } finally {
      window.removeEventListener(TOAST_EVENT, listen);
    }
  });

  it('skips with SkipFido and the returnUrl', async () => {
    const calls = await renderPage({
      SkipFido: () => Response.json({ redirect: '/account/', state: 's' }, { status: 209 }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(calls.some((c) => c.call === 'SkipFido')).toBe(true));
    expect(calls.find((c) => c.call === 'SkipFido')?.query.get('returnUrl')).toBe('/account/');
  });

  it('offers a signed-in person Cancel back where they came from, not "Skip for now" nor "Back to sign in"', async () => {
    await renderPage({
      User: () => Response.json({ isAuthenticated: true, name: 'Emma' }),
      Devices: () => Response.json({ devices: [] }),
    });
    const cancel = await screen.findByRole('link', { name: 'Cancel' });
    expect(cancel.getAttribute('href')).toBe('/redirect?returnUrl=%2Faccount%2F');
    expect(screen.queryByRole('button', { name: 'Skip for now' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to sign in' })).toBeNull();
  });

  it('says "Passkey registered" (SPEC.md §8) after the offer of a sign-in too, on the page and as a toast', async () => {
    device.attestation = {
      id: 'cred',
      rawId: 'cred',
      type: 'public-key',
      clientExtensionResults: {},
      response: { attestationObject: 'AA', clientDataJSON: 'AA', transports: ['internal'] },
    };
    const assigned: string[] = [];
    registerLocationAssigner((url) => assigned.push(url));
    const toasts: ToastEventDetail[] = [];
    const listen = (event: Event) => toasts.push((event as CustomEvent<ToastEventDetail>).detail);
    window.addEventListener(TOAST_EVENT, listen);
    try {
      // A pending sign-in (not signed in yet) whose 209 goes back to the application: a full page load.
      await renderPage({
        User: () => Response.json({ isAuthenticated: false }),
        RegisterCredential: () =>
          Response.json({ redirect: '/interaction/abc', state: 's' }, { status: 209 }),
      });
      fireEvent.submit(screen.getByRole('button', { name: 'Add passkey' }).closest('form')!);
      await waitFor(() => expect(toasts).toEqual([{ kind: 'success', message: 'Passkey registered' }]));
      expect(assigned).toEqual([expect.stringContaining('/interaction/abc')]);
      expect(screen.getByRole('status').textContent).toBe('Passkey registered');
    } finally {
      window.removeEventListener(TOAST_EVENT, listen);
    }
  });
});
