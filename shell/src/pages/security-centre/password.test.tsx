// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, type SecurityCentreView } from 'shared-contracts';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import enGB from './locales/en-GB.json';
import { PasswordSection } from './password';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

/** A view with only what the section reads filled in: the rules, and the names the meter must not reward. */
const VIEW = {
  profile: { userName: 'edupont', displayName: 'Émilie Dupont', email: 'emilie@example.com' },
  passwordRules: { ...DEFAULT_PASSWORD_RULES, minLength: 10 },
} as SecurityCentreView;

async function renderCentre(answers: StubAnswers) {
  const gateway = stubGateway(answers);
  await renderWithProviders(<PasswordSection view={VIEW} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  await screen.findByTestId('password');
  return gateway;
}

const card = (id: string) => within(screen.getByTestId(id));

describe('the password card', () => {
  const fields = () => ({
    current: card('password').getByLabelText<HTMLInputElement>('Current password'),
    fresh: card('password').getByLabelText<HTMLInputElement>('New password'),
    confirm: card('password').getByLabelText<HTMLInputElement>('Confirm new password'),
  });

  it('has the expired-password page’s field: rules marked as one types, the meter, Show on current and new', async () => {
    await renderCentre({});
    const { current, fresh, confirm } = fields();
    const rule = () => card('password').getByText('Password must be at least 10 characters.').closest('li')!;
    expect(rule().textContent).toBe('✗Not met: Password must be at least 10 characters.');
    fireEvent.change(fresh, { target: { value: 'Lantern-Orchid-47!' } });
    expect(rule().textContent).toBe('✓Met: Password must be at least 10 characters.');
    expect(await card('password').findByText(/^Password strength: /)).toBeTruthy();
    const [showCurrent, showNew] = card('password').getAllByRole('button', { name: 'Show password' });
    fireEvent.click(showCurrent!);
    expect([current.type, fresh.type, confirm.type]).toEqual(['text', 'password', 'password']);
    fireEvent.click(showNew!);
    expect([current.type, fresh.type, confirm.type]).toEqual(['text', 'text', 'text']);
  });

  it('keeps what was typed when the change is refused, with the error under its field; empties the fields once done', async () => {
    let refuse = true;
    const { calls } = await renderCentre({
      ChangePassword: () =>
        refuse ? fieldError('currentPassword', 'currentPasswordIncorrect') : Response.json({}),
    });
    const { current, fresh, confirm } = fields();
    fireEvent.change(current, { target: { value: 'not the password' } });
    fireEvent.change(fresh, { target: { value: 'Lantern-Orchid-47!' } });
    fireEvent.change(confirm, { target: { value: 'Lantern-Orchid-47!' } });
    fireEvent.click(card('password').getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${current.id}-errors`)?.textContent).toBe(
      'The current password is incorrect.',
    );
    expect([current.value, fresh.value, confirm.value]).toEqual([
      'not the password',
      'Lantern-Orchid-47!',
      'Lantern-Orchid-47!',
    ]);
    expect(document.activeElement).toBe(current);
    expect(card('password').getByTestId('password-result').textContent).toBe('');

    refuse = false;
    fireEvent.change(current, { target: { value: 'the-old-one-1' } });
    fireEvent.click(card('password').getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(card('password').getByTestId('password-result').textContent).toBe(
        'Password changed. Your other devices were signed out.',
      ),
    );
    expect([current.value, fresh.value, confirm.value]).toEqual(['', '', '']);
    expect(calls.filter((c) => c.call === 'ChangePassword').map((c) => c.body)).toEqual([
      {
        currentPassword: 'not the password',
        newPassword: 'Lantern-Orchid-47!',
        confirmPassword: 'Lantern-Orchid-47!',
      },
      {
        currentPassword: 'the-old-one-1',
        newPassword: 'Lantern-Orchid-47!',
        confirmPassword: 'Lantern-Orchid-47!',
      },
    ]);
  });

  it('sends nothing while the new password breaks a rule or the two differ', async () => {
    const { calls } = await renderCentre({ ChangePassword: () => Response.json({}) });
    const { current, fresh, confirm } = fields();
    fireEvent.change(current, { target: { value: 'the-old-one-1' } });
    fireEvent.change(fresh, { target: { value: 'short' } });
    fireEvent.change(confirm, { target: { value: 'other' } });
    fireEvent.click(card('password').getByRole('button', { name: 'Change password' }));
    expect(card('password').getByText('Password does not meet the requirements.')).toBeTruthy();
    expect(card('password').getByText('Passwords must match.')).toBeTruthy();
    expect(document.activeElement).toBe(fresh);
    expect(calls.filter((c) => c.call === 'ChangePassword')).toEqual([]);
  });
});
