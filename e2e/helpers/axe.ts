/** Accessibility checks with axe-core, as a helper so specs do not each keep their own copy. */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * No axe violations on the page as it is now, in the light and the dark colour scheme (light again after). A corner
 * toast (sonner) is left out: it comes and goes on its own 2000 ms, so it could be read half faded; toasts have their
 * own axe checks, held in place (tests/platform-offline.spec.ts).
 */
export async function expectAxeCleanLightAndDark(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await transitionsEnded(page);
    const { violations } = await new AxeBuilder({ page }).exclude('[data-sonner-toast]').analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      colorScheme,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Waits (at most 5 s) until no finite animation or transition runs: a toast fading in or a theme's colours changing
 * is judged where it comes to rest, not half-transparent (axe would read a contrast nobody sees for long).
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      null,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}
