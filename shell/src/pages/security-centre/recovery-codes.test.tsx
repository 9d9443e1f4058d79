// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from './locales/en-GB.json';
import { RecoveryCodesSection } from './recovery-codes';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const CODES = Array.from({ length: 10 }, (_, i) => `code-${i}-abcd`);

function viewWith(remaining: number): SecurityCentreView {
  return {
    profile: { userName: 'ann', displayName: 'Ann', email: 'ann@example.com', pendingEmail: null },
    twoStep: { methods: [{ method: 'authenticator', isDefault: true }], required: false },
    recoveryCodes: { remaining },
  } as unknown as SecurityCentreView;
}

async function render(remaining: number) {
  const gateway = stubGateway({ RegenerateRecoveryCodes: () => Response.json({ codes: CODES }) });
  await renderWithProviders(<RecoveryCodesSection view={viewWith(remaining)} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  return gateway;
}

const made = (gateway: ReturnType<typeof stubGateway>) =>
  gateway.calls.filter((c) => c.call === 'RegenerateRecoveryCodes').length;

describe('recovery codes in the security centre', () => {
  it.each([
    [0, 'You have no recovery codes left. Create new ones'],
    [1, 'Only 1 recovery code left. Create new ones'],
    [2, 'Only 2 recovery codes left. Create new ones'],
  ])('warns in words (an alert, not colour alone) when %i are left', async (remaining, text) => {
    await render(remaining);
    expect(screen.getByRole('alert').textContent).toContain(text);
  });

  it('does not warn with 3 left', async () => {
    await render(3);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('You have 3 recovery codes left.')).toBeTruthy();
  });

  it('asks before the old codes die, naming how many; Cancel makes none', async () => {
    const gateway = await render(7);
    fireEvent.click(screen.getByRole('button', { name: 'Create new recovery codes' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Create new recovery codes?' });
    expect(dialog.textContent).toContain('Your 7 remaining recovery codes will stop working at once.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(made(gateway)).toBe(0);
    expect(screen.queryByRole('list', { name: 'Your new recovery codes' })).toBeNull();
  });

  it('shows a new set with Copy, Download and Print, and says so in the card', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const print = vi.fn(() =>
      // The page prints only the codes while the attribute is set.
      expect(document.documentElement.hasAttribute('data-hr-print-recovery-codes')).toBe(true),
    );
    window.print = print;
    const gateway = await render(7);
    fireEvent.click(screen.getByRole('button', { name: 'Create new recovery codes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create new codes' }));
    const list = await screen.findByRole('list', { name: 'Your new recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(made(gateway)).toBe(1);
    expect(screen.getByTestId('recovery-codes-status').textContent).toBe(
      'New recovery codes created. The old ones no longer work.',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Copy codes' }));
    await waitFor(() => expect(screen.getByText('Codes copied to the clipboard.')).toBeTruthy());
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));

    fireEvent.click(screen.getByRole('button', { name: 'Print codes' }));
    expect(print).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.documentElement.hasAttribute('data-hr-print-recovery-codes')).toBe(false);

    expect(screen.getByRole('button', { name: 'Download as text file' })).toBeTruthy();
  });

  it('makes a new set without a question when none is left (nothing dies)', async () => {
    const gateway = await render(0);
    fireEvent.click(screen.getByRole('button', { name: 'Create new recovery codes' }));
    await screen.findByRole('list', { name: 'Your new recovery codes' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(made(gateway)).toBe(1);
  });
});
