import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES } from 'shared-contracts';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { stubGateway } from '../shared/test-gateway';
import { ChangeExpiredPasswordPage } from './change-expired-password-page';

afterEach(cleanup);

async function renderPage(
  errors: Record<string, string[]> = { currentPassword: ['currentPasswordRequired'] },
) {
  const gateway = stubGateway(DEFAULT_PASSWORD_RULES, {
    ChangeExpiredPassword: {
      status: 400,
      body: { title: 'One or more validation errors occurred.', errors },
    },
  });
  await renderWithProviders(<ChangeExpiredPasswordPage />, {
    path: '/account/change-expired-password?returnUrl=%2Faccount%2F',
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-recovery': enGB } },
  });
  return gateway.calls;
}

const changeCalls = (calls: { url: string; body?: unknown }[]) =>
  calls.filter((c) => c.url === '/api/Account/ChangeExpiredPassword').map((c) => c.body);

describe('ChangeExpiredPasswordPage', () => {
  it('says the password expired, asks only for the new password and lists the rules before anything is typed', async () => {
    await renderPage();
    expect(screen.getByText('Your password has expired. Choose a new one to continue.')).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    const field = screen.getByLabelText('New password');
    expect(screen.getByLabelText('Confirm new password')).toBeTruthy();
    expect(document.activeElement).toBe(field);
    // The rules are the field's description, read with it, each marked in words (not colour alone).
    const description = field.getAttribute('aria-describedby')!;
    const hint = document.getElementById(description)!;
    expect(hint.textContent).toContain('Your new password must meet these rules:');
    expect(
      within(hint)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '✗Not met: Password must be at least 8 characters.',
      '✗Not met: Password must be at most 256 characters.',
    ]);
  });

  it('marks each rule met or not as the user types, and speaks only once typing pauses', async () => {
    await renderPage();
    const rule = () => screen.getByText('Password must be at least 8 characters.').closest('li')!;
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    expect(rule().textContent).toBe('✗Not met: Password must be at least 8 characters.');
    // No error under the field while typing: the list says it.
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'long enough now' } });
    expect(rule().textContent).toBe('✓Met: Password must be at least 8 characters.');
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toBe('');
    await waitFor(() => expect(status.textContent).toBe('All password rules are met.'), { timeout: 2000 });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    expect(status.textContent).toBe('All password rules are met.');
    await waitFor(() => expect(status.textContent).toBe('1 of 2 password rules met.'), { timeout: 2000 });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'other' } });
    expect(screen.getByText('Passwords must match.')).toBeTruthy();
  });

  it('a failed submit shows "Password does not meet the requirements." above the failing rules and sends nothing', async () => {
    const calls = await renderPage();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'short' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Change password' }).closest('form')!);
    const field = screen.getByLabelText('New password');
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const errors = document.getElementById(`${field.id}-errors`)!;
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Password does not meet the requirements.', 'Password must be at least 8 characters.']);
    expect(changeCalls(calls)).toEqual([]);
  });

  it('sends no current password; when the server asks for it, the field appears, focused, and goes with the next try', async () => {
    const calls = await renderPage();
    const form = screen.getByRole('button', { name: 'Change password' }).closest('form')!;
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'A-new-long-passphrase' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'A-new-long-passphrase' },
    });
    fireEvent.submit(form);
    await waitFor(() => expect(changeCalls(calls)).toHaveLength(1));
    expect(changeCalls(calls)[0]).toEqual({
      newPassword: 'A-new-long-passphrase',
      confirmPassword: 'A-new-long-passphrase',
      returnUrl: '/account/',
    });
    const current = await screen.findByLabelText('Current password');
    await waitFor(() => expect(document.activeElement).toBe(current));
    expect(screen.getByText('Current password is required.')).toBeTruthy();
    fireEvent.change(current, { target: { value: 'A-new-long-passphrase' } });
    expect(screen.getByText('The new password must be different from the current one.')).toBeTruthy();
    fireEvent.change(current, { target: { value: 'the-old-one-1' } });
    fireEvent.submit(form);
    await waitFor(() => expect(changeCalls(calls)).toHaveLength(2));
    expect(changeCalls(calls)[1]).toEqual({
      currentPassword: 'the-old-one-1',
      newPassword: 'A-new-long-passphrase',
      confirmPassword: 'A-new-long-passphrase',
      returnUrl: '/account/',
    });
  });

  it('shows the server’s field errors under the new password', async () => {
    await renderPage({ newPassword: ['passwordMustDiffer'] });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Demo-Password-1!' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'Demo-Password-1!' },
    });
    fireEvent.submit(screen.getByRole('button', { name: 'Change password' }).closest('form')!);
    expect(await screen.findByText('The new password must be different from the current one.')).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
  });
});
