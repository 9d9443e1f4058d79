import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
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

  it('lists the partner’s rules before anything is typed and marks them as the user types', async () => {
    await renderPage();
    const field = await screen.findByLabelText('New password');
    const hint = () => document.getElementById(field.getAttribute('aria-describedby')!)!;
    // The partner's rules arrive from PasswordRules before the user types.
    await waitFor(() =>
      expect(
        within(hint())
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        '✗Not met: Password must be at least 10 characters.',
        '✗Not met: Password must be at most 64 characters.',
        '✗Not met: Must have at least one upper case character, one lower case character, one number and one special character.',
        '✗Not met: Must not contain more than 2 consecutive characters.',
        '✗Not met: Must not contain invalid characters.',
      ]),
    );
    fireEvent.change(field, { target: { value: 'aaa<' } });
    expect(
      within(hint())
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '✗Not met: Password must be at least 10 characters.',
      '✓Met: Password must be at most 64 characters.',
      '✗Not met: Must have at least one upper case character, one lower case character, one number and one special character.',
      '✗Not met: Must not contain more than 2 consecutive characters.',
      '✗Not met: Must not contain invalid characters.',
    ]);
    fireEvent.change(field, { target: { value: 'Correct-Horse-9' } });
    expect(within(hint()).getAllByText(/^Met:/)).toHaveLength(5);
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'aab' } });
    expect(screen.getByText('Passwords must match.')).toBeTruthy();
  });

  it('a submit that fails the rules lists them under "Password does not meet the requirements."', async () => {
    const calls = await renderPage();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const field = screen.getByLabelText('New password');
    fireEvent.change(field, { target: { value: 'aaa<' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'aaa<' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Reset password' }).closest('form')!);
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const errors = document.getElementById(`${field.id}-errors`)!;
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Password does not meet the requirements.',
      'Password must be at least 10 characters.',
      'Must have at least one upper case character, one lower case character, one number and one special character.',
      'Must not contain more than 2 consecutive characters.',
      'Must not contain invalid characters.',
    ]);
    expect(calls.some((c) => c.url === '/api/Account/ResetPassword')).toBe(false);
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
    const done = await screen.findByText('Password reset successfully.');
    expect(done.closest('[role]')?.textContent).toBe(
      'Password reset successfully. Sign in with your new password.',
    );
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
