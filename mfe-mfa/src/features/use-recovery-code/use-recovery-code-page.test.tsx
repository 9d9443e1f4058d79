import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldError, renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { UseRecoveryCodePage } from './use-recovery-code-page';

afterEach(cleanup);

describe('UseRecoveryCodePage', () => {
  it('sends the recovery code as typed and shows the field error', async () => {
    const gateway = stubGateway({
      LoginWithRecoveryCodeView: () => Response.json({ codeLength: 12 }),
      LoginWithRecoveryCode: () => fieldError('recoveryCode', 'invalidCode'),
    });
    await renderWithProviders(<UseRecoveryCodePage />, {
      path: '/account/login/recoverycode?returnUrl=%2F',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    const field = await screen.findByLabelText('Recovery code');
    // Recovery codes have letters: here, and only here, the hint says spaces and case do not matter (issue 43).
    expect(
      await screen.findByText("12 letters and digits; spaces, dashes and case don't matter."),
    ).toBeTruthy();
    fireEvent.change(field, { target: { value: 'abcd efgh jkmn' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(gateway.calls.find((c) => c.call === 'LoginWithRecoveryCode')?.body).toEqual({
      recoveryCode: 'abcd efgh jkmn',
    });
  });
});
