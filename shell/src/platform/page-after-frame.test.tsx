// @vitest-environment jsdom
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { takeOverFirstPaint } from './first-paint.js';
import { PageAfterFrame, splitNextTakeoverRender } from './page-after-frame.js';

/** The frame with its main region, as app-layout.tsx draws it around the route's page. */
function App() {
  return (
    <div className="shell">
      <header>Header</header>
      <main>
        <PageAfterFrame>
          <form data-page="">Sign in</form>
        </PageAfterFrame>
      </main>
    </div>
  );
}

const roots: Root[] = [];

function renderApp(container: HTMLElement): void {
  const root = createRoot(container);
  roots.push(root);
  flushSync(() => root.render(<App />));
}

/** Lets the current task end and the tasks queued so far run. */
const nextTasks = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  for (const root of roots.splice(0)) root.unmount();
  document.body.innerHTML = '';
});

describe('PageAfterFrame', () => {
  it('draws the page in the same render when no takeover asked for a split', () => {
    const container = document.createElement('div');
    renderApp(container);
    expect(container.querySelector('form[data-page]')).not.toBeNull();
  });

  it('after splitNextTakeoverRender, draws the frame first and the page in a later task, once', async () => {
    splitNextTakeoverRender();
    const container = document.createElement('div');
    renderApp(container);
    expect(container.querySelector('header')).not.toBeNull();
    expect(container.querySelector('form[data-page]')).toBeNull();
    for (let i = 0; i < 50; i += 1) await Promise.resolve();
    expect(container.querySelector('form[data-page]')).toBeNull();
    await nextTasks();
    expect(container.querySelector('form[data-page]')).not.toBeNull();
    // Only the takeover's render splits: the next page draws at once.
    const later = document.createElement('div');
    renderApp(later);
    expect(later.querySelector('form[data-page]')).not.toBeNull();
  });

  it('with the takeover: the drawn page stays until the app holds the page, then the app is swapped in', async () => {
    document.body.innerHTML = `<div id="root" data-first-paint=""><main><form>Drawn</form></main></div>`;
    const drawn = document.getElementById('root')!;
    splitNextTakeoverRender();
    let container: HTMLElement | undefined;
    const taken = takeOverFirstPaint(drawn, (next) => {
      container = next;
      renderApp(next);
    });
    expect(container!.querySelector('header')).not.toBeNull();
    expect(document.getElementById('root')).toBe(drawn);
    expect(await taken).toBe(container);
    expect(document.getElementById('root')).toBe(container);
    expect(container!.querySelector('form[data-page]')).not.toBeNull();
  });
});
