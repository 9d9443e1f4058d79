// Section 3: page weight per route in Chromium (network log, cold cache), and the in-app navigation cost.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { librarySharesOf } from './bytes-share.mjs';
import { runNextPage } from './next-page.mjs';
import { launchChromium, measurePageWeight } from './page-weight.mjs';
import { signInRouteBytes } from './route-bytes.mjs';
import { repeat, summarize } from './stats.mjs';
import { row } from './table.mjs';

const S = '3';
const KIB = 1024;

const BUDGET = JSON.parse(readFileSync(new URL('../budget.json', import.meta.url), 'utf8'));
/** The developers' guide targets for /account/login, on the wire. */
export const TARGETS = BUDGET.wireTargets;
const REPO = fileURLToPath(new URL('../../', import.meta.url));

export const ROUTES = [
  '/account/login',
  '/account/login/twofactor',
  '/account/recover',
  '/account/login/secure',
  '/account/select',
];
export const NAVIGATION = { navigateFrom: '/account/login', navigateTo: '/account/recover' };

/**
 * @param {{base: string, rounds: number, log: (m: string) => void}} ctx
 */
export async function runPages(ctx) {
  const rows = [];
  const browser = await launchChromium();
  let runs;
  try {
    runs = await repeat(ctx.rounds, () =>
      measurePageWeight(ctx.base, { routes: ROUTES, ...NAVIGATION }, browser),
    );
  } finally {
    await browser.close();
  }
  const data = { routes: {}, navigation: {}, lastRun: runs[runs.length - 1] };
  for (const route of ROUTES) {
    const per = runs.map((r) => r.routes[route]);
    const pick = (k) => summarize(per.map((p) => p[k]));
    const js = summarize(per.map((p) => p.jsBytes / KIB));
    const css = summarize(per.map((p) => p.cssBytes / KIB));
    const finalPath = per[per.length - 1].finalPath;
    data.routes[route] = {
      js,
      css,
      requests: pick('requests'),
      reactDom: pick('reactDomFetches'),
      mfRuntime: pick('mfRuntimeFetches'),
      total: summarize(per.map((p) => p.totalBytes / KIB)),
      finalPath,
    };
    const landed = finalPath !== route ? ` → ${finalPath}` : '';
    const isLogin = route === '/account/login';
    rows.push(
      row(S, `${route}${landed}: JS transferred`, 'KiB', js, isLogin ? `target ≤ ${TARGETS.jsKiB} KiB` : ''),
    );
    rows.push(row(S, '    CSS transferred', 'KiB', css, isLogin ? `target ≤ ${TARGETS.cssKiB} KiB` : ''));
    rows.push(row(S, '    requests', '', data.routes[route].requests, '', 0));
    rows.push(row(S, '    react-dom fetched', 'times', data.routes[route].reactDom, 'bound 1', 0));
    rows.push(
      row(
        S,
        '    MF runtime fetched',
        'times',
        data.routes[route].mfRuntime,
        'bound 1 (one runtime per page)',
        0,
      ),
    );
  }
  // Where /account/login's JS bytes go, by library (lib/bytes-share.mjs: the last round's scripts, attributed through
  // a source-mapped build of the same packages). Two extra production builds, ≈ 20 s.
  try {
    const login = data.lastRun.routes['/account/login'];
    const shares = librarySharesOf(REPO, login.files);
    data.librariesOfSignIn = shares;
    for (const { library, kib } of shares.rows.filter((r) => r.kib >= 0.05)) {
      const one = { median: kib, min: kib, max: kib, rounds: 1 };
      rows.push(row(S, `    /account/login JS: ${library}`, 'KiB', one, 'last round, by source map'));
    }
  } catch (e) {
    data.librariesOfSignIn = { error: e instanceof Error ? e.message : String(e) };
    ctx.log(`section 3: library shares not measured: ${data.librariesOfSignIn.error}`);
  }
  // The same route read from the build output, as the CI budget test sees it (deterministic, gzip -9).
  try {
    const bill = signInRouteBytes(REPO);
    data.fromDist = bill;
    rows.push(
      row(
        S,
        '/account/login JS from the build output (gzip -9, budget test)',
        'KiB',
        { median: bill.jsGzip / KIB, min: bill.jsGzip / KIB, max: bill.jsGzip / KIB, rounds: 1 },
        `budget ${(BUDGET.signInRouteJsGzipBytes / KIB).toFixed(1)} KiB (measured + 3 %)`,
      ),
    );
  } catch (e) {
    data.fromDist = { error: e instanceof Error ? e.message : String(e) };
  }
  const nav = runs.map((r) => r.navigation);
  data.navigation = {
    ...NAVIGATION,
    bytes: summarize(nav.map((n) => n.totalBytes / KIB)),
    js: summarize(nav.map((n) => n.jsBytes / KIB)),
    requests: summarize(nav.map((n) => n.requests)),
    finalPath: nav[nav.length - 1].finalPath,
    files: nav[nav.length - 1].files,
  };
  rows.push(
    row(
      S,
      `in-app ${NAVIGATION.navigateFrom} → ${NAVIGATION.navigateTo}: extra bytes`,
      'KiB',
      data.navigation.bytes,
      `${data.navigation.js.median.toFixed(1)} KiB of it JS`,
    ),
  );
  rows.push(row(S, '    extra requests', '', data.navigation.requests, '', 0));
  const next = await runNextPage(ctx);
  rows.push(...next.rows);
  data.nextPage = next.data;
  return { rows, data };
}
