// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_PAINT_ATTRIBUTE, takeOverFirstPaint } from './first-paint.js';

const DRAWN = `<main><form method="post"><input name="username"><input name="password" type="password"><input name="rememberMe" type="checkbox"></form></main>`;

/** A root as the gateway draws it (or an empty one without a first paint). */
function drawnRoot(firstPaint = true): HTMLElement {
  document.body.innerHTML = `<div id="root" ${firstPaint ? `${FIRST_PAINT_ATTRIBUTE}=""` : ''}>${firstPaint ? DRAWN : ''}</div>`;
  return document.getElementById('root')!;
}

/** What the app draws: the same form, its values held as React holds them (here: in `typed`). */
function renderApp(typed: Record<string, string>) {
  return (container: HTMLElement) => {
    container.innerHTML = DRAWN.replace('<form', '<form data-app=""');
    for (const input of container.querySelectorAll('input')) {
      input.addEventListener('input', () => (typed[input.name] = input.value));
    }
  };
}

/** Lets the current task end and the tasks queued so far run. */
const nextTasks = () => new Promise((resolve) => setTimeout(resolve, 10));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('takeOverFirstPaint', () => {
  it('renders straight into a root that holds no first paint', async () => {
    const root = drawnRoot(false);
    const container = await takeOverFirstPaint(root, renderApp({}));
    expect(container).toBe(root);
    expect(root.querySelector('form[data-app]')).not.toBeNull();
  });

  it('keeps the drawn page until a task after the render, then swaps in the app', async () => {
    const root = drawnRoot();
    let rendered = false;
    const taken = takeOverFirstPaint(root, (container) => {
      renderApp({})(container);
      rendered = true;
    });
    expect(rendered).toBe(true);
    // Still the render's task (microtasks included): the drawn page is what shows.
    await Promise.resolve();
    expect(document.getElementById('root')).toBe(root);
    const container = await taken;
    expect(container).not.toBe(root);
    expect(document.getElementById('root')).toBe(container);
    expect(container.querySelector('form[data-app]')).not.toBeNull();
    expect(root.isConnected).toBe(false);
  });

  it('stages the app unseen beside the drawn page for a frame, and unstages it in the swap', async () => {
    const root = drawnRoot();
    const taken = takeOverFirstPaint(root, renderApp({}));
    // After the render's task the app's tree waits right after the drawn page, styled by the next frame, not shown.
    await Promise.resolve();
    const staged = root.nextElementSibling as HTMLElement;
    expect(staged?.querySelector('form[data-app]')).not.toBeNull();
    expect(staged.getAttribute('aria-hidden')).toBe('true');
    expect([staged.style.height, staged.style.overflow]).toEqual(['0px', 'hidden']);
    expect(document.getElementById('root')).toBe(root);
    const container = await taken;
    expect(container).toBe(staged);
    expect(document.querySelectorAll('#root')).toHaveLength(1);
    expect(container.hasAttribute('style')).toBe(false);
    expect(container.hasAttribute('aria-hidden')).toBe(false);
  });

  it('carries what was typed between the render and the swap, and the focus with its caret', async () => {
    const root = drawnRoot();
    const typed: Record<string, string> = {};
    const taken = takeOverFirstPaint(root, renderApp(typed));
    // The visitor types into the drawn page after the app has rendered, before the swap.
    const username = root.querySelector<HTMLInputElement>('input[name="username"]')!;
    username.value = 'employee';
    username.focus();
    username.setSelectionRange(2, 4);
    root.querySelector<HTMLInputElement>('input[name="rememberMe"]')!.checked = true;
    const container = await taken;
    const carried = container.querySelector<HTMLInputElement>('input[name="username"]')!;
    expect(carried.value).toBe('employee');
    expect(typed.username).toBe('employee');
    expect(document.activeElement).toBe(carried);
    expect([carried.selectionStart, carried.selectionEnd]).toEqual([2, 4]);
    expect(container.querySelector<HTMLInputElement>('input[name="rememberMe"]')!.checked).toBe(true);
    expect(typed.password).toBeUndefined();
  });

  it('waits for a page that the app draws later, and swaps once', async () => {
    const root = drawnRoot();
    let later: HTMLElement | undefined;
    const taken = takeOverFirstPaint(root, (container) => (later = container));
    await nextTasks();
    expect(document.getElementById('root')).toBe(root);
    renderApp({})(later!);
    later!.querySelector('form')!.append(document.createElement('span'));
    const container = await taken;
    expect(container).toBe(later);
    await nextTasks();
    expect(document.querySelectorAll('#root')).toHaveLength(1);
    expect(document.getElementById('root')).toBe(later);
  });

  it('replaces the drawn page after the timeout when the app never draws one', async () => {
    const root = drawnRoot();
    const container = await takeOverFirstPaint(root, () => undefined, { timeoutMs: 20 });
    expect(document.getElementById('root')).toBe(container);
    expect(root.isConnected).toBe(false);
  });
});
