import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { RecoveryCodeLoginPage } from '../recovery-code/recovery-code-page';
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

const view = () => Response.json({ methods: ['authenticator'], rememberBrowserAllowed: false });

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
    await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: () =>
          Response.json({ methods: ['authenticator', 'sms'], rememberBrowserAllowed: false }),
      },
      '/account/login/twofactor',
    );
    const sms = await screen.findByRole('radio', { name: 'SMS code' });
    fireEvent.click(sms);
    expect(await screen.findByLabelText('Code from the text message')).toBeTruthy();
  });

  it('speaks German', async () => {
    await render(<TwoFactorLoginPage />, { LoginWith2FAView: view }, '/account/login/twofactor', 'de');
    expect(await screen.findByLabelText('Code aus Ihrer Authenticator-App')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Mit 2FA anmelden');
  });
});

describe('RecoveryCodeLoginPage', () => {
  it('sends the recovery code as typed and shows the field error', async () => {
    const { gateway } = await render(
      <RecoveryCodeLoginPage />,
      {
        LoginWithRecoveryCodeView: () => Response.json({ codeLength: 12 }),
        LoginWithRecoveryCode: () => fieldError('recoveryCode', 'invalidCode'),
      },
      '/account/login/recoverycode?returnUrl=%2F',
    );
    const field = await screen.findByLabelText('Recovery code');
    fireEvent.change(field, { target: { value: 'abcd efgh jkmn' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(gateway.calls.find((c) => c.call === 'LoginWithRecoveryCode')?.body).toEqual({
      recoveryCode: 'abcd efgh jkmn',
    });
  });
});
