/**
 * The page's side of the container interface of Module Federation as webpack defined it (rspack's
 * `ModuleFederationPluginV1`, docs/adr/0030-container-interface-without-the-federation-runtime.md): a remote's
 * `remoteEntry.js` is a classic script that defines one global, its container, with `init(shareScope)` and
 * `get('./module')`. The shell's build provides the singletons in its share scope; a container initialised with
 * that scope takes them from it instead of its own copies. Two calls, named as the federation runtime's were, so
 * the remote loader above them did not change.
 */

// Module variables of the build's sharing runtime (webpack's names; rspack replaces them at build time).
declare const __webpack_init_sharing__: (scope: string) => Promise<void>;
declare const __webpack_share_scopes__: Record<string, unknown>;

interface Container {
  init(shareScope: unknown): unknown;
  get(module: string): Promise<() => unknown>;
}

const SHARE_SCOPE = 'default';

/** The entry URL each remote is registered with, and its container once its entry was loaded. */
const entries = new Map<string, string>();
const containers = new Map<string, Promise<Container>>();

/**
 * Registers remotes by their federation name and `remoteEntry.js` URL. A remote whose entry changed, or any remote
 * with `force`, is loaded again from its entry at its next {@link loadRemote}.
 */
export function registerRemotes(
  remotes: { name: string; entry: string }[],
  options: { force?: boolean } = {},
): void {
  for (const { name, entry } of remotes) {
    if (entries.get(name) === entry && !options.force) continue;
    entries.set(name, entry);
    containers.delete(name);
  }
}

/** Runs a classic script (a remote's entry); the site's CSP allows its own origin's scripts ('self'). */
function loadScript(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = () => {
      script.remove();
      resolve();
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`loading ${url} failed`));
    };
    document.head.append(script);
  });
}

function isContainer(value: unknown): value is Container {
  const candidate = value as Partial<Container> | null | undefined;
  return typeof candidate?.get === 'function' && typeof candidate.init === 'function';
}

async function loadContainer(name: string, entry: string): Promise<Container> {
  await loadScript(entry);
  // The entry's global, read right after it ran: a later version of the same remote replaces it.
  const container = (globalThis as Record<string, unknown>)[name];
  if (!isContainer(container)) throw new Error(`${entry} did not define the container ${name}`);
  await __webpack_init_sharing__(SHARE_SCOPE);
  await container.init(__webpack_share_scopes__[SHARE_SCOPE]);
  return container;
}

/**
 * Loads `<name>/<module>` (e.g. `mfe_login/remote`) from a registered remote: its entry once per registration, then
 * the exposed module. Rejects when the remote is not registered, its entry fails to load or to define its
 * container, or the module (or one of its chunks) fails; a failed entry is tried again at the next call.
 */
export async function loadRemote<T>(request: string): Promise<T> {
  const slash = request.indexOf('/');
  const name = request.slice(0, slash);
  const entry = entries.get(name);
  if (slash < 1 || !entry) throw new Error(`${name || request} is not a registered remote`);
  let container = containers.get(name);
  if (!container) {
    const loading = loadContainer(name, entry);
    containers.set(name, loading);
    loading.catch(() => {
      if (containers.get(name) === loading) containers.delete(name);
    });
    container = loading;
  }
  const factory = await (await container).get(`./${request.slice(slash + 1)}`);
  return factory() as T;
}
