/**
 * Issue 48, finding 8 (ADR 0044): no secret in any cache. With the shell's offline worker active, the pages whose
 * address carries a secret (the links of the reset, one-time sign-in and e-mail change mails, a recovery-code set,
 * a finished sign-out, a sign-in page whose returnUrl carries one) are fetched through the worker yet never land in
 * Cache Storage, while an ordinary page still does; the gateway answers each of them `no-store` with no referrer.
 */
import { expect, test, type Page } from '@playwright/test';

// The shared config blocks the worker so specs start from the network; these checks are about the worker.
test.use({ serviceWorkers: 'allow' });

const SECRET_PAGES = [
  '/account/reset-password?token=e2e-reset-token',
  '/account/login/ott?token=e2e-sign-in-token',
  '/account/?confirmEmail=e2e-email-change-token',
  '/account/redeem-recoverycodes?id=e2e-code-set',
  '/account/loggedout?logoutId=e2e-logout-id',
  '/account/login?returnUrl=%2Faccount%2F%3FconfirmEmail%3De2e-nested-token',
];
/** Pieces of the secret addresses that must appear in no stored URL. */
const SECRETS = [
  'e2e-reset-token',
  'e2e-sign-in-token',
  'e2e-email-change-token',
  'e2e-code-set',
  'e2e-logout-id',
  'e2e-nested-token',
];
const ORDINARY_PAGE = '/account/recover';

/** Every URL in every cache of Cache Storage, read in the page as the site's own scripts could. */
function storedUrls(page: Page): Promise<{ cache: string; url: string }[]> {
  return page.evaluate(async () => {
    const out: { cache: string; url: string }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) out.push({ cache: name, url: request.url });
    }
    return out;
  });
}

test('S16 a page whose address carries a secret is fetched through the offline worker and never stored in Cache Storage; an ordinary page is', async ({
  page,
}) => {
  await page.goto('/account/login');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 20_000,
  });

  for (const path of SECRET_PAGES) {
    const response = await page.goto(path);
    expect(response?.fromServiceWorker(), path).toBe(true);
    expect(response?.status(), path).toBe(200);
    const headers = await response!.allHeaders();
    expect(headers['cache-control'], path).toBe('no-store');
    expect(headers['referrer-policy'], path).toBe('no-referrer');
    // The page starts (the shell and its remote), so anything it would store has had its chance.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }

  const ordinary = await page.goto(ORDINARY_PAGE);
  expect(ordinary?.fromServiceWorker()).toBe(true);
  // The worker does store pages: the ordinary one arrives in its pages cache (written after the answer).
  await expect
    .poll(async () => (await storedUrls(page)).map((e) => new URL(e.url).pathname))
    .toContain(ORDINARY_PAGE);

  const stored = await storedUrls(page);
  expect(stored.filter((e) => e.cache === 'shell-pages').length).toBeGreaterThan(0);
  for (const secret of SECRETS) {
    expect(
      stored.filter((e) => decodeURIComponent(e.url).includes(secret)),
      `stored URLs carrying ${secret}`,
    ).toEqual([]);
  }
});

test('S16 offline, a secret page is not answered from a stored copy: the worker serves the offline shell', async ({
  page,
  context,
}) => {
  await page.goto('/account/login');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 20_000,
  });
  await page.goto('/account/reset-password?token=e2e-offline-token');
  await context.setOffline(true);
  try {
    // The offline fallback (the shell kept under "/"), never this address's own stored answer: there is none.
    const response = await page.goto('/account/reset-password?token=e2e-offline-token');
    expect(response?.fromServiceWorker()).toBe(true);
    const stored = await storedUrls(page);
    expect(stored.filter((e) => e.url.includes('e2e-offline-token'))).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
});
