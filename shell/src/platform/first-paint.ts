/**
 * Taking over the page the gateway already drew (docs/adr/0007-sign-in-first-paint.md). The first HTML of a
 * sign-in page holds the page rendered at build time from the remote's own components; the visitor may already be
 * typing in it. The app renders into a detached container, which then waits unseen beside the drawn page for a
 * frame; the task after it swaps it in, so there is no frame with a half-built page (no flash, no layout shift), and
 * hands over what the visitor typed and where the caret was.
 */

import { HELD_SUBMIT_ATTRIBUTE } from 'shared-contracts';
import { yieldToMain } from './yield-to-main';

/** Attribute of the root element when its content is a first paint (its value: the path it was drawn for). */
export const FIRST_PAINT_ATTRIBUTE = 'data-first-paint';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface CarriedControl {
  name: string;
  type: string;
  value: string;
  checked: boolean;
  changed: boolean;
}

function controlsOf(container: ParentNode): Control[] {
  return [...container.querySelectorAll<Control>('input[name], textarea[name], select[name]')];
}

function isCheckable(control: Control): control is HTMLInputElement {
  return control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');
}

function read(control: Control): CarriedControl {
  const checkable = isCheckable(control);
  const changed = checkable
    ? control.checked !== control.defaultChecked
    : control instanceof HTMLSelectElement
      ? [...control.options].some((o) => o.selected !== o.defaultSelected)
      : control.value !== control.defaultValue;
  return {
    name: control.name,
    type: control instanceof HTMLInputElement ? control.type : control.tagName.toLowerCase(),
    value: control.value,
    checked: checkable ? control.checked : false,
    changed,
  };
}

function find(container: ParentNode, carried: CarriedControl): Control | undefined {
  return controlsOf(container).find(
    (c) =>
      c.name === carried.name &&
      (c instanceof HTMLInputElement ? c.type : c.tagName.toLowerCase()) === carried.type &&
      (carried.type !== 'radio' || c.value === carried.value),
  );
}

/**
 * Sets a controlled input's value the way typing does: through the prototype's setter (React tracks the value on
 * the element itself) and an `input` event, so the component's onChange puts it in its state.
 */
function type(control: Control, value: string): void {
  const prototype = Object.getPrototypeOf(control) as object;
  const descriptor: { set?: (this: Control, value: string) => void } | undefined =
    Object.getOwnPropertyDescriptor(prototype, 'value');
  if (descriptor?.set) descriptor.set.call(control, value);
  else control.value = value;
  control.dispatchEvent(
    new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
  );
}

function hasPage(container: Element): boolean {
  return container.querySelector('main > *') !== null;
}

/**
 * Replaces the first paint in `root` by what `render` draws into a fresh container, once that holds a page, and
 * carries over changed form values, the focused field and its selection. Without a first paint it renders into
 * `root` directly. Returns the container the app lives in.
 *
 * The swap runs in a task of its own after the render's: the two together were the longest task of a sign-in
 * page's start (on a phone the render alone takes tens of milliseconds), and the swap (reading the drawn page's
 * fields, replacing the tree, focusing) adds a third to it. Before the swap the app's tree is staged for one frame
 * (`stage`), so its styles are not computed in the swap's task. Nothing is lost in between: the drawn page stays on
 * screen and keeps taking input, and the swap reads the fields when it runs.
 */
export function takeOverFirstPaint(
  root: HTMLElement,
  render: (container: HTMLElement) => void,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): Promise<HTMLElement> {
  if (!root.hasAttribute(FIRST_PAINT_ATTRIBUTE)) {
    render(root);
    return Promise.resolve(root);
  }
  const next = document.createElement(root.tagName);
  next.id = root.id;
  render(next);
  return new Promise((resolve) => {
    let swapped = false;
    const swap = () => {
      if (swapped) return;
      swapped = true;
      observer.disconnect();
      clearTimeout(timer);
      // Read and swap in one task: no keystroke can land between the two.
      const carried = controlsOf(root).map(read);
      const active = document.activeElement;
      const focused =
        active instanceof HTMLElement && root.contains(active) && 'name' in active
          ? carried.find((c) => c.name === (active as Control).name)
          : undefined;
      const selection =
        active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
          ? safeSelection(active)
          : undefined;
      if (next.isConnected) {
        // Staged beside the drawn page (below): it is already styled where it will stay.
        root.remove();
        next.removeAttribute('style');
        next.removeAttribute('aria-hidden');
      } else {
        root.replaceWith(next);
      }
      for (const control of carried) {
        if (!control.changed) continue;
        const target = find(next, control);
        if (!target) continue;
        if (isCheckable(target)) {
          if (target.checked !== control.checked) target.click();
        } else if (target.value !== control.value) {
          type(target, control.value);
        }
      }
      const target = focused ? find(next, focused) : undefined;
      if (target) {
        target.focus({ preventScroll: true });
        if (selection && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) {
          try {
            target.setSelectionRange(selection[0], selection[1]);
          } catch {
            // Inputs such as email refuse a selection range; the caret stays at the end.
          }
        }
      }
      resubmitHeld(next);
      resolve(next);
    };
    const swapAfterNextFrame = () => {
      observer.disconnect();
      stage(root, next);
      void afterNextFrame().then(swap);
    };
    const observer = new MutationObserver(() => {
      if (hasPage(next)) swapAfterNextFrame();
    });
    // A page that never arrives (a remote that cannot load shows its own page) still replaces the first paint.
    const timer = setTimeout(swap, timeoutMs);
    if (hasPage(next)) swapAfterNextFrame();
    else observer.observe(next, { childList: true, subtree: true });
  });
}

/**
 * Puts the app's tree right after the drawn page, unseen (no height, its overflow clipped, hidden from assistive
 * technology), so that the browser's next frame computes its styles and layout where it will stay. The swap then
 * only removes the drawn page and this styling: the focus it carries over no longer has the browser style the whole
 * new tree inside the swap's task (most of that task on a slow phone: 27–34 ms of a 33–44 ms swap at 4× CPU
 * throttling).
 */
function stage(root: HTMLElement, next: HTMLElement): void {
  next.style.height = '0';
  next.style.overflow = 'hidden';
  next.setAttribute('aria-hidden', 'true');
  root.after(next);
}

/** Resolves in a task after the browser's next frame (or after 100 ms where no frame comes, as in a hidden tab). */
function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(finish, 100);
    requestAnimationFrame(() => void yieldToMain().then(finish));
  });
}

/**
 * A submit the head script held while the first paint showed (no-flash.ts) goes again through the app's own form,
 * once React has the carried values in its state (the next task).
 */
function resubmitHeld(container: HTMLElement): void {
  const html = document.documentElement;
  const held = html.getAttribute(HELD_SUBMIT_ATTRIBUTE);
  if (held === null) return;
  html.removeAttribute(HELD_SUBMIT_ATTRIBUTE);
  const form = container.getElementsByTagName('form')[Number(held)];
  if (form) setTimeout(() => form.requestSubmit(), 0);
}

function safeSelection(control: HTMLInputElement | HTMLTextAreaElement): [number, number] | undefined {
  try {
    if (control.selectionStart === null || control.selectionEnd === null) return undefined;
    return [control.selectionStart, control.selectionEnd];
  } catch {
    return undefined;
  }
}

/** Resolves once a data router has run its first loaders (the page it shows first is ready to render). */
export function routerReady(router: {
  state: { initialized: boolean };
  subscribe: (listener: (state: { initialized: boolean }) => void) => () => void;
}): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
