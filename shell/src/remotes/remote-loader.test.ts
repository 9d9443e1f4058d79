import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientErrorReportBody, RemoteModule, RemotesManifest } from 'shared-contracts';

// The federation runtime is the loader's boundary to the browser's script loading: faked here, so each test says
// what a remote's `./remote` module resolves to (or how it fails) by its federation name.
const federation = vi.hoisted(() => ({
  registerRemotes:
    vi.fn<(remotes: { name: string; entry: string }[], options?: { force?: boolean }) => void>(),
  loadRemote: vi.fn<(id: string) => Promise<unknown>>(),
  registerPlugins: vi.fn<(plugins: { name: string }[]) => void>(),
}));
vi.mock('@module-federation/enhanced/runtime', () => federation);

type Loader = typeof import('./remote-loader');

const ENTRY = {
  login: '/remotes/mfe-login/1.0.0/mf-manifest.json',
  mfa: '/remotes/mfe-mfa/2.0.0/mf-manifest.json',
};

function Page() {
  return null;
}

function remoteModule(id: RemoteModule['id'], paths: string[]): RemoteModule {
  return {
    id,
    routes: paths.map((path) => ({ path, lazy: () => Promise.resolve({ Component: Page }) })),
    loadTranslations: (locale) => Promise.resolve({ greeting: `${id} in ${locale}` }),
  };
}

/** The gateway as the loader sees it: the manifest (or a failing one) and the client-error endpoint. */
let manifest: RemotesManifest | number;
let manifestReads: number;
let reports: ClientErrorReportBody[];
/** `./remote` of each federation name: the module, or the error its loading fails with. */
let exposed: Record<string, { remote: unknown } | Error>;
let loader: Loader;

beforeEach(async () => {
  manifest = {
    remotes: {
      'mfe-login': { entry: ENTRY.login, version: '1.0.0' },
      'mfe-mfa': { entry: ENTRY.mfa, version: '2.0.0' },
    },
  };
  manifestReads = 0;
  reports = [];
  exposed = {
    mfe_login: { remote: remoteModule('mfe-login', ['/account/login', '/account/logout']) },
    mfe_mfa: { remote: remoteModule('mfe-mfa', ['/account/login/twofactor']) },
  };
  federation.registerRemotes.mockReset();
  federation.loadRemote.mockReset().mockImplementation((id: string) => {
    const [name, module] = id.split('/');
    const found = exposed[name!];
    if (module !== 'remote' || !found) return Promise.reject(new Error(`no such module ${id}`));
    return found instanceof Error ? Promise.reject(found) : Promise.resolve(found);
  });
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === '/remotes/manifest.json') {
      manifestReads += 1;
      expect(init.cache).toBe('no-store');
      return Promise.resolve(
        typeof manifest === 'number' ? new Response('', { status: manifest }) : Response.json(manifest),
      );
    }
    if (url === '/api/ops/client-errors') {
      reports.push(JSON.parse(init.body as string) as ClientErrorReportBody);
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    return Promise.reject(new Error(`unexpected fetch ${url}`));
  });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // The loader keeps its remotes for the page's lifetime: each test starts with a fresh page.
  vi.resetModules();
  loader = await import('./remote-loader');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Lets the fire-and-forget error report reach the fetch stub. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('remote loader: manifest and registration', () => {
  it('reads /remotes/manifest.json once and registers every remote by its federation name', async () => {
    await loader.registerManifestRemotes();
    await loader.registerManifestRemotes();
    expect(manifestReads).toBe(1);
    // Our runtime plugin (timeout and retries for every remote load) is installed once.
    expect(federation.registerPlugins).toHaveBeenCalledTimes(1);
    expect(federation.registerPlugins.mock.calls[0]![0].map((p) => p.name)).toEqual([
      'identity-remote-load-guard',
    ]);
    expect(federation.registerRemotes).toHaveBeenCalledTimes(1);
    expect(federation.registerRemotes).toHaveBeenCalledWith(
      [
        { name: 'mfe_login', entry: ENTRY.login },
        { name: 'mfe_mfa', entry: ENTRY.mfa },
      ],
      { force: true },
    );
  });

  it('on a forced read registers only the remotes whose entry changed', async () => {
    await loader.registerManifestRemotes();
    const next = '/remotes/mfe-mfa/2.1.0/mf-manifest.json';
    manifest = {
      remotes: {
        'mfe-login': { entry: ENTRY.login, version: '1.0.0' },
        'mfe-mfa': { entry: next, version: '2.1.0' },
      },
    };
    await loader.registerManifestRemotes(true);
    expect(manifestReads).toBe(2);
    expect(federation.registerRemotes).toHaveBeenLastCalledWith([{ name: 'mfe_mfa', entry: next }], {
      force: true,
    });
  });

  it('does not keep a failed manifest read: the next call asks again', async () => {
    manifest = 503;
    await expect(loader.fetchManifest()).rejects.toThrow('remotes manifest answered 503');
    manifest = { remotes: {} };
    await expect(loader.fetchManifest()).resolves.toEqual({ remotes: {} });
    expect(manifestReads).toBe(2);
  });
});

describe('remote loader: pages', () => {
  it('loads a remote page once and keeps its component for the route', async () => {
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(true);
    expect(await loader.prepareRemotePage('mfe-login', '/account/logout')).toBe(true);
    expect(loader.remotePage('/account/login')).toBe(Page);
    expect(federation.loadRemote).toHaveBeenCalledTimes(1);
    expect(federation.loadRemote).toHaveBeenCalledWith('mfe_login/remote');
  });

  it("adds the remote's translations to the connected i18n in its own namespace", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'de', resources: {} });
    loader.connectI18n(i18n);
    await loader.prepareRemotePage('mfe-mfa', '/account/login/twofactor');
    expect(i18n.getResourceBundle('de', 'mfe-mfa')).toEqual({ greeting: 'mfe-mfa in de' });
  });

  it("has every loaded remote's text in the new language before the language changes, so nothing renders half-switched", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en-GB', resources: {} });
    loader.connectI18n(i18n);
    await loader.prepareRemotePage('mfe-mfa', '/account/login/twofactor');
    const seenAtSwitch: unknown[] = [];
    i18n.on('languageChanged', (language) =>
      seenAtSwitch.push(i18n.getResource(language, 'mfe-mfa', 'greeting')),
    );
    // The module instance the freshly imported loader registered with (modules are reset before each test).
    const { changeLocale } = await import('../platform/locale-change');
    await changeLocale(i18n, 'fr-CA', { persist: false });
    expect(seenAtSwitch).toEqual(['mfe-mfa in fr-CA']);
  });
});

describe('remote loader: a remote that fails', () => {
  it('is unavailable and reported, and the other remotes still load', async () => {
    exposed.mfe_login = new Error('ChunkLoadError: remoteEntry.js 502');
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
    expect(loader.remotePage('/account/login')).toBeUndefined();
    await settle();
    expect(reports).toEqual([
      expect.objectContaining({
        kind: 'remote-load',
        origin: 'mfe-login',
        message: 'mfe-login failed to load: ChunkLoadError: remoteEntry.js 502',
      }),
    ]);
    expect(await loader.prepareRemotePage('mfe-mfa', '/account/login/twofactor')).toBe(true);
  });

  it('stays unavailable without a retry: its failure is remembered, not loaded again', async () => {
    exposed.mfe_login = new Error('boom');
    await loader.prepareRemotePage('mfe-login', '/account/login');
    exposed.mfe_login = { remote: remoteModule('mfe-login', ['/account/login']) };
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
    expect(federation.loadRemote).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'is not in the manifest',
      () => (manifest = { remotes: {} }),
      'mfe-login is not in the remotes manifest',
    ],
    [
      'exports something else than a remote module',
      () => (exposed.mfe_login = { remote: { id: 'mfe-mfa', routes: [] } }),
      'mfe-login does not export a valid remote module',
    ],
    [
      'has no page for the path',
      () => (exposed.mfe_login = { remote: remoteModule('mfe-login', ['/account/logout']) }),
      'mfe-login has no page for /account/login',
    ],
  ])('is unavailable and reported when it %s', async (_case, arrange, message) => {
    arrange();
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
    await settle();
    expect(reports).toEqual([expect.objectContaining({ kind: 'remote-load', origin: 'mfe-login', message })]);
  });

  it('is reported when one page fails to load while the remote loaded', async () => {
    const remote = remoteModule('mfe-login', ['/account/login']);
    exposed.mfe_login = {
      remote: {
        ...remote,
        routes: [{ path: '/account/login', lazy: () => Promise.reject(new Error('chunk 7')) }],
      },
    };
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
    await settle();
    expect(reports).toEqual([
      expect.objectContaining({
        kind: 'remote-load',
        origin: 'mfe-login',
        message: 'mfe-login page /account/login failed to load: chunk 7',
      }),
    ]);
  });
});

describe('remote loader: an entry on another origin (S33, issue 48)', () => {
  it.each([
    'https://remotes.evil.example/mfe-login/1.0.0/mf-manifest.json',
    '//remotes.evil.example/mfe-login/1.0.0/mf-manifest.json',
    'http://localhost:1/remotes/mfe-login/1.0.0/mf-manifest.json',
    'data:application/json,{}',
    'javascript:alert(1)',
  ])(
    'S33 %s is never registered: the remote is unavailable, reported as remote-load, the others load',
    async (foreign) => {
      manifest = {
        remotes: {
          'mfe-login': { entry: foreign, version: '1.0.0' },
          'mfe-mfa': { entry: ENTRY.mfa, version: '2.0.0' },
        },
      };
      expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
      expect(federation.registerRemotes.mock.calls.flatMap(([remotes]) => remotes)).toEqual([
        { name: 'mfe_mfa', entry: ENTRY.mfa },
      ]);
      expect(federation.loadRemote).not.toHaveBeenCalledWith('mfe_login/remote');
      await settle();
      expect(reports).toEqual([
        expect.objectContaining({
          kind: 'remote-load',
          origin: 'mfe-login',
          message: `mfe-login refused: its entry ${foreign} is not on this origin`,
        }),
      ]);
      expect(await loader.prepareRemotePage('mfe-mfa', '/account/login/twofactor')).toBe(true);
    },
  );

  it('takes an absolute entry on our own origin, and a retry after the manifest is fixed loads the remote', async () => {
    manifest = {
      remotes: { 'mfe-login': { entry: 'https://remotes.evil.example/mf-manifest.json', version: '1.0.0' } },
    };
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
    const own = `${window.location.origin}${ENTRY.login}`;
    manifest = { remotes: { 'mfe-login': { entry: own, version: '1.0.0' } } };
    await loader.retryRemote('mfe-login');
    expect(federation.registerRemotes).toHaveBeenLastCalledWith([{ name: 'mfe_login', entry: own }], {
      force: true,
    });
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(true);
  });
});

describe('remote loader: retry', () => {
  it('forgets the failed remote: a fresh manifest, a new registration, and the next load tries again', async () => {
    exposed.mfe_login = new Error('boom');
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(false);
    (globalThis as Record<string, unknown>).webpackChunkmfe_login = [['stale chunk']];

    exposed.mfe_login = { remote: remoteModule('mfe-login', ['/account/login']) };
    await loader.retryRemote('mfe-login');

    expect(manifestReads).toBe(2);
    expect(federation.registerRemotes).toHaveBeenLastCalledWith([{ name: 'mfe_login', entry: ENTRY.login }], {
      force: true,
    });
    expect((globalThis as Record<string, unknown>).webpackChunkmfe_login).toBeUndefined();
    expect(await loader.prepareRemotePage('mfe-login', '/account/login')).toBe(true);
    expect(federation.loadRemote).toHaveBeenCalledTimes(2);
  });

  it("forgets the pages of the remote it retries, not another remote's", async () => {
    await loader.prepareRemotePage('mfe-login', '/account/login');
    await loader.prepareRemotePage('mfe-mfa', '/account/login/twofactor');
    await loader.retryRemote('mfe-login');
    expect(loader.remotePage('/account/login')).toBeUndefined();
    expect(loader.remotePage('/account/login/twofactor')).toBe(Page);
  });
});
