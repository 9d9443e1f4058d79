// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showUpdateToast } from './offline-worker.js';
import { PlatformToaster } from './platform-toaster.js';
import { showToast } from './toast-outlet.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('update toast (SPEC.md §1, §9)', () => {
  it('stays until Reload is used, while an ordinary toast leaves after 2000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The outlet mounts (and sonner loads) on the first request.
    render(<PlatformToaster theme="light" dir="ltr" />);
    const onReload = vi.fn();
    act(() => {
      showToast({ kind: 'success', message: 'Saved' });
      showUpdateToast(
        'A new version of Acme Identity is available, click on reload button to update.',
        'Reload',
        onReload,
      );
    });
    expect(await screen.findByText(/A new version of Acme Identity is available/)).toBeTruthy();
    expect(screen.getByText('Saved')).toBeTruthy();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.queryByText('Saved')).toBeNull();
    expect(screen.getByText(/A new version of Acme Identity/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledTimes(1);
  });
});

describe('passing toasts (SPEC.md §9: one at a time)', () => {
  it('a new one replaces the one shown instead of stacking behind it, and the update toast stays beside them', async () => {
    render(<PlatformToaster theme="light" dir="ltr" />);
    act(() => {
      showUpdateToast('A new version is available', 'Reload', () => undefined);
      showToast({ kind: 'success', message: 'Passkey has been deleted' });
    });
    expect(await screen.findByText('Passkey has been deleted')).toBeTruthy();
    act(() => showToast({ kind: 'error', message: 'Recovery codes have been created' }));
    expect(await screen.findByText('Recovery codes have been created')).toBeTruthy();
    expect(screen.queryByText('Passkey has been deleted')).toBeNull();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(2);
    expect(screen.getByText('A new version is available')).toBeTruthy();
  });
});

describe('toast requests from remotes', () => {
  it('shows a requestToast message in the outlet', async () => {
    const { requestToast } = await import('../events');
    const { useToastEvents } = await import('./use-toast-events.js');
    function Outlet() {
      useToastEvents();
      return <PlatformToaster theme="light" dir="ltr" />;
    }
    render(<Outlet />);
    act(() => requestToast({ kind: 'success', message: 'Device registered' }));
    expect(await screen.findByText('Device registered')).toBeTruthy();
  });
});
