/** Changing the demo partner through the gateway's admin CLI (and putting it back), for specs that need it. */
import { spawnSync } from 'node:child_process';
import { expect } from '@playwright/test';
import path from 'node:path';
import { GATEWAY_DIST, gatewayEnv } from './system.js';

const ADMIN_CLI = path.join(GATEWAY_DIST, 'cli', 'admin.js');

/** The seeded demo partner's languages (gateway seed): what other specs expect to see. */
export const DEMO_LANGUAGES =
  'en-GB:English (United Kingdom),en:English (United States),de:Deutsch,fr-CA:Français (Canada),es:Español';

/** The demo partner's languages with a right-to-left one (Arabic, no shipped text: en-GB in a mirrored layout). */
export const DEMO_LANGUAGES_WITH_ARABIC = `${DEMO_LANGUAGES},ar:العربية`;

/** Runs `admin partners update --id demo …` against the run's DATA_DIR. */
export function updateDemoPartner(args: string[], dataDir: string): void {
  const result = spawnSync(process.execPath, [ADMIN_CLI, 'partners', 'update', '--id', 'demo', ...args], {
    env: gatewayEnv(dataDir, 0),
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`admin partners update ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Waits until the gateway draws the sign-in page in `locale` for a visitor who chose it (culture cookie), or, with
 * `offered` false, no longer does. The gateway keeps its partner list for a few seconds (CONFIG_CACHE_TTL_MS), so a
 * test starting right after `updateDemoPartner` may otherwise meet the languages from before the change.
 */
export async function waitForPartnerLanguage(baseUrl: string, locale: string, offered = true): Promise<void> {
  const cookie = `.AspNetCore.Culture=${encodeURIComponent(`c=${locale}|uic=${locale}`)}`;
  const drawnIn = async () => {
    const html = await (await fetch(`${baseUrl}/account/login`, { headers: { cookie } })).text();
    return html.includes(`<html lang="${locale}"`);
  };
  await expect.poll(drawnIn, { timeout: 15_000 }).toBe(offered);
}
