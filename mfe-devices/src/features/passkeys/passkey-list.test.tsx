import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { DeviceList } from './device-list';

afterEach(cleanup);

const LAPTOP = { id: 'AAAA', name: 'Work laptop', createdAt: Date.UTC(2026, 0, 5), lastUsedAt: null };

async function renderList(answers: Parameters<typeof stubGateway>[0]) {
  const gateway = stubGateway({ Devices: () => Response.json({ devices: [LAPTOP] }), ...answers });
  await renderWithProviders(<DeviceList />, {
    path: '/account/registerdevice',
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-devices': enGB } },
  });
  return gateway.calls;
}

describe('DeviceList', () => {
  it('lists the devices with when they were added and last used, and renames one', async () => {
    const calls = await renderList({
      RenameDevice: () => Response.json({ devices: [{ ...LAPTOP, name: 'Old laptop' }] }),
    });
    expect(await screen.findByText('Work laptop')).toBeTruthy();
    expect(screen.getByText('Added 5 Jan 2026 · not used yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    fireEvent.change(screen.getByLabelText('New name for Work laptop'), { target: { value: 'Old laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Old laptop')).toBeTruthy();
    expect(calls.find((c) => c.call === 'RenameDevice')?.body).toEqual({ id: 'AAAA', name: 'Old laptop' });
  });

  it.each([
    ['403 recentSignInRequired', 403, 'recentSignInRequired'],
    ['the older 400 reauthenticationRequired', 400, 'reauthenticationRequired'],
  ])(
    'offers "Sign in again" when the server wants a recent sign-in first (S21: %s), and keeps the device',
    async (_name, status, code) => {
      await renderList({
        RemoveDevice: () => Response.json({ title: 'x', errors: { '': [code] } }, { status }),
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
      fireEvent.click(screen.getByRole('button', { name: 'Remove passkey' }));
      expect(
        await screen.findByText('For your security, sign in again before you change your passkeys.'),
      ).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Sign in again' })).toBeTruthy();
      await waitFor(() => expect(screen.getByText('Work laptop')).toBeTruthy());
    },
  );

  it('removes a device only once the confirmation naming it is accepted, and says so in the card', async () => {
    const calls = await renderList({ RemoveDevice: () => Response.json({ devices: [] }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove the passkey ‘Work laptop’?' });
    expect(dialog.textContent).toContain('You will no longer be able to sign in with it.');
    expect(calls.some((c) => c.call === 'RemoveDevice')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Removed the passkey ‘Work laptop’.');
    expect(calls.filter((c) => c.call === 'RemoveDevice')).toHaveLength(1);
  });

  it('keeps the device when the confirmation is cancelled', async () => {
    const calls = await renderList({ RemoveDevice: () => Response.json({ devices: [] }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('Work laptop')).toBeTruthy();
    expect(calls.some((c) => c.call === 'RemoveDevice')).toBe(false);
  });
});
