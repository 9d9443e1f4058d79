// How long the captcha widget takes a person in Chromium (issue 17): the real flow of the recover page with the
// demo partner asking for a challenge every time — the shell's dialog, ALTCHA's widget and its workers solving the
// gateway's challenge — from the dialog showing to the page answering (solve, VerifyCaptcha, then Recover). First at
// the normal difficulty, then at the high one, which the gateway gives a source past its request threshold.
import { chromium } from '@playwright/test';
import { call, newSession } from './account-client.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.mjs';
import { runGatewayCli } from './gateway.mjs';

/** `admin partners update --id demo …` on the bench gateway's store. */
function updateDemoPartner(gw, args) {
  return runGatewayCli(gw, 'admin', ['partners', 'update', '--id', 'demo', ...args]);
}

/** One person at the recover page: ms from the challenge showing to the page's neutral answer. */
async function oneSolve(browser, base) {
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-GB' });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/account/recover`);
    await page.getByRole('textbox', { name: 'Username or e-mail' }).fill(`nobody-${Date.now()}@bench.test`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm that you are a person' });
    await dialog.waitFor({ timeout: 15_000 });
    const t0 = performance.now();
    await dialog.getByRole('checkbox').press('Space');
    await page
      .getByText('If an account matches, we have sent an e-mail with a link to reset the password.')
      .waitFor({ timeout: 60_000 });
    return performance.now() - t0;
  } finally {
    await context.close();
  }
}

/**
 * @param {{base: string, quick: boolean, gw: {env: Record<string, string>}, log: (m: string) => void}} ctx
 * @returns {Promise<{normal: number[], high: number[], error?: string}>}
 */
export async function widgetSolveTimes(ctx) {
  const times = { normal: [], high: [] };
  const runs = ctx.quick ? 2 : 4;
  await updateDemoPartner(ctx.gw, ['--captcha-when', 'always']);
  // The gateway reads partner settings again within a few seconds.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    for (let i = 0; i < runs; i += 1) times.normal.push(await oneSolve(browser, ctx.base));
    // Past 30 Recover requests from one source in the hour the gateway raises the difficulty.
    const session = await newSession(ctx.base);
    for (let i = 0; i < 32; i += 1)
      await call(ctx.base, session.jar, 'POST', '/api/Account/Recover', {
        username: `flood-${i}@bench.test`,
      });
    for (let i = 0; i < runs; i += 1) times.high.push(await oneSolve(browser, ctx.base));
  } catch (error) {
    times.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
    ctx.log(`captcha widget in Chromium: ${times.error}`);
  } finally {
    await browser.close();
    await updateDemoPartner(ctx.gw, ['--captcha-when', 'risk']);
  }
  return times;
}
