// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import { ConfirmEmailChange } from './confirm-email-change';
import enGB from './locales/en-GB.json';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

const card = (id: string) => within(screen.getByTestId(id));

describe('the mailed link of an e-mail change', () => {
  it('confirms a new e-mail address in its card, which stays with the address in it', async () => {
    const gateway = stubGateway({ ConfirmEmailChange: () => Response.json({ email: 'new@example.com' }) });
    await renderWithProviders(<ConfirmEmailChange />, {
      path: '/account/?confirmEmail=abc',
      resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
      defaultNS: SECURITY_CENTRE_NS,
      fetch: gateway.fetch,
    });
    const status = card('confirm-email').getByRole('status');
    expect(status.textContent).toBe('');
    fireEvent.click(card('confirm-email').getByRole('button', { name: 'Confirm email address' }));
    await waitFor(() => expect(status.textContent).toBe('Your email address is now new@example.com.'));
    expect(card('confirm-email').queryByRole('button')).toBeNull();
    expect(document.activeElement).toBe(card('confirm-email').getByRole('heading'));
  });
});
