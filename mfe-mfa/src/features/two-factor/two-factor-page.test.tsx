import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { TwoFactorLoginPage } from './two-factor-page';

afterEach(cleanup);

async function render(ui: React.ReactElement, answers: StubAnswers, path: string, lng = 'en-GB') {
  const gateway = stubGateway(answers);
  const result = await renderWithProviders(ui, {
    path,
    lng,
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-mfa': enGB }, de: { 'mfe-mfa': de } },
  });
  return { gateway, result };
}

const view = () =>
  Response.json({
    methods: ['authenticator'],
    rememberBrowserAllowed: false,
    maskedPhone: null,
    maskedEmail: null,
  });

describe('TwoFactorLoginPage', () => {
  it('asks for the authenticator code with the hint, and sends the method and the code', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      { LoginWith2FAView: view, LoginWith2FA: () => fieldError('code', 'invalidCode') },
      '/account/login/twofactor?returnUrl=%2Fportal',
    );
    const field = await screen.findByLabelText('Code from your authenticator app');
    // The hint and the method come with LoginWith2FAView, which may answer after the field shows.
    expect(await screen.findByText('Codes ignore spaces and case.')).toBeTruthy();
    expect(await screen.findByText('Method: Authenticator app')).toBeTruthy();
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('The code is not valid or has expired. Check it and try again.'),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(gateway.calls.find((c) => c.call === 'LoginWith2FA')?.body).toEqual({
      method: 'authenticator',
      code: '123 456',
    });
    expect(screen.getByRole('link', { name: 'Use a recovery code instead' }).getAttribute('href')).toBe(
      '/account/login/recoverycode?returnUrl=%2Fportal',
    );
  });

  it('offers a choice when the account has several methods', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: () =>
          Response.json({
            methods: ['authenticator', 'sms'],
            rememberBrowserAllowed: false,
            maskedPhone: '•••• 0123',
            maskedEmail: null,
          }),
        SendOTP: () => Response.json({ sent: true, maskedPhone: '•••• 0123', retryAfterSeconds: 30 }),
      },
      '/account/login/twofactor',
    );
    const sms = await screen.findByRole('radio', { name: 'SMS code' });
    expect(gateway.calls.some((c) => c.call === 'SendOTP')).toBe(false);
    fireEvent.click(sms);
    expect(await screen.findByLabelText('Code from the text message')).toBeTruthy();
    // Choosing SMS texts a code; a new one waits for the server's time.
    expect(await screen.findByText('We sent a code to •••• 0123.')).toBeTruthy();
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send a new code' }).disabled).toBe(true);
  });

  it('mails a PIN, asks for digits at positions, reshuffles and resends', async () => {
    const references = [
      { positions: [1, 2, 4, 5, 6, 7], length: 8 },
      { positions: [1, 3, 4, 5, 7, 8], length: 8 },
      { positions: [2, 3, 4, 6, 7, 8], length: 8 },
    ];
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: () =>
          Response.json({
            methods: ['pin'],
            rememberBrowserAllowed: false,
            maskedPhone: null,
            maskedEmail: 'j•••@example.test',
          }),
        GeneratePin: () => Response.json(true),
        PinReference: () => Response.json(references.shift() ?? null),
        LoginWith2FA: () => fieldError('code', 'invalidCode'),
      },
      '/account/login/twofactor',
    );
    expect(await screen.findByLabelText('Enter digits 1, 2, 4, 5, 6 and 7 of your PIN')).toBeTruthy();
    expect(screen.getByText('We e-mailed a PIN to j•••@example.test.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask for other digits' }));
    const field = await screen.findByLabelText('Enter digits 1, 3, 4, 5, 7 and 8 of your PIN');
    fireEvent.change(field, { target: { value: '418205' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(gateway.calls.find((c) => c.call === 'LoginWith2FA')?.body).toEqual({
      method: 'pin',
      code: '418205',
    });

    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a new PIN' }));
    expect(await screen.findByLabelText('Enter digits 2, 3, 4, 6, 7 and 8 of your PIN')).toBeTruthy();
    const mails = gateway.calls.filter((c) => c.call === 'GeneratePin');
    expect(mails.map((c) => c.query.get('forced'))).toEqual([null, 'true']);
    expect(screen.getByText(/A new PIN is on its way/)).toBeTruthy();
  });

  it('offers "remember this browser" only where allowed, and sends it when ticked', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: () =>
          Response.json({
            methods: ['authenticator'],
            rememberBrowserAllowed: true,
            maskedPhone: null,
            maskedEmail: null,
          }),
        LoginWith2FA: () => fieldError('code', 'invalidCode'),
      },
      '/account/login/twofactor',
    );
    const remember = await screen.findByRole('checkbox', {
      name: 'Remember this browser for 30 days (don’t use on a shared computer)',
    });
    fireEvent.click(remember);
    fireEvent.change(screen.getByLabelText('Code from your authenticator app'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(gateway.calls.find((c) => c.call === 'LoginWith2FA')?.body).toEqual({
        method: 'authenticator',
        code: '123456',
        rememberBrowser: true,
      }),
    );
  });

  it('speaks German', async () => {
    await render(<TwoFactorLoginPage />, { LoginWith2FAView: view }, '/account/login/twofactor', 'de');
    expect(await screen.findByLabelText('Code aus Ihrer Authenticator-App')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Mit 2FA anmelden');
  });
});
