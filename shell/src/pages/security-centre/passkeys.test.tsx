// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from './locales/en-GB.json';
import { PasskeysSection } from './passkeys';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

const LAPTOP = { id: 'AAAA', name: 'Work laptop', createdAt: Date.UTC(2026, 0, 5), lastUsedAt: null };

async function render(gateway = stubGateway({})) {
  const view = { passkeys: [LAPTOP] } as SecurityCentreView;
  await renderWithProviders(<PasskeysSection view={view} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  return gateway;
}

describe('passkeys in the security centre', () => {
  it('styles Delete as destructive, unlike Rename beside it', async () => {
    await render();
    const del = screen.getByRole('button', { name: 'Delete Work laptop' });
    const rename = screen.getByRole('button', { name: 'Rename Work laptop' });
    expect(del.className).toContain('hr-button--danger-outline');
    expect(rename.className).not.toContain('danger');
  });

  it('deletes only after a confirmation naming the passkey; Cancel deletes nothing', async () => {
    const gateway = await render(stubGateway({ DeletePasskey: () => Response.json({}) }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Work laptop' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the passkey ‘Work laptop’?' });
    expect(dialog.textContent).toContain('This cannot be undone');
    // Cancel is focused first, so Enter on the question does not delete.
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(gateway.calls.some((c) => c.call === 'DeletePasskey')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Work laptop' }));
    const confirm = screen.getByRole('button', { name: 'Delete passkey' });
    expect(confirm.className).toContain('hr-button--danger');
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(screen.getByTestId('passkeys-status').textContent).toBe('Deleted the passkey ‘Work laptop’.'),
    );
    expect(gateway.calls.find((c) => c.call === 'DeletePasskey')?.body).toEqual({ id: 'AAAA' });
  });

  it('says "Saved" in the card after a rename', async () => {
    await render(stubGateway({ RenamePasskey: () => Response.json({}) }));
    fireEvent.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    fireEvent.change(screen.getByLabelText('New name for Work laptop'), { target: { value: 'Old laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Saved: the passkey is now called ‘Old laptop’.'),
    );
  });
});
