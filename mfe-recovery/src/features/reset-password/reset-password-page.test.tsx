import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { STRICT_RULES, stubGateway } from '../shared/test-gateway';
import { ResetPasswordPage } from './reset-password-page';

afterEach(cleanup);

function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.pathname + location.search}</output>;
}

async function renderPage() {
  const gateway = stubGateway(STRICT_RULES, { ResetPassword: { body: { passwordReset: true } } });
  await renderWithProviders(
    <Routes>
      <Route
        path="/account/reset-password"
        element={
          <>
            <ResetPasswordPage />
            <Address />
          </>
        }
      />
    </Routes>,
    {
      path: '/account/reset-password?token=abc123&returnUrl=%2Faccount%2F',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-recovery': enGB } },
    },
  );
  return gateway.calls;
}

describe('ResetPasswordPage', () => {
  it('takes the token out of the address and asks PasswordRules with it', async () => {
    const calls = await renderPage();
    expect(screen.getByTestId('address').textContent).toBe('/account/reset-password?returnUrl=%2Faccount%2F');
    await screen.findByLabelText('New password');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.find((c) => c.url.startsWith('/api/Account/PasswordRules'))?.body).toEqual({
      token: 'abc123',
    });
  });

  it('shows every failing rule live as the user types, and "Passwords must match."', async () => {
    const calls = await renderPage();
    // The partner's rules arrive before the user types.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.some((c) => c.url.startsWith('/api/Account/PasswordRules'))).toBe(true);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'aaa<' } });
    expect(await screen.findByText('Password must be at least 10 characters.')).toBeTruthy();
    expect(
      screen.getByText(
        'Must have at least one upper case character, one lower case character, one number and one special character.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Must not contain more than 2 consecutive characters.')).toBeTruthy();
    expect(screen.getByText('Must not contain invalid characters.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'aab' } });
    expect(screen.getByText('Passwords must match.')).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
  });

  it('focuses the first invalid field on a failed submit, then resets and links to sign-in', async () => {
    const calls = await renderPage();
    const form = screen.getByRole('button', { name: 'Reset password' }).closest('form')!;
    fireEvent.submit(form);
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    expect(screen.getByText('New password is required.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Correct-Horse-9' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'Correct-Horse-9' } });
    fireEvent.submit(form);
    expect(
      await screen.findByText('Your password has been reset. Sign in with your new password.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/account/login?returnUrl=%2Faccount%2F',
    );
    expect(calls.find((c) => c.url === '/api/Account/ResetPassword')?.body).toEqual({
      token: 'abc123',
      newPassword: 'Correct-Horse-9',
      confirmPassword: 'Correct-Horse-9',
    });
  });
});
