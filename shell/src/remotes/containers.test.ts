import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Containers = typeof import('./containers');

/**
 * The browser as the container loader sees it: a `<script>` appended to the head "runs" the entry registered for
 * its URL (defining that remote's global container) or fails like a 404; the build's sharing runtime is the two
 * module variables rspack would replace.
 */
let scripts: Record<string, { name: string; container: unknown } | 'missing'>;
let loadedUrls: string[];
const shareScope = { react: {} };
const initSharing = vi.fn((_scope: string) => Promise.resolve());
let containers: Containers;

function container(modules: Record<string, unknown>) {
  return {
    init: vi.fn((_scope: unknown) => undefined),
    get: vi.fn((module: string) =>
      module in modules
        ? Promise.resolve(() => modules[module])
        : Promise.reject(new Error(`Module "${module}" does not exist in container.`)),
    ),
  };
}

beforeEach(async () => {
  scripts = {};
  loadedUrls = [];
  initSharing.mockClear();
  vi.stubGlobal('__webpack_init_sharing__', initSharing);
  vi.stubGlobal('__webpack_share_scopes__', { default: shareScope });
  vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
    const script = nodes[0] as HTMLScriptElement;
    const url = script.getAttribute('src')!;
    loadedUrls.push(url);
    const found = scripts[url];
    queueMicrotask(() => {
      if (found && found !== 'missing') {
        vi.stubGlobal(found.name, found.container);
        script.onload?.(new Event('load'));
      } else script.onerror?.(new Event('error'));
    });
  });
  vi.resetModules();
  containers = await import('./containers');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('loadRemote', () => {
  it("runs a remote's entry once, initialises its container with the page's share scope, and returns the module", async () => {
    const login = container({ './remote': { remote: 'login' } });
    scripts['/remotes/mfe-login/1/remoteEntry.js'] = { name: 'mfe_login', container: login };
    containers.registerRemotes([{ name: 'mfe_login', entry: '/remotes/mfe-login/1/remoteEntry.js' }]);

    await expect(containers.loadRemote('mfe_login/remote')).resolves.toEqual({ remote: 'login' });
    await expect(containers.loadRemote('mfe_login/remote')).resolves.toEqual({ remote: 'login' });

    expect(loadedUrls).toEqual(['/remotes/mfe-login/1/remoteEntry.js']);
    expect(initSharing).toHaveBeenCalledWith('default');
    expect(login.init).toHaveBeenCalledTimes(1);
    expect(login.init).toHaveBeenCalledWith(shareScope);
    expect(login.get).toHaveBeenCalledWith('./remote');
  });

  it('rejects a remote that is not registered, without loading anything', async () => {
    await expect(containers.loadRemote('mfe_mfa/remote')).rejects.toThrow(
      'mfe_mfa is not a registered remote',
    );
    expect(loadedUrls).toEqual([]);
  });

  it('rejects when the entry fails to load, and loads it again at the next call', async () => {
    const entry = '/remotes/mfe-login/1/remoteEntry.js';
    scripts[entry] = 'missing';
    containers.registerRemotes([{ name: 'mfe_login', entry }]);
    await expect(containers.loadRemote('mfe_login/remote')).rejects.toThrow(`loading ${entry} failed`);

    scripts[entry] = { name: 'mfe_login', container: container({ './remote': 'back' }) };
    await expect(containers.loadRemote('mfe_login/remote')).resolves.toBe('back');
    expect(loadedUrls).toEqual([entry, entry]);
  });

  it('rejects when the entry does not define its container', async () => {
    const entry = '/remotes/mfe-login/1/remoteEntry.js';
    scripts[entry] = { name: 'someone_else', container: container({}) };
    containers.registerRemotes([{ name: 'mfe_login', entry }]);
    await expect(containers.loadRemote('mfe_login/remote')).rejects.toThrow(
      `${entry} did not define the container mfe_login`,
    );
  });

  it('rejects a module the container does not expose', async () => {
    scripts['/e.js'] = { name: 'mfe_login', container: container({ './remote': 'x' }) };
    containers.registerRemotes([{ name: 'mfe_login', entry: '/e.js' }]);
    await expect(containers.loadRemote('mfe_login/other')).rejects.toThrow('does not exist in container');
  });
});

describe('registerRemotes', () => {
  it('keeps a loaded container while the entry is the same, and loads the new entry when it changes', async () => {
    scripts['/v1.js'] = { name: 'mfe_login', container: container({ './remote': 'v1' }) };
    scripts['/v2.js'] = { name: 'mfe_login', container: container({ './remote': 'v2' }) };
    containers.registerRemotes([{ name: 'mfe_login', entry: '/v1.js' }]);
    await expect(containers.loadRemote('mfe_login/remote')).resolves.toBe('v1');

    containers.registerRemotes([{ name: 'mfe_login', entry: '/v1.js' }]);
    await expect(containers.loadRemote('mfe_login/remote')).resolves.toBe('v1');
    containers.registerRemotes([{ name: 'mfe_login', entry: '/v2.js' }]);
    await expect(containers.loadRemote('mfe_login/remote')).resolves.toBe('v2');
    expect(loadedUrls).toEqual(['/v1.js', '/v2.js']);
  });

  it('with force, loads the same entry again (a retry after a failure)', async () => {
    scripts['/v1.js'] = { name: 'mfe_login', container: container({ './remote': 'v1' }) };
    containers.registerRemotes([{ name: 'mfe_login', entry: '/v1.js' }]);
    await containers.loadRemote('mfe_login/remote');
    containers.registerRemotes([{ name: 'mfe_login', entry: '/v1.js' }], { force: true });
    await containers.loadRemote('mfe_login/remote');
    expect(loadedUrls).toEqual(['/v1.js', '/v1.js']);
  });
});
