// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_KEY, IDLE_SIGNED_OUT_KEY, signOutIdle, startIdleTracker } from './idle-sign-out.js';

const MINUTE = 60_000;

function track() {
  const onIdle = vi.fn();
  const onSignedOutElsewhere = vi.fn();
  const stop = startIdleTracker({ limitMs: MINUTE, onIdle, onSignedOutElsewhere });
  return { onIdle, onSignedOutElsewhere, stop };
}

/** What another tab's write looks like to this one: the storage event (the browser sends it to other tabs only). */
function otherTabWrites(key: string, value: number) {
  localStorage.setItem(key, String(value));
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: String(value) }));
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('idle sign-out tracker (ADR 0020)', () => {
  it('signs out once after the limit without input, and not before', () => {
    const { onIdle } = track();
    vi.advanceTimersByTime(MINUTE - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('input in this tab starts the minute again, and is shared with the other tabs', () => {
    const { onIdle } = track();
    vi.advanceTimersByTime(40_000);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    expect(Number(localStorage.getItem(ACTIVITY_KEY))).toBe(Date.now());
    vi.advanceTimersByTime(40_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('input in another tab counts here too', () => {
    const { onIdle } = track();
    vi.advanceTimersByTime(50_000);
    otherTabWrites(ACTIVITY_KEY, Date.now());
    vi.advanceTimersByTime(50_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('follows another tab that signed out for inactivity, and stops', () => {
    const { onIdle, onSignedOutElsewhere } = track();
    otherTabWrites(IDLE_SIGNED_OUT_KEY, Date.now());
    expect(onSignedOutElsewhere).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('warns before the sign-out, and input here or in another tab ends the warning', () => {
    const onIdle = vi.fn();
    const onWarn = vi.fn();
    const onActive = vi.fn();
    startIdleTracker({
      limitMs: MINUTE,
      warnMs: 20_000,
      onIdle,
      onWarn,
      onActive,
      onSignedOutElsewhere: vi.fn(),
    });
    vi.advanceTimersByTime(39_999);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledWith(Date.now() + 20_000);
    window.dispatchEvent(new PointerEvent('pointerdown'));
    expect(onActive).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(40_000);
    expect(onWarn).toHaveBeenCalledTimes(2);
    otherTabWrites(ACTIVITY_KEY, Date.now());
    expect(onActive).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(59_999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stopping (signed out, setting off) ends the timer and the listeners', () => {
    const { onIdle, onSignedOutElsewhere, stop } = track();
    stop();
    otherTabWrites(IDLE_SIGNED_OUT_KEY, Date.now());
    vi.advanceTimersByTime(5 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    expect(onSignedOutElsewhere).not.toHaveBeenCalled();
  });
});

describe('the idle sign-out call (ADR 0020)', () => {
  it('asks once when SilentLogout answers', async () => {
    const silentLogout = vi.fn(() => Promise.resolve({ redirected: true }));
    await signOutIdle(silentLogout);
    expect(silentLogout).toHaveBeenCalledTimes(1);
  });

  it('asks once more when refused: another tab signed out first and renewed the token under this call', async () => {
    const silentLogout = vi
      .fn<() => Promise<unknown>>()
      .mockRejectedValueOnce({ status: 400, data: { errors: { antiforgeryInvalid: [] } } })
      .mockResolvedValueOnce({ redirected: true });
    await signOutIdle(silentLogout);
    expect(silentLogout).toHaveBeenCalledTimes(2);
  });

  it('gives up quietly after the second refusal (the tab stays; no unhandled rejection)', async () => {
    const silentLogout = vi.fn(() => Promise.reject(new Error('offline')));
    await expect(signOutIdle(silentLogout)).resolves.toBeUndefined();
    expect(silentLogout).toHaveBeenCalledTimes(2);
  });
});
