import { useLayoutEffect, useState, type ReactNode } from 'react';
import { yieldToMain } from './yield-to-main';

/** Set by the takeover of a drawn page until its render has split once (docs/adr/0007-sign-in-first-paint.md). */
let splitPending = false;

/**
 * The next render of {@link PageAfterFrame} draws the frame in one task and the page in the next. start-app.tsx
 * asks for it when it takes over a drawn page: the app's first render is then two tasks of about half the length
 * (the frame with its header; the page), where it was one, the longest of a sign-in page's start.
 */
export function splitNextTakeoverRender(): void {
  splitPending = true;
}

/**
 * The route's page inside the frame (app-layout.tsx). Behind a drawn page the first render leaves it out and
 * draws it in the task after, once; every other render draws it at once. Nothing shows in between: the takeover
 * swaps the app in only when its main region holds the page (first-paint.ts).
 */
export function PageAfterFrame({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(() => !splitPending);
  useLayoutEffect(() => {
    if (shown) return;
    splitPending = false;
    let mounted = true;
    void yieldToMain().then(() => {
      if (mounted) setShown(true);
    });
    return () => {
      mounted = false;
    };
  }, [shown]);
  return shown ? children : null;
}
