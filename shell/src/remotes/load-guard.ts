import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { isOwnOrigin } from './own-origin';

/** How long one attempt at a remote's `mf-manifest.json` or `remoteEntry.js` may take before it is given up. */
export const REMOTE_LOAD_TIMEOUT_MS = 8_000;
/** Attempts after the first one (so at most 1 + this many requests per file and load). */
export const REMOTE_LOAD_RETRIES = 2;
/** Wait before the n-th retry: n × this. */
export const REMOTE_RETRY_DELAY_MS = 300;

/** What the guard does, all of it injectable so a test runs it with small numbers and fakes. */
export interface RemoteLoadGuardOptions {
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
  /** The network (default: the page's `fetch`). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Told about each failed attempt that will be tried again (default: a console warning). */
  onRetry?: (what: { url: string; attempt: number; error: unknown }) => void;
}

/** Thrown when an attempt took longer than the timeout. */
export class RemoteLoadTimeoutError extends Error {
  constructor(url: string, timeoutMs: number) {
    super(`${url} did not arrive within ${timeoutMs} ms`);
    this.name = 'RemoteLoadTimeoutError';
  }
}

/**
 * Thrown (to the runtime, which hands it to the loader's report) for a remote entry script on another origin than
 * the page's: a manifest of our origin whose `publicPath` names another one.
 */
export class ForeignRemoteEntryError extends Error {
  constructor(url: string) {
    super(`${url} is not on this origin: refused`);
    this.name = 'ForeignRemoteEntryError';
  }
}

/**
 * Resolves to the federation manifest when the code it names is on our origin: its `publicPath` is `auto` (the
 * manifest's own folder) or on the page's origin, and it carries no `getPublicPath` (code the runtime would run to
 * find one). Else rejects with {@link ForeignRemoteEntryError}, before the runtime preloads or loads anything.
 */
async function ownOriginManifest(response: Response): Promise<Response> {
  let meta: { publicPath?: unknown; getPublicPath?: unknown } | undefined;
  try {
    meta = ((await response.clone().json()) as { metaData?: typeof meta } | null)?.metaData;
  } catch {
    return response; // not JSON: the runtime reports it as it does any broken manifest
  }
  if (meta?.getPublicPath !== undefined && meta.getPublicPath !== '')
    throw new ForeignRemoteEntryError('a computed publicPath');
  const publicPath = meta?.publicPath;
  if (typeof publicPath === 'string' && publicPath !== 'auto' && !isOwnOrigin(publicPath))
    throw new ForeignRemoteEntryError(publicPath);
  return response;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Fetches a federation manifest with a timeout on the whole response (headers and body) and bounded retries; every
 * attempt skips the HTTP cache's stale copies (`no-cache`: a manifest of a published version never changes, but a
 * failed attempt must not be answered from a half-stored one). Resolves to a fresh Response of the body read.
 */
export async function fetchWithRetry(
  url: string,
  init: RequestInit,
  options: RemoteLoadGuardOptions = {},
): Promise<Response> {
  const {
    timeoutMs = REMOTE_LOAD_TIMEOUT_MS,
    retries = REMOTE_LOAD_RETRIES,
    retryDelayMs = REMOTE_RETRY_DELAY_MS,
    fetch: network = (u, i) => fetch(u, i),
    onRetry = warnRetry,
  } = options;
  for (let attempt = 0; ; attempt += 1) {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new RemoteLoadTimeoutError(url, timeoutMs));
      }, timeoutMs);
    });
    try {
      const response = await Promise.race([
        (async () => {
          const res = await network(url, { ...init, signal: controller.signal });
          if (!res.ok) throw new Error(`${url} answered ${res.status}`);
          const body = await res.text();
          return new Response(body, { status: res.status, headers: res.headers });
        })(),
        timedOut,
      ]);
      return response;
    } catch (error) {
      if (attempt >= retries) throw error;
      onRetry({ url, attempt: attempt + 1, error });
      await wait(retryDelayMs * (attempt + 1));
    } finally {
      clearTimeout(timer);
    }
  }
}

function warnRetry({ url, attempt, error }: { url: string; attempt: number; error: unknown }): void {
  console.warn(
    `[shell] ${url}: attempt ${attempt} failed (${error instanceof Error ? error.message : String(error)}); trying again`,
  );
}

type LoadEntryError = NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>;
type EntryExports = Parameters<LoadEntryError>[0]['remoteEntryExports'];

/** Loads a remote's entry again, up to `retries` times; undefined when every attempt failed. */
async function retryEntry(
  { getRemoteEntry, origin, remoteInfo, globalLoading, uniqueKey }: Parameters<LoadEntryError>[0],
  retries: number,
  retryDelayMs: number,
  onRetry: NonNullable<RemoteLoadGuardOptions['onRetry']>,
): Promise<EntryExports> {
  for (let attempt = 1; attempt <= retries; attempt += 1) {
    onRetry({ url: remoteInfo.entry, attempt, error: new Error('the entry failed to load') });
    await wait(retryDelayMs * attempt);
    // The failed load is still registered under this key: drop it so the runtime starts a new one.
    delete globalLoading[uniqueKey];
    try {
      const exports = await getRemoteEntry({ origin, remoteInfo, remoteEntryExports: undefined });
      if (exports) return exports;
    } catch {
      // the next attempt, or the original error once they are used up
    }
  }
  return undefined;
}

/**
 * Our Module Federation runtime plugin (registered once by the shell): every remote load gets a timeout and a
 * bounded automatic retry, for both files the runtime fetches, before the loader's failure path (report and the
 * "unavailable" page with Retry, `remote-loader.ts`) sees it.
 * - `mf-manifest.json`: fetched by {@link fetchWithRetry} (the runtime's `fetch` hook).
 * - `remoteEntry.js`: each `<script>` the runtime adds gets the timeout (`createScript` hook: the runtime gives a
 *   script up with "ScriptNetworkError … timed out"); a failed entry (not found, network error, timeout) is loaded
 *   again up to `retries` times (`loadEntryError`, which the runtime calls only for such network failures; an entry
 *   that loaded and threw is not retried: it would throw again).
 * - The code a remote loads must be on the page's origin (S33, ADR 0044): the loader checks the remotes manifest's
 *   entries; here a federation manifest whose `publicPath` names another origin (or that computes one) is refused as
 *   it arrives, before the runtime preloads its files, and every entry script is checked again before the runtime
 *   adds it (`loadEntry`) ({@link ForeignRemoteEntryError}).
 */
export function remoteLoadGuard(options: RemoteLoadGuardOptions = {}): ModuleFederationRuntimePlugin {
  const {
    timeoutMs = REMOTE_LOAD_TIMEOUT_MS,
    retries = REMOTE_LOAD_RETRIES,
    retryDelayMs = REMOTE_RETRY_DELAY_MS,
    onRetry = warnRetry,
  } = options;
  return {
    name: 'identity-remote-load-guard',
    fetch(url, init) {
      if (!/\/mf-manifest\.json(?:\?|$)/.test(url)) return undefined;
      return fetchWithRetry(url, init, options).then(ownOriginManifest);
    },
    createScript() {
      return { timeout: timeoutMs };
    },
    loadEntry({ remoteInfo }) {
      // Nothing returned: the runtime loads the entry itself. A rejection ends the load before any script is added.
      if (isOwnOrigin(remoteInfo.entry)) return undefined;
      return Promise.reject(new ForeignRemoteEntryError(remoteInfo.entry));
    },
    loadEntryError(args) {
      // The hook's type wants a promise of a promise; the runtime awaits whatever comes back.
      return retryEntry(args, retries, retryDelayMs, onRetry) as unknown as ReturnType<LoadEntryError>;
    },
  };
}
