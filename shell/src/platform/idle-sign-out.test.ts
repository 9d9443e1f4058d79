// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACTIVITY_KEY,
  IDLE_SIGNED_OUT_KEY,
  signOutIdle,
  signOutIdleOnce,
  startIdleTracker,
} from './idle-sign-out.js';

const MINUTE = 60_000;

/** A tracker that warns 20 s before the one-minute limit. */
function trackWithWarning() {
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
  return { onIdle, onWarn, onActive };
}

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

  // The shell loads the tracker once it sees someone signed in: the limit runs from that moment (startedAt), not
  // from when the code arrived, and a tab whose tracker starts late must not make the others wait longer.
  it('the limit runs from startedAt, not from when the tracker started', () => {
    const startedAt = Date.now();
    vi.advanceTimersByTime(20_000);
    const onIdle = vi.fn();
    startIdleTracker({ limitMs: MINUTE, startedAt, onIdle, onSignedOutElsewhere: vi.fn() });
    vi.advanceTimersByTime(40_000 - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledWith(startedAt);
  });

  it('a tracker that starts late never moves the shared last input back, nor on past its startedAt', () => {
    const startedAt = Date.now();
    vi.advanceTimersByTime(20_000);
    localStorage.setItem(ACTIVITY_KEY, String(startedAt + 10_000));
    startIdleTracker({ limitMs: MINUTE, startedAt, onIdle: vi.fn(), onSignedOutElsewhere: vi.fn() });
    expect(Number(localStorage.getItem(ACTIVITY_KEY))).toBe(startedAt + 10_000);
    localStorage.clear();
    startIdleTracker({ limitMs: MINUTE, startedAt, onIdle: vi.fn(), onSignedOutElsewhere: vi.fn() });
    expect(Number(localStorage.getItem(ACTIVITY_KEY))).toBe(startedAt);
  });

  it('follows another tab that signed out for inactivity, and stops', () => {
    const { onIdle, onSignedOutElsewhere } = track();
    otherTabWrites(IDLE_SIGNED_OUT_KEY, Date.now());
    expect(onSignedOutElsewhere).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('warns before the sign-out, and input here or in another tab ends the warning', () => {
    const { onIdle, onWarn, onActive } = trackWithWarning();
    vi.advanceTimersByTime(39_999);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledWith(Date.now() + 20_000);
    window.dispatchEvent(new MouseEvent('click'));
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

  it('a tab that starts late, sharing when it saw the person, does not end the warning here', () => {
    const { onIdle, onWarn, onActive } = trackWithWarning();
    const seenElsewhere = Date.now() + 2_000;
    vi.advanceTimersByTime(45_000);
    expect(onWarn).toHaveBeenCalledTimes(1);
    // Its tracker's code arrived now; it shares the moment it saw the person, 43 s ago, before the warning began.
    otherTabWrites(ACTIVITY_KEY, seenElsewhere);
    expect(onActive).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    otherTabWrites(ACTIVITY_KEY, Date.now());
    expect(onActive).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('while the warning shows, only a click or a key here answers it: moving to the button or pressing it does not', () => {
    const { onIdle, onActive } = trackWithWarning();
    vi.advanceTimersByTime(40_000);
    // The pointer on its way to "Stay signed in", then pressed: the dialog must still be there when it is released.
    for (const type of ['pointermove', 'pointerdown', 'wheel', 'touchstart', 'scroll'])
      window.dispatchEvent(new Event(type));
    expect(onActive).not.toHaveBeenCalled();
    window.dispatchEvent(new MouseEvent('click'));
    expect(onActive).toHaveBeenCalledTimes(1);
    // Without a warning, any input counts again: the minute starts over from this move.
    vi.advanceTimersByTime(30_000);
    window.dispatchEvent(new Event('pointermove'));
    vi.advanceTimersByTime(59_999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('a key answers the warning too', () => {
    const { onActive } = trackWithWarning();
    vi.advanceTimersByTime(40_000);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(onActive).toHaveBeenCalledTimes(1);
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

/** A Web Locks stand-in for jsdom (which has none): one holder at a time, the others in order. */
function fakeLocks() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request: ((_name: string, task: () => Promise<unknown>) => {
      const run = tail.then(() => task());
      tail = run.catch(() => undefined);
      return run;
    }) as unknown as LockManager['request'],
  };
}

describe('one tab signs out, the others follow (ADR 0020)', () => {
  it('two tabs idle since the same input: the first asks, the second follows without asking', async () => {
    const locks = fakeLocks();
    let answer!: () => void;
    const firstLogout = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    const secondLogout = vi.fn(() => Promise.resolve());
    const firstFollows = vi.fn();
    const secondFollows = vi.fn();
    const lastInput = 1_000;
    const first = signOutIdleOnce(lastInput, firstLogout, firstFollows, {
      storage: localStorage,
      locks,
      now: () => 61_000,
    });
    const second = signOutIdleOnce(lastInput, secondLogout, secondFollows, {
      storage: localStorage,
      locks,
      now: () => 61_000,
    });
    await vi.waitFor(() => expect(firstLogout).toHaveBeenCalledTimes(1));
    // While the first tab's call is under way the second waits: no second call to race its cookies.
    expect(secondLogout).not.toHaveBeenCalled();
    expect(secondFollows).not.toHaveBeenCalled();
    answer();
    await Promise.all([first, second]);
    expect(secondLogout).not.toHaveBeenCalled();
    expect(secondFollows).toHaveBeenCalledTimes(1);
    expect(firstFollows).not.toHaveBeenCalled();
    expect(localStorage.getItem(IDLE_SIGNED_OUT_KEY)).toBe('61000');
  });

  it('an earlier idle sign-out (before the last input) is not followed: this tab asks itself', async () => {
    localStorage.setItem(IDLE_SIGNED_OUT_KEY, '500');
    const silentLogout = vi.fn(() => Promise.resolve());
    const follow = vi.fn();
    await signOutIdleOnce(1_000, silentLogout, follow, {
      storage: localStorage,
      locks: fakeLocks(),
      now: () => 61_000,
    });
    expect(silentLogout).toHaveBeenCalledTimes(1);
    expect(follow).not.toHaveBeenCalled();
  });

  it('asks without the lock where the browser has none, or refuses it', async () => {
    const silentLogout = vi.fn(() => Promise.resolve());
    await signOutIdleOnce(1_000, silentLogout, vi.fn(), {
      storage: localStorage,
      locks: undefined,
      now: () => 61_000,
    });
    expect(silentLogout).toHaveBeenCalledTimes(1);
    localStorage.clear();
    const refusing = {
      request: (() =>
        Promise.reject(new DOMException('no', 'SecurityError'))) as unknown as LockManager['request'],
    };
    await signOutIdleOnce(1_000, silentLogout, vi.fn(), {
      storage: localStorage,
      locks: refusing,
      now: () => 61_000,
    });
    expect(silentLogout).toHaveBeenCalledTimes(2);
  });

  it('the tracker passes the last input in any tab to the sign-out', () => {
    const onIdle = vi.fn();
    vi.setSystemTime(10_000);
    startIdleTracker({ limitMs: MINUTE, onIdle, onSignedOutElsewhere: vi.fn() });
    vi.advanceTimersByTime(20_000);
    otherTabWrites(ACTIVITY_KEY, 30_000);
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onIdle).toHaveBeenCalledWith(30_000);
  });
});
