/** Cumulative layout shift as Chromium reports it, counted from the first paint of every page a target opens. */
import type { BrowserContext, Page } from '@playwright/test';

/** Starts counting layout shifts without recent input in every document `target` (a page or a context) loads. */
export async function watchLayoutShifts(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift counted so far in the page's current document (after {@link watchLayoutShifts}). */
export function layoutShiftSoFar(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}
