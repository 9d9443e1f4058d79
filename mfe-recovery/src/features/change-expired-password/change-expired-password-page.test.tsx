import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES } from 'shared-contracts';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { stubGateway } from '../shared/test-gateway';
import { ChangeExpiredPasswordPage } from './change-expired-password-page';

afterEach(cleanup);

async function renderPage() {
  const gateway = stubGateway(DEFAULT_PASSWORD_RULES, {
    ChangeExpiredPassword: {
      status: 400,
      body: {
        title: 'One or more validation errors occurred.',
        errors: { CurrentPassword: ['currentPasswordIncorrect'] },
      },
    },
  });
  await renderWithProviders(<ChangeExpiredPasswordPage />, {
    path: '/account/change-expired-password?returnUrl=%2Faccount%2F',
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-recovery': enGB } },
  });
  return gateway.calls;
}

describe('ChangeExpiredPasswordPage', () => {
  it('says the password expired and shows the three fields', async () => {
    await renderPage();
    expect(screen.getByText('Your password has expired. Choose a new one to continue.')).toBeTruthy();
    expect(screen.getByLabelText('Current password')).toBeTruthy();
    expect(screen.getByLabelText('New password')).toBeTruthy();
    expect(screen.getByLabelText('Confirm new password')).toBeTruthy();
  });

  it('shows the rules live, including "must differ" and "Passwords must match."', async () => {
    await renderPage();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Demo-Password-1!' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    expect(screen.getByText('Password must be at least 8 characters.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Demo-Password-1!' } });
    expect(screen.getByText('The new password must be different from the current one.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'other' } });
    expect(screen.getByText('Passwords must match.')).toBeTruthy();
  });

  it('focuses the first invalid field, sends ChangeExpiredPassword and shows the server field errors', async () => {
    const calls = await renderPage();
    const form = screen.getByRole('button', { name: 'Change password' }).closest('form')!;
    fireEvent.submit(form);
    expect(document.activeElement).toBe(screen.getByLabelText('Current password'));
    expect(screen.getByText('Current password is required.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'wrong-one-1' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'A-new-long-passphrase' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'A-new-long-passphrase' },
    });
    fireEvent.submit(form);
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Current password')));
    expect(calls.find((c) => c.url === '/api/Account/ChangeExpiredPassword')?.body).toEqual({
      currentPassword: 'wrong-one-1',
      newPassword: 'A-new-long-passphrase',
      confirmPassword: 'A-new-long-passphrase',
      returnUrl: '/account/',
    });
  });
});
