// Page weight as a browser sees it: Chromium's network log (CDP), cold cache, bytes as transferred
// (Network.loadingFinished.encodedDataLength: compressed body + headers, i.e. gzip/brotli as served).
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.mjs';
import { SIGNATURES } from './signatures.mjs';

/**
 * Attaches a CDP network recorder to a page.
 * @param {import('@playwright/test').Page} page
 */
export async function recordNetwork(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  /** @type {Map<string, {url: string, type: string, mime: string, status: number, bytes: number, done: boolean, failed: boolean, fromCache: boolean}>} */
  const requests = new Map();
  let capturing = true;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!capturing) return;
    if (e.request.url.startsWith('data:')) return;
    const prev = requests.get(e.requestId);
    // A redirect reuses the requestId; keep the final hop's data but count the redirect's headers too.
    requests.set(e.requestId, {
      url: e.request.url,
      type: e.type ?? prev?.type ?? 'Other',
      mime: '',
      status: 0,
      bytes: prev ? prev.bytes + (e.redirectResponse?.encodedDataLength ?? 0) : 0,
      done: false,
      failed: false,
      fromCache: false,
      redirects: (prev?.redirects ?? 0) + (prev ? 1 : 0),
    });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.type = e.type ?? r.type;
    r.mime = e.response.mimeType;
    r.status = e.response.status;
    r.fromCache = Boolean(
      e.response.fromDiskCache || e.response.fromServiceWorker || e.response.fromPrefetchCache,
    );
    // Bytes so far (headers); loadingFinished replaces it with the full count. A fetch whose body the page never
    // reads (the shell's Antiforgery call when the cookie already holds the token) never finishes.
    r.headerBytes = e.response.encodedDataLength ?? 0;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.bytes += e.encodedDataLength;
    r.done = true;
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.failed = true;
  });

  /** Body of a finished request (to recognise React DOM and the MF runtime by content). */
  async function body(requestId) {
    try {
      const b = await cdp.send('Network.getResponseBody', { requestId });
      return b.base64Encoded ? Buffer.from(b.body, 'base64').toString('utf8') : b.body;
    } catch {
      return '';
    }
  }

  return {
    requests,
    /** Summarises what was recorded since the last mark and starts a new window. */
    async take() {
      const list = [...requests.entries()];
      requests.clear();
      const totals = {
        jsBytes: 0,
        cssBytes: 0,
        otherBytes: 0,
        totalBytes: 0,
        requests: 0,
        reactDomFetches: 0,
        mfRuntimeFetches: 0,
        failed: 0,
        fromCache: 0,
      };
      const files = [];
      for (const [id, r] of list) {
        totals.requests += 1;
        if (!r.done && !r.failed) r.bytes += r.headerBytes ?? 0;
        if (r.failed) totals.failed += 1;
        if (r.fromCache) totals.fromCache += 1;
        const isJs = r.type === 'Script' || /javascript/.test(r.mime);
        const isCss = r.type === 'Stylesheet' || r.mime === 'text/css';
        if (isJs) totals.jsBytes += r.bytes;
        else if (isCss) totals.cssBytes += r.bytes;
        else totals.otherBytes += r.bytes;
        totals.totalBytes += r.bytes;
        let marks = '';
        if (isJs && r.done) {
          const text = await body(id);
          if (text.includes(SIGNATURES.reactDom)) {
            totals.reactDomFetches += 1;
            marks += ' react-dom';
          }
          if (text.includes(SIGNATURES.mfRuntime)) {
            totals.mfRuntimeFetches += 1;
            marks += ' mf-runtime';
          }
        }
        files.push({
          url: new URL(r.url).pathname,
          type: r.type,
          status: r.status,
          bytes: r.bytes,
          marks: marks.trim(),
        });
      }
      return { ...totals, files };
    },
    stop() {
      capturing = false;
    },
  };
}

/** Waits until no request has been in flight for `quietMs` (network idle as seen by CDP), bounded by `maxMs`. */
async function settle(page, recorder, quietMs = 500, maxMs = 15_000) {
  const start = Date.now();
  let lastBusy = Date.now();
  while (Date.now() - start < maxMs) {
    // In flight = no answer yet, or a document/script/stylesheet still downloading. An API fetch that has its
    // answer but whose body the page never consumes would otherwise hold the settle for its whole bound.
    const pending = [...recorder.requests.values()].some(
      (r) =>
        !r.done &&
        !r.failed &&
        (r.status === 0 || r.type === 'Document' || r.type === 'Script' || r.type === 'Stylesheet'),
    );
    if (pending) lastBusy = Date.now();
    else if (Date.now() - lastBusy >= quietMs) return;
    await page.waitForTimeout(50);
  }
}

/**
 * One cold load per route (fresh context = empty HTTP cache, no service worker) and, from the sign-in page, one
 * in-app navigation to another remote's page.
 * @param {string} base
 * @param {{routes: string[], navigateFrom: string, navigateTo: string}} plan
 */
export async function measurePageWeight(base, plan, shared) {
  const browser = shared ?? (await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS }));
  try {
    const routes = {};
    for (const route of plan.routes) {
      // A load that fetched no script at all is a failed load (e.g. a teammate's build emptying shell/dist for a
      // moment), not a measurement: retried twice, and the retries are kept in the data.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const context = await browser.newContext({ serviceWorkers: 'block' });
        const page = await context.newPage();
        const rec = await recordNetwork(page);
        const response = await page.goto(base + route, { waitUntil: 'load' }).catch(() => null);
        await settle(page, rec);
        const finalPath = new URL(page.url()).pathname;
        routes[route] = {
          ...(await rec.take()),
          finalPath,
          documentStatus: response?.status() ?? 0,
          retries: attempt,
        };
        await context.close();
        if (routes[route].jsBytes > 0) break;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }

    // In-app navigation: the shell routes with React Router (a browser router listening to popstate), so a
    // pushState + popstate is what a link click does. The bytes fetched after it are the cost of the next remote.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const rec = await recordNetwork(page);
    await page.goto(base + plan.navigateFrom, { waitUntil: 'load' });
    await settle(page, rec);
    await rec.take();
    const before = await page.evaluate(() => document.body.innerText.length);
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
    }, plan.navigateTo);
    await settle(page, rec);
    const navigation = {
      ...(await rec.take()),
      from: plan.navigateFrom,
      to: plan.navigateTo,
      finalPath: new URL(page.url()).pathname,
      textBefore: before,
      textAfter: await page.evaluate(() => document.body.innerText.length),
    };
    await context.close();
    return { routes, navigation };
  } finally {
    if (!shared) await browser.close();
  }
}

/** One Chromium for several measurements (each still in its own fresh context, so every load stays cold). */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}
