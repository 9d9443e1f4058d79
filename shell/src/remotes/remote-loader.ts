import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { i18n as I18n } from 'i18next';
import {
  federationName,
  REMOTE_EXPOSED_MODULE,
  REMOTES_MANIFEST_PATH,
  type RemoteId,
  type RemoteModule,
  type RemotePageModule,
  type RemotesManifest,
} from 'shared-contracts';
import { reportClientError } from '../errors/error-reporting';
import { beforeLocaleChange } from '../platform/locale-change';
import { remoteLoadGuard } from './load-guard';
import { isOwnOrigin } from './own-origin';

/** Why a remote is unavailable: its name is not in the manifest, or its code failed to load or to start. */
export class RemoteLoadError extends Error {
  constructor(
    readonly remoteId: RemoteId,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'RemoteLoadError';
  }
}

let manifest: Promise<RemotesManifest> | undefined;
const modules = new Map<RemoteId, Promise<RemoteModule>>();
const registered = new Map<RemoteId, string>();
/** Remotes whose manifest entry was refused (another origin), with the entry as the manifest named it. */
const refused = new Map<RemoteId, string>();
const pages = new Map<string, { remoteId: RemoteId; Component: RemotePageModule['Component'] }>();
let i18nInstance: I18n | undefined;

/** Fetches `/remotes/manifest.json` (not cached: a new remote version must be seen on the next load). */
export function fetchManifest(force = false): Promise<RemotesManifest> {
  if (force || !manifest) {
    manifest = fetch(REMOTES_MANIFEST_PATH, { cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`remotes manifest answered ${response.status}`);
        const body = (await response.json()) as RemotesManifest;
        return body && typeof body.remotes === 'object' ? body : { remotes: {} };
      })
      .catch((error: unknown) => {
        manifest = undefined;
        throw error;
      });
  }
  return manifest;
}

let guarded = false;

/**
 * Registers every remote of the manifest with the federation runtime (start-up; `force` after a retry). Each entry
 * is the URL of the remote's published `mf-manifest.json`, on our own origin ({@link isOwnOrigin}: another one is
 * refused, S33): the runtime reads the remote's entry file, its shared modules and their required versions from it.
 * The first call also installs our runtime plugin (a timeout and bounded retries for every remote load, and the
 * origin of what a remote's own manifest names: `load-guard.ts`).
 */
export async function registerManifestRemotes(force = false): Promise<void> {
  if (!guarded) {
    registerPlugins([remoteLoadGuard()]);
    guarded = true;
  }
  const current = await fetchManifest(force);
  const remotes = Object.entries(current.remotes).flatMap(([id, entry]) => {
    if (!entry?.entry) return [];
    if (!isOwnOrigin(entry.entry)) {
      // Never registered: loading it fails as "unavailable" and is reported as a `remote-load` error.
      refused.set(id as RemoteId, entry.entry);
      registered.delete(id as RemoteId);
      return [];
    }
    refused.delete(id as RemoteId);
    if (registered.get(id as RemoteId) === entry.entry) return [];
    registered.set(id as RemoteId, entry.entry);
    return [{ name: federationName(id as RemoteId), entry: entry.entry }];
  });
  // force: a remote whose entry changed (or failed) is re-registered and its cache dropped.
  if (remotes.length > 0) registerRemotes(remotes, { force: true });
}

function isRemoteModule(value: unknown, id: RemoteId): value is RemoteModule {
  const candidate = value as Partial<RemoteModule> | null | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.id === id &&
    Array.isArray(candidate.routes) &&
    typeof candidate.loadTranslations === 'function'
  );
}

async function addTranslations(remote: RemoteModule, language: string): Promise<void> {
  if (!i18nInstance || i18nInstance.hasResourceBundle(language, remote.id)) return;
  const translations = await remote.loadTranslations(language);
  i18nInstance.addResourceBundle(language, remote.id, translations, true, true);
}

/**
 * The i18next instance whose language the remotes' translations follow: before the language changes, every remote
 * loaded so far brings its translations for the new language, so the whole page switches at once.
 */
export function connectI18n(i18n: I18n): void {
  i18nInstance = i18n;
  beforeLocaleChange(async (language) => {
    await Promise.all(
      [...modules.values()].map((promise) =>
        promise.then((remote) => addTranslations(remote, language)).catch(() => undefined),
      ),
    );
  });
}

async function importRemote(id: RemoteId): Promise<RemoteModule> {
  await registerManifestRemotes();
  const foreign = refused.get(id);
  if (foreign !== undefined)
    throw new RemoteLoadError(id, `${id} refused: its entry ${foreign} is not on this origin`);
  if (!registered.has(id)) throw new RemoteLoadError(id, `${id} is not in the remotes manifest`);
  let exposed: unknown;
  try {
    exposed = await loadRemote<{ remote?: unknown }>(
      `${federationName(id)}/${REMOTE_EXPOSED_MODULE.slice(2)}`,
    );
  } catch (cause) {
    throw new RemoteLoadError(
      id,
      `${id} failed to load: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    );
  }
  const remote = (exposed as { remote?: unknown } | null | undefined)?.remote;
  if (!isRemoteModule(remote, id))
    throw new RemoteLoadError(id, `${id} does not export a valid remote module`);
  if (i18nInstance) await addTranslations(remote, i18nInstance.language);
  return remote;
}

/**
 * Loads a remote once per page. A failure is logged, reported to the client-error endpoint and remembered until
 * {@link retryRemote}; other remotes are untouched.
 */
export function loadRemoteModule(id: RemoteId): Promise<RemoteModule> {
  let promise = modules.get(id);
  if (!promise) {
    promise = importRemote(id).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[shell] remote ${id} is unavailable:`, error);
      reportClientError({
        kind: 'remote-load',
        origin: id,
        message,
        stack: error instanceof Error ? error.stack : undefined,
      });
      throw error;
    });
    modules.set(id, promise);
  }
  return promise;
}

/**
 * Loads the page component of one route of a remote; resolves to whether it is available. The component is kept
 * for {@link remotePage} so the route renders synchronously.
 */
export async function prepareRemotePage(id: RemoteId, path: string): Promise<boolean> {
  if (pages.has(path)) return true;
  let remote: RemoteModule;
  try {
    remote = await loadRemoteModule(id);
  } catch {
    return false; // loadRemoteModule has reported it
  }
  const route = remote.routes.find((r) => r.path === path);
  if (!route) {
    reportClientError({ kind: 'remote-load', origin: id, message: `${id} has no page for ${path}` });
    return false;
  }
  try {
    const page = await route.lazy();
    pages.set(path, { remoteId: id, Component: page.Component });
    return true;
  } catch (error) {
    reportClientError({
      kind: 'remote-load',
      origin: id,
      message: `${id} page ${path} failed to load: ${error instanceof Error ? error.message : String(error)}`,
      stack: error instanceof Error ? error.stack : undefined,
    });
    return false;
  }
}

/** The loaded page component of a route, once {@link prepareRemotePage} succeeded. */
export function remotePage(path: string): RemotePageModule['Component'] | undefined {
  return pages.get(path)?.Component;
}

/**
 * Forgets a failed remote so the next navigation tries again, with a fresh manifest: its module, its registration
 * and its loaded pages (a page that threw while rendering is loaded again from the version now published).
 */
export async function retryRemote(id: RemoteId): Promise<void> {
  modules.delete(id);
  registered.delete(id);
  refused.delete(id);
  for (const [path, page] of pages) if (page.remoteId === id) pages.delete(path);
  // A remote's chunks register on the global `webpackChunk<uniqueName>` (its rspack output.uniqueName is its
  // federation name). A new remoteEntry replays whatever that array holds, so chunks of the version that loaded
  // but failed (a page throwing in render) would shadow the same chunk ids of the version now published.
  delete (globalThis as Record<string, unknown>)[`webpackChunk${federationName(id)}`];
  try {
    await registerManifestRemotes(true);
  } catch {
    // The retry navigation reports the failure again if the manifest is still unreachable.
  }
}
