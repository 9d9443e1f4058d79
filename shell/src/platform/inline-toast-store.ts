import { TOAST_DURATION_MS } from 'shared-contracts';
import type { ShellToast } from './shell-toast.js';

/** A toast shown in the page's flow (a phone's toasts, ADR 0031), with the key that tells it apart. */
export interface InlineToast extends ShellToast {
  key: number;
}

let toasts: readonly InlineToast[] = [];
let nextKey = 1;
/** The running clock of each timed toast: what is left of its time and, while running, when it was (re)started. */
const clocks = new Map<number, { left: number; since: number | undefined; timer: number | undefined }>();
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Subscribes to the shown toasts changing (for `useSyncExternalStore`). */
export function subscribeInlineToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts shown now, oldest first; the same array until they change. */
export function inlineToasts(): readonly InlineToast[] {
  return toasts;
}

/** Takes a toast away (its time is up, or its action was used). */
export function dismissInlineToast(key: number): void {
  const clock = clocks.get(key);
  if (clock) window.clearTimeout(clock.timer);
  clocks.delete(key);
  const left = toasts.filter((toast) => toast.key !== key);
  if (left.length === toasts.length) return;
  toasts = left;
  emit();
}

/**
 * Shows a toast in the page's flow for its duration (SPEC.md §9: 2000 ms unless said otherwise; `Infinity` until
 * its action is used). A toast with the id of one shown takes its place, so a repeated update prompt does not stack.
 */
export function showInlineToast(toast: ShellToast): void {
  const shown: InlineToast = { ...toast, key: nextKey++ };
  const replaced = toast.id !== undefined && toasts.some((other) => other.id === toast.id);
  toasts = replaced ? toasts.map((other) => (other.id === toast.id ? shown : other)) : [...toasts, shown];
  emit();
  const duration = toast.duration ?? TOAST_DURATION_MS;
  if (Number.isFinite(duration)) {
    clocks.set(shown.key, { left: duration, since: undefined, timer: undefined });
    resumeInlineToast(shown.key);
  }
}

/**
 * Holds a toast's time while a pointer rests on it or focus is in it (WCAG 2.2.1, as sonner's corner toasts do):
 * nobody loses a message while reading it or reaching its button.
 */
export function pauseInlineToast(key: number): void {
  const clock = clocks.get(key);
  if (!clock || clock.since === undefined) return;
  window.clearTimeout(clock.timer);
  clock.left = Math.max(0, clock.left - (Date.now() - clock.since));
  clock.since = undefined;
  clock.timer = undefined;
}

/** Lets a held toast's time run again, from what was left of it. */
export function resumeInlineToast(key: number): void {
  const clock = clocks.get(key);
  if (!clock || clock.since !== undefined) return;
  clock.since = Date.now();
  clock.timer = window.setTimeout(() => dismissInlineToast(key), clock.left);
}
