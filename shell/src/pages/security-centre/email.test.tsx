// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import { EmailSection } from './email';
import enGB from './locales/en-GB.json';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

/** A view with only what the section reads filled in. */
function viewWith(profile: Partial<SecurityCentreView['profile']> = {}): SecurityCentreView {
  return {
    profile: { userName: 'edupont', displayName: 'Émilie Dupont', email: 'emilie@example.com', ...profile },
  } as SecurityCentreView;
}

async function render(view: SecurityCentreView, answers: StubAnswers = {}) {
  const gateway = stubGateway(answers);
  await renderWithProviders(<EmailSection view={view} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  return gateway;
}

const card = () => within(screen.getByTestId('email'));

describe('the e-mail card', () => {
  it('names the current address and the one waiting for its link', async () => {
    await render(viewWith({ pendingEmail: 'new@example.com' }));
    expect(card().getByText('Your email address is emilie@example.com.')).toBeTruthy();
    expect(card().getByTestId('pending-email').textContent).toContain('new@example.com');
  });

  it('sends the new address, empties the field and says where the link went, in the card', async () => {
    const { calls } = await render(viewWith(), { RequestEmailChange: () => Response.json({}) });
    const field = card().getByLabelText<HTMLInputElement>('New email address');
    fireEvent.change(field, { target: { value: 'new@example.com' } });
    fireEvent.click(card().getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() =>
      expect(card().getByTestId('email-result').textContent).toBe('Link sent to new@example.com.'),
    );
    expect(field.value).toBe('');
    expect(calls.filter((c) => c.call === 'RequestEmailChange').map((c) => c.body)).toEqual([
      { email: 'new@example.com' },
    ]);
  });

  it('keeps what was typed when the address is refused, with the error under the field', async () => {
    await render(viewWith(), { RequestEmailChange: () => fieldError('email', 'emailUnchanged') });
    const field = card().getByLabelText<HTMLInputElement>('New email address');
    fireEvent.change(field, { target: { value: 'emilie@example.com' } });
    fireEvent.click(card().getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(field.value).toBe('emilie@example.com');
    expect(card().getByTestId('email-result').textContent).toBe('');
  });
});
