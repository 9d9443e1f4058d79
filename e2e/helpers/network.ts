/**
 * The page's network traffic as the browser sees it, for specs that judge a page once its late work is done
 * (lazy chunks, the logo, effects that call the API) rather than after a fixed pause.
 */
import { expect, type Page, type Request } from '@playwright/test';

/** What {@link watchNetwork} gives. */
export interface NetworkWatch {
  /** The URLs of the requests still in flight. */
  inFlight(): string[];
  /**
   * Waits until no request of the page is in flight and none started or ended for `quietMs` (default 250): the
   * page has nothing more to load or ask for on its own. Fails (expect timeout) when the page never settles.
   */
  settled(quietMs?: number): Promise<void>;
}

/** Starts watching the page's requests (every frame and worker request Playwright reports for the page). */
export function watchNetwork(page: Page): NetworkWatch {
  const pending = new Set<Request>();
  let lastChange = Date.now();
  page.on('request', (request) => {
    pending.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    pending.delete(request);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  const inFlight = () => [...pending].map((request) => request.url());
  return {
    inFlight,
    async settled(quietMs = 250) {
      await expect
        .poll(() => (pending.size === 0 && Date.now() - lastChange >= quietMs ? [] : inFlight()), {
          message: 'the page settles (no request in flight)',
          intervals: [50],
        })
        .toEqual([]);
    },
  };
}
