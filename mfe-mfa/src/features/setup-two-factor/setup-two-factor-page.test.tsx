import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { registerLocationAssigner, registerNavigator } from 'shared-contracts/api';
import { fieldError, renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { SetupTwoFactorPage } from './setup-two-factor-page';

afterEach(() => {
  cleanup();
  registerNavigator(undefined);
});

const CODES = Array.from({ length: 10 }, (_, i) => `ABCD-EFGH-JK${String(i).padStart(2, '0')}`);
const setupView =
  (configured: string[] = [], duringSignIn = configured.length === 0) =>
  () =>
    Response.json({
      methods: ['authenticator', 'sms', 'pin'],
      configured,
      duringSignIn,
      maskedEmail: 'u•••@example.test',
      authenticator: {
        secret: 'JBSW Y3DP EHPK 3PXP',
        uri: 'otpauth://totp/Acme:tara?secret=JBSWY3DPEHPK3PXP',
        qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
        issuer: 'Acme',
        accountName: 'tara',
      },
    });

describe('SetupTwoFactorPage', () => {
  it('sets up SMS: phone number, texted code, confirm, then the recovery codes', async () => {
    const gateway = stubGateway({
      Setup2FAView: setupView(),
      GeneratePhoneVerification: ({ body }) =>
        (body as { phone: string }).phone.startsWith('+')
          ? Response.json({ sent: true, maskedPhone: '•••• 0123', retryAfterSeconds: 30 })
          : fieldError('phone', 'invalidPhoneNumber'),
      Validate2faSetupCode: () => Response.json({ recoveryCodesId: 'set-1' }),
      RedeemRecoveryCode: () => Response.json({ codes: CODES }),
    });
    await renderWithProviders(<SetupTwoFactorPage />, {
      path: '/account/setup-twofactor',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    fireEvent.click(await screen.findByRole('radio', { name: 'Text message (SMS)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: 'Set up codes by text message (SMS)' });
    const phone = screen.getByLabelText('Mobile number');
    fireEvent.change(phone, { target: { value: '07700 900123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
    expect(
      await screen.findByText('Enter the phone number with its country code, for example +44 7700 900123.'),
    ).toBeTruthy();
    fireEvent.change(phone, { target: { value: '+44 7700 900123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
    expect(await screen.findByText('We sent a code to •••• 0123.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('6-digit code from the text message (SMS)'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { name: 'Save your recovery codes' });
    expect(gateway.calls.find((c) => c.call === 'Validate2faSetupCode')?.body).toEqual({
      method: 'sms',
      code: '123456',
    });
  });

  it('walks choose → scan and confirm → recovery codes → done, and ends with EnableTwoFactor', async () => {
    let attempts = 0;
    const gateway = stubGateway({
      Setup2FAView: setupView(),
      Validate2faSetupCode: () =>
        (attempts += 1) === 1
          ? fieldError('code', 'invalidCode')
          : Response.json({ recoveryCodesId: 'set-1' }),
      RedeemRecoveryCode: () => Response.json({ codes: CODES }),
      EnableTwoFactor: () => Response.json({ redirect: '/portal', state: 's' }, { status: 209 }),
    });
    const visited: string[] = [];
    registerNavigator((path) => {
      visited.push(path);
    });
    await renderWithProviders(<SetupTwoFactorPage />, {
      path: '/account/setup-twofactor?returnUrl=%2Fportal',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    expect(await screen.findByText('Step 1 of 4')).toBeTruthy();
    expect(await screen.findByRole('radio', { name: 'Authenticator app' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));

    const heading = await screen.findByRole('heading', { name: 'Set up your authenticator app' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const qr = screen.getByRole('img', { name: 'QR code to add this account to your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP');

    const code = screen.getByLabelText('6-digit code from the app');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('The code is not valid or has expired. Check it and try again.'),
    ).toBeTruthy();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    await screen.findByRole('heading', { name: 'Save your recovery codes' });
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(screen.getByText(/Each recovery code can be used once/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download as text file' })).toBeTruthy();
    const next = screen.getByRole('button', { name: 'Continue' });
    expect((next as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have stored these codes safely'));
    fireEvent.click(next);

    expect(await screen.findByText('Two-step verification is set up')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    // An application path goes through the safe redirect page (SPEC.md §4).
    await waitFor(() => expect(visited).toEqual(['/redirect?returnUrl=%2Fportal']));
    const enable = gateway.calls.find((c) => c.call === 'EnableTwoFactor');
    expect(enable?.query.get('returnUrl')).toBe('/portal');
    // The set is asked for once: showing it uses it up on the server.
    expect(gateway.calls.filter((c) => c.call === 'RedeemRecoveryCode')).toHaveLength(1);
  });

  it('adds a method beside the ones set up: none of them offered, the first new one suggested, no new recovery codes', async () => {
    const gateway = stubGateway({
      Setup2FAView: setupView(['authenticator']),
      GeneratePhoneVerification: () =>
        Response.json({ sent: true, maskedPhone: '•••• 0123', retryAfterSeconds: 30 }),
      // A method added beside others keeps the account's codes: no set to show (ADR 0050).
      Validate2faSetupCode: () => Response.json({ recoveryCodesId: null }),
    });
    await renderWithProviders(<SetupTwoFactorPage />, {
      path: '/account/setup-twofactor?returnUrl=%2Faccount%2F',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    expect(await screen.findByText('Step 1 of 3')).toBeTruthy();
    expect(screen.getByTestId('configured-methods').textContent).toBe('Authenticator app');
    expect(screen.queryByRole('radio', { name: 'Authenticator app' })).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Text message (SMS)' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'PIN by email' }).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.change(await screen.findByLabelText('Mobile number'), { target: { value: '+447700900123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
    fireEvent.change(await screen.findByLabelText('6-digit code from the text message (SMS)'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Method added: Text message (SMS)')).toBeTruthy();
    expect(screen.getByText('Step 3 of 3')).toBeTruthy();
    expect(screen.getByText(/Your default method and your recovery codes are unchanged/)).toBeTruthy();
    expect(gateway.calls.find((c) => c.call === 'Validate2faSetupCode')?.body).toEqual({
      method: 'sms',
      code: '123456',
    });
    expect(gateway.calls.filter((c) => c.call === 'RedeemRecoveryCode')).toEqual([]);
  });

  it('replaces the authenticator app only through its own confirmed action, which tells the server so', async () => {
    const gateway = stubGateway({
      Setup2FAView: setupView(['authenticator', 'sms', 'pin']),
      Validate2faSetupCode: () => Response.json({ recoveryCodesId: null }),
    });
    await renderWithProviders(<SetupTwoFactorPage />, {
      path: '/account/setup-twofactor?returnUrl=%2Faccount%2F',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    expect(await screen.findByText('Every method you can use here is set up.')).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    const replace = screen.getByRole('button', { name: 'Replace authenticator app' });
    fireEvent.click(replace);
    let dialog = await screen.findByRole('alertdialog', { name: 'Replace your authenticator app?' });
    // Cancel is focused first: Enter on the confirmation does not replace anything.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Choose a method' })).toBeTruthy();

    fireEvent.click(replace);
    dialog = await screen.findByRole('alertdialog', { name: 'Replace your authenticator app?' });
    const confirm = within(dialog).getByRole('button', { name: 'Replace authenticator app' });
    expect(confirm.className).toContain('hr-button--danger');
    fireEvent.click(confirm);
    await screen.findByRole('heading', { name: 'Set up your authenticator app' });
    fireEvent.change(screen.getByLabelText('6-digit code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Your authenticator app has been replaced')).toBeTruthy();
    expect(gateway.calls.find((c) => c.call === 'Validate2faSetupCode')?.body).toEqual({
      method: 'authenticator',
      code: '123456',
      replace: true,
    });
  });

  it('has Cancel from the account, back to the returnUrl with nothing confirmed; none during a sign-in', async () => {
    const visited: string[] = [];
    registerNavigator((path) => {
      visited.push(path);
    });
    const gateway = stubGateway({ Setup2FAView: setupView(['authenticator']) });
    await renderWithProviders(<SetupTwoFactorPage />, {
      path: '/account/setup-twofactor?returnUrl=%2Faccount%2F',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: 'Set up codes by text message (SMS)' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(visited).toEqual(['/account/']));
    // Nothing was sent that changes the account: only the view was read.
    expect(gateway.calls.map((c) => c.call).filter((c) => c !== 'Antiforgery')).toEqual(['Setup2FAView']);
    cleanup();

    const signIn = stubGateway({ Setup2FAView: setupView() });
    await renderWithProviders(<SetupTwoFactorPage />, {
      path: '/account/setup-twofactor',
      fetch: signIn.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    await screen.findByRole('button', { name: 'Next' });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it.each([
    [
      '403 recentSignInRequired',
      () => Response.json({ title: 'x', errors: { '': ['recentSignInRequired'] } }, { status: 403 }),
    ],
    ['the older 400 reauthenticationRequired', () => fieldError('', 'reauthenticationRequired')],
  ])(
    'offers a signed-in user whose sign-in is not recent to sign in again, back to the wizard (S21: %s)',
    async (_name, refuse) => {
      const assigned: string[] = [];
      registerLocationAssigner((url) => assigned.push(url));
      const gateway = stubGateway({
        Setup2FAView: refuse,
        SignInAgain: () =>
          Response.json({
            redirect: '/account/login?returnUrl=%2Faccount%2Fsetup-twofactor%3FreturnUrl%3D%252Faccount%252F',
          }),
      });
      await renderWithProviders(<SetupTwoFactorPage />, {
        path: '/account/setup-twofactor?returnUrl=%2Faccount%2F',
        fetch: gateway.fetch,
        resources: { 'en-GB': { 'mfe-mfa': enGB } },
      });
      expect(
        await screen.findByText(
          'For your security, sign in again before you change your two-step verification.',
        ),
      ).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
      await waitFor(() =>
        expect(assigned).toEqual([
          '/account/login?returnUrl=%2Faccount%2Fsetup-twofactor%3FreturnUrl%3D%252Faccount%252F',
        ]),
      );
      const call = gateway.calls.find((c) => c.call === 'SignInAgain');
      expect(call?.body).toEqual({ returnUrl: '/account/setup-twofactor?returnUrl=%2Faccount%2F' });
    },
  );
});
