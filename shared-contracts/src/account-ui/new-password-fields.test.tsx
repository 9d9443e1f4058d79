// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, type PasswordRules } from '../password-rules.js';
import { NewPasswordFields, type NewPasswordStrings } from './new-password-fields.js';
import { PasswordField } from './password-field.js';

afterEach(cleanup);

const RULES: PasswordRules = { ...DEFAULT_PASSWORD_RULES, minLength: 10, requireCharacterClasses: true };

/** Words a page would pass; rule texts are the codes themselves, so the test reads which rule is which. */
const STRINGS: NewPasswordStrings = {
  newLabel: 'New password',
  confirmLabel: 'Confirm new password',
  show: 'Show',
  hide: 'Hide',
  showLabel: 'Show password',
  hideLabel: 'Hide password',
  rulesHeading: 'Your new password must meet these rules:',
  met: 'Met:',
  notMet: 'Not met:',
  allMet: 'All password rules are met.',
  someMet: (met, total) => `${met} of ${total} password rules met.`,
  rule: (message) => message,
  strength: (score) => `Strength ${score} of 4`,
};

function Harness() {
  const [values, setValues] = useState({ newPassword: '', confirmPassword: '' });
  return (
    <NewPasswordFields
      rules={RULES}
      strings={STRINGS}
      form={{
        values,
        onChange: (name) => (event) => setValues((was) => ({ ...was, [name]: event.target.value })),
        errorsOf: () => [],
      }}
    />
  );
}

const marks = () =>
  within(document.querySelector('.hr-password-rules')!)
    .getAllByRole('listitem')
    .map((item) => `${item.getAttribute('data-met')} ${item.textContent}`);

describe('NewPasswordFields', () => {
  it('lists the rules before anything is typed, none met, and marks each as the person types', () => {
    render(<Harness />);
    expect(marks()).toEqual([
      'false ✗Not met: passwordTooShort|{"n":10}',
      'false ✗Not met: passwordTooLong|{"n":256}',
      'false ✗Not met: passwordCharacterClasses',
    ]);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'abc' } });
    expect(marks()).toEqual([
      'false ✗Not met: passwordTooShort|{"n":10}',
      'true ✓Met: passwordTooLong|{"n":256}',
      'false ✗Not met: passwordCharacterClasses',
    ]);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Abcdefgh-12' } });
    expect(marks().every((mark) => mark.startsWith('true ✓Met:'))).toBe(true);
    // The list is the field's description, read with it.
    const field = screen.getByLabelText('New password');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toContain(
      'Your new password must meet these rules:',
    );
  });

  it('one Show button reveals and hides both the new password and its confirmation', () => {
    render(<Harness />);
    const fresh = screen.getByLabelText('New password');
    const confirm = screen.getByLabelText('Confirm new password');
    expect([fresh.getAttribute('type'), confirm.getAttribute('type')]).toEqual(['password', 'password']);
    const show = screen.getByRole('button', { name: 'Show password' });
    expect(show.textContent).toBe('Show');
    expect(show.getAttribute('aria-controls')).toBe(`${fresh.id} ${confirm.id}`);
    fireEvent.click(show);
    expect([fresh.getAttribute('type'), confirm.getAttribute('type')]).toEqual(['text', 'text']);
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect([fresh.getAttribute('type'), confirm.getAttribute('type')]).toEqual(['password', 'password']);
  });

  it('shows the strength meter once something is typed', async () => {
    render(<Harness />);
    expect(document.querySelector('.hr-strength')?.textContent).toBe('');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'password' } });
    // The estimator is a chunk of its own, loaded on the first character: allow for a slow machine.
    expect(await screen.findByText('Strength 0 of 4', {}, { timeout: 10_000 })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('New password'), {
      target: { value: 'violet tractor under a paper moon' },
    });
    await waitFor(() => expect(screen.getByText('Strength 4 of 4')).toBeTruthy(), { timeout: 10_000 });
  });
});

describe('PasswordField', () => {
  it('has its own Show button for one input', () => {
    render(<PasswordField label="Current password" strings={STRINGS} value="" onChange={() => undefined} />);
    const input = screen.getByLabelText('Current password');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-controls')).toBe(
      input.id,
    );
  });
});
