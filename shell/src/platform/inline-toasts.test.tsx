// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { requestToast } from '../events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InlineToasts } from './inline-toasts.js';
import { showUpdateToast } from './offline-worker.js';
import { isToastOutletWanted, showToast } from './toast-outlet.js';
import { useToastEvents } from './use-toast-events.js';

/** A screen as wide as `width` CSS pixels, as far as `matchMedia('(max-width: …px)')` tells. */
function screenWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const maxWidth = Number(/max-width:\s*(\d+)px/.exec(query)?.[1] ?? Number.NaN);
    return { matches: width <= maxWidth, media: query } as MediaQueryList;
  });
}

function PhoneOutlet() {
  useToastEvents();
  return <InlineToasts />;
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a phone's toasts (ADR 0031)", () => {
  it('are lines of the page, not floating sonner toasts, and leave after 2000 ms (SPEC.md §9)', async () => {
    screenWidth(390);
    render(<InlineToasts />);
    act(() => showToast({ kind: 'info', message: 'This site is ready to open offline.' }));
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('This site is ready to open offline.');
    // sonner is not even loaded for a phone.
    expect(isToastOutletWanted()).toBe(false);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1900);
    });
    expect(screen.queryByText('This site is ready to open offline.')).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.queryByText('This site is ready to open offline.')).toBeNull();
  });

  it('hold their time while a pointer rests on them or focus is in them, and leave with what was left after', async () => {
    screenWidth(390);
    render(<InlineToasts />);
    act(() => showToast({ kind: 'info', message: 'This site is ready to open offline.' }));
    const toast = screen.getByText('This site is ready to open offline.').parentElement!;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    fireEvent.pointerEnter(toast);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.queryByText('This site is ready to open offline.')).not.toBeNull();
    fireEvent.pointerLeave(toast);
    fireEvent.focus(toast);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.queryByText('This site is ready to open offline.')).not.toBeNull();
    fireEvent.blur(toast);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(screen.queryByText('This site is ready to open offline.')).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.queryByText('This site is ready to open offline.')).toBeNull();
  });

  it('show what remotes ask for with requestToast', () => {
    screenWidth(360);
    render(<PhoneOutlet />);
    act(() => requestToast({ kind: 'success', message: 'Device registered' }));
    expect(screen.getByText('Device registered')).toBeTruthy();
    expect(isToastOutletWanted()).toBe(false);
  });

  it('keep the update prompt until Reload is used, and a second prompt does not stack', async () => {
    screenWidth(767);
    render(<InlineToasts />);
    const onReload = vi.fn();
    act(() => {
      showUpdateToast('A new version of Acme Identity is available.', 'Reload', vi.fn());
      showUpdateToast('A new version of Acme Identity is available.', 'Reload', onReload);
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.getAllByText('A new version of Acme Identity is available.')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('A new version of Acme Identity is available.')).toBeNull();
  });

  it('float in sonner again on a screen wider than the mobile breakpoint', () => {
    screenWidth(768);
    render(<InlineToasts />);
    act(() => showToast({ kind: 'info', message: 'Saved' }));
    expect(screen.queryByText('Saved')).toBeNull();
    expect(isToastOutletWanted()).toBe(true);
  });
});
