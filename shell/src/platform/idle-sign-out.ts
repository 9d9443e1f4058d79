import { useEffect, useRef, useState } from 'react';
import { navigateFull } from 'shared-contracts/api';
import { useSilentLogoutMutation } from './platform.api.js';

/** localStorage key of the last input in any tab of this site (epoch ms), so every tab sees the same idleness. */
export const ACTIVITY_KEY = 'idp.activity';
/** localStorage key set by the tab that signed out for inactivity, so the other tabs follow it there. */
export const IDLE_SIGNED_OUT_KEY = 'idp.idle-signed-out';
/** Web Locks name held by the tab that signs out for inactivity, so two tabs never ask at once. */
export const IDLE_SIGN_OUT_LOCK = 'idp.idle-sign-out';
/** Where an idle sign-out lands (SPEC.md §8 "You have been logged out due to inactivity."). */
export const INACTIVITY_PAGE = '/account/loggedout?reason=inactivity';

/** The warning shows this long before the sign-out (half the limit for limits under two minutes). */
export const WARN_BEFORE_MS = 60_000;

/** What counts as the person being there: input, not the page doing things by itself. */
const ACTIVITY_EVENTS = [
  'pointerdown',
  'pointermove',
  'keydown',
  'wheel',
  'touchstart',
  'scroll',
  'click',
] as const;
/**
 * While the warning shows, only a finished click or a key is an answer to it here. The pointer moving to "Stay signed
 * in", or pressing it, would otherwise close the dialog before the button is released, and the click would land on
 * whatever link lay under it.
 */
const ANSWERS_TO_A_WARNING: ReadonlySet<string> = new Set(['click', 'keydown']);
/** Other tabs learn of input at most this often (a storage write per mouse move would be waste). */
const SHARE_EVERY_MS = 5_000;

function readShared(storage: Storage | undefined, key: string): number {
  try {
    const value = Number(storage?.getItem(key));
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

function writeShared(storage: Storage | undefined, key: string, value: number): void {
  try {
    storage?.setItem(key, String(value));
  } catch {
    // Storage full or blocked: this tab still keeps its own timer.
  }
}

/** Options of {@link startIdleTracker}. */
export interface IdleTrackerOptions {
  /** Idle time after which {@link onIdle} runs. */
  limitMs: number;
  /** How long before the sign-out {@link onWarn} runs (0 or absent: no warning). */
  warnMs?: number;
  /** The sign-out is near: it happens at `signOutAt` (epoch ms) unless there is input. */
  onWarn?: (signOutAt: number) => void;
  /** Input after a warning (here or in another tab): the warning is over. */
  onActive?: () => void;
  /** Signs out (once); `lastInput` is the last input in any tab (epoch ms) that the limit ran from. */
  onIdle: (lastInput: number) => void;
  /** Another tab signed out for inactivity: follow it. */
  onSignedOutElsewhere: () => void;
  /**
   * When the limit starts to run (epoch ms; default: now). The shell loads this code only once someone is signed in,
   * so it passes the moment it saw them: the limit runs from there, not from when the code arrived.
   */
  startedAt?: number;
  target?: Window;
  storage?: Storage | undefined;
  now?: () => number;
}

/**
 * Watches input in this tab and, through localStorage, in every other tab of the site (ADR 0020): after `limitMs`
 * without input anywhere, `onIdle` runs once. localStorage (its `storage` event) rather than a BroadcastChannel:
 * the last activity is a value a tab opened later must also read, not only a message. Answers the stop function.
 */
export function startIdleTracker(options: IdleTrackerOptions): () => void {
  const target = options.target ?? window;
  const storage = options.storage ?? safeLocalStorage();
  const now = options.now ?? (() => Date.now());
  let last = options.startedAt ?? now();
  let shared = 0;
  let done = false;
  let warned = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const warnMs = Math.max(0, Math.min(options.warnMs ?? 0, options.limitMs));

  const share = (at: number) => {
    shared = at;
    writeShared(storage, ACTIVITY_KEY, at);
  };
  // Never back: another tab's later input stays the latest.
  share(Math.max(last, readShared(storage, ACTIVITY_KEY)));

  const check = () => {
    if (done) return;
    const latest = Math.max(last, readShared(storage, ACTIVITY_KEY));
    const left = latest + options.limitMs - now();
    if (left <= 0) {
      done = true;
      stop();
      options.onIdle(latest);
      return;
    }
    if (warnMs > 0 && left <= warnMs) {
      if (!warned) {
        warned = true;
        options.onWarn?.(latest + options.limitMs);
      }
      timer = setTimeout(check, left);
      return;
    }
    timer = setTimeout(check, left - warnMs);
  };

  const endWarning = () => {
    if (!warned) return;
    warned = false;
    options.onActive?.();
  };
  const onActivity = (event: Event) => {
    if (warned && !ANSWERS_TO_A_WARNING.has(event.type)) return;
    last = now();
    // A warning shows: this input is the answer, so every tab hears of it at once.
    if (warned || last - shared >= SHARE_EVERY_MS) share(last);
    endWarning();
  };
  const onStorage = (event: StorageEvent) => {
    // Input there ends the warning here; a write that does not move the sign-out out of the warning's time does not
    // (a tab whose tracker starts late shares when it saw the person, which may be before the warning began).
    if (event.key === ACTIVITY_KEY && Number(event.newValue) + options.limitMs - now() > warnMs) endWarning();
    if (event.key === IDLE_SIGNED_OUT_KEY && event.newValue && !done) {
      done = true;
      stop();
      options.onSignedOutElsewhere();
    }
  };

  function stop() {
    if (timer !== undefined) clearTimeout(timer);
    for (const name of ACTIVITY_EVENTS) target.removeEventListener(name, onActivity, true);
    target.removeEventListener('storage', onStorage);
  }

  for (const name of ACTIVITY_EVENTS)
    target.addEventListener(name, onActivity, { capture: true, passive: true });
  target.addEventListener('storage', onStorage);
  timer = setTimeout(check, Math.max(0, last + options.limitMs - warnMs - now()));
  return () => {
    done = true;
    stop();
  };
}

/**
 * The idle tab's SilentLogout, asked once more when refused. Another tab of the browser, idle since the same input,
 * may sign out in the same moment: its answer renews the session and anti-forgery cookies while this tab's call is
 * under way with the old token, so this one is refused (400) and the tab would stay on a page of a session that is
 * over. The second call carries the renewed token; SilentLogout of the now anonymous browser answers the same 209 to
 * the inactivity page, which the API client follows.
 */
export async function signOutIdle(silentLogout: () => Promise<unknown>): Promise<void> {
  try {
    await silentLogout();
  } catch {
    await silentLogout().catch(() => undefined);
  }
}

/** What {@link signOutIdleOnce} needs of the browser (the real one by default). */
export interface IdleSignOutDeps {
  storage?: Storage | undefined;
  /** Web Locks (`navigator.locks`); absent in a browser without them, where the tab asks without the lock. */
  locks?: Pick<LockManager, 'request'> | undefined;
  now?: () => number;
}

/**
 * The idle tab's sign-out, one tab of the browser at a time. Tabs idle since the same input reach their limit in the
 * same moment; if both asked, their answers would renew the session and anti-forgery cookies under each other (the
 * browser keeps one cookie jar for all tabs, so it may end with one answer's session and the other's token), and the
 * loser would stay on a page of a session that is over. So the tab holds a Web Lock while it asks. A tab that gets
 * the lock after another has signed out for the same idleness (the mark written after `lastInput`) follows it to the
 * inactivity page instead of asking again; its full load then carries the winner's renewed cookies.
 */
export async function signOutIdleOnce(
  lastInput: number,
  silentLogout: () => Promise<unknown>,
  follow: () => void,
  deps: IdleSignOutDeps = {},
): Promise<void> {
  const storage = 'storage' in deps ? deps.storage : safeLocalStorage();
  const locks = 'locks' in deps ? deps.locks : safeLocks();
  const now = deps.now ?? (() => Date.now());
  const turn = async () => {
    if (readShared(storage, IDLE_SIGNED_OUT_KEY) > lastInput) {
      follow();
      return;
    }
    writeShared(storage, IDLE_SIGNED_OUT_KEY, now());
    await signOutIdle(silentLogout);
  };
  if (!locks) return turn();
  let ran = false;
  // A lock that cannot be had (an opaque origin, say) must not keep the tab signed in: it asks without the lock.
  await locks
    .request(IDLE_SIGN_OUT_LOCK, () => {
      ran = true;
      return turn();
    })
    .catch(() => (ran ? undefined : turn()));
}

function safeLocks(): Pick<LockManager, 'request'> | undefined {
  try {
    return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : undefined;
  } catch {
    return undefined;
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The shell's idle sign-out (SilentLogout, ADR 0020), for a signed-in person whose partner sets `idleSignOutMinutes`
 * (the shell loads this module only then: `IdleSignOut`), the limit running from `since`. A minute before (half the
 * limit for short limits) it answers `signOutAt` for the warning dialog; any input ends the warning. When it fires,
 * SilentLogout ends the server and OIDC sessions and its 209 lands on the logged-out page with the inactivity
 * message; the other tabs follow.
 */
export function useIdleSignOut(minutes: number, since: number): { signOutAt: number | undefined } {
  const [signOutAt, setSignOutAt] = useState<number | undefined>(undefined);
  const [silentLogout] = useSilentLogoutMutation();
  const logout = useRef(silentLogout);
  logout.current = silentLogout;

  useEffect(() => {
    if (!(minutes > 0)) return undefined;
    const stop = startIdleTracker({
      limitMs: minutes * 60_000,
      warnMs: Math.min(WARN_BEFORE_MS, (minutes * 60_000) / 2),
      startedAt: since,
      onWarn: (at) => setSignOutAt(at),
      onActive: () => setSignOutAt(undefined),
      onIdle: (lastInput) => {
        setSignOutAt(undefined);
        // The API client follows the 209 to the logged-out page.
        void signOutIdleOnce(
          lastInput,
          () => logout.current().unwrap(),
          () => navigateFull(INACTIVITY_PAGE),
        );
      },
      onSignedOutElsewhere: () => navigateFull(INACTIVITY_PAGE),
    });
    return () => {
      stop();
      setSignOutAt(undefined);
    };
  }, [minutes, since]);
  return { signOutAt };
}
