import { describe, expect, it, vi } from 'vitest';
import {
  fetchWithRetry,
  ForeignRemoteEntryError,
  RemoteLoadTimeoutError,
  remoteLoadGuard,
} from './load-guard';

const MANIFEST = '/remotes/mfe-mfa/1.0.0/mf-manifest.json';
const FAST = { timeoutMs: 30, retries: 2, retryDelayMs: 1 };

/** A network whose n-th request (0-based) does what `plan[n]` says: stall forever, fail, or answer. */
function network(plan: ('stall' | 'fail' | 500 | 'ok')[]) {
  const requests: RequestInit[] = [];
  const fetch = vi.fn((_url: string, init: RequestInit) => {
    requests.push(init);
    const step = plan[requests.length - 1] ?? 'ok';
    if (step === 'stall') return new Promise<Response>(() => undefined);
    if (step === 'fail') return Promise.reject(new TypeError('Failed to fetch'));
    if (step === 500) return Promise.resolve(new Response('no', { status: 500 }));
    return Promise.resolve(Response.json({ id: 'mfe_mfa' }));
  });
  return { fetch, requests };
}

describe('fetchWithRetry (a remote’s mf-manifest.json)', () => {
  it('gives a stalled attempt up after the timeout, aborts it, and tries again', async () => {
    const { fetch, requests } = network(['stall', 'stall', 'ok']);
    const onRetry = vi.fn();
    const response = await fetchWithRetry(MANIFEST, {}, { ...FAST, fetch, onRetry });
    expect(await response.json()).toEqual({ id: 'mfe_mfa' });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(requests.slice(0, 2).every((init) => init.signal?.aborted)).toBe(true);
    expect(onRetry.mock.calls.map(([call]) => (call as { attempt: number }).attempt)).toEqual([1, 2]);
    expect((onRetry.mock.calls[0]![0] as { error: unknown }).error).toBeInstanceOf(RemoteLoadTimeoutError);
  });

  it('retries network errors and error statuses', async () => {
    const { fetch } = network(['fail', 500, 'ok']);
    const response = await fetchWithRetry(MANIFEST, {}, { ...FAST, fetch, onRetry: () => undefined });
    expect(response.ok).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('stops after the bounded number of retries with the last error', async () => {
    const { fetch } = network(['stall', 'stall', 'stall', 'ok']);
    await expect(
      fetchWithRetry(MANIFEST, {}, { ...FAST, fetch, onRetry: () => undefined }),
    ).rejects.toBeInstanceOf(RemoteLoadTimeoutError);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});

describe('remoteLoadGuard (our federation runtime plugin)', () => {
  type Hook<K extends 'fetch' | 'createScript' | 'loadEntryError' | 'loadEntry'> = NonNullable<
    ReturnType<typeof remoteLoadGuard>[K]
  >;

  it('guards only federation manifests among the runtime’s fetches', async () => {
    const { fetch } = network(['fail', 'ok']);
    const plugin = remoteLoadGuard({ ...FAST, fetch, onRetry: () => undefined });
    const fetchHook = plugin.fetch as Hook<'fetch'>;
    expect(fetchHook('/api/something', {})).toBeUndefined();
    const response = await (fetchHook(MANIFEST, {}) as Promise<Response>);
    expect(response.ok).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('gives every entry script the timeout', () => {
    const plugin = remoteLoadGuard({ timeoutMs: 1234 });
    const createScript = plugin.createScript as unknown as () => unknown;
    expect(createScript()).toEqual({ timeout: 1234 });
  });

  it('S33 lets the runtime load an entry script of our origin, and refuses one of another origin before any script is added (issue 48)', async () => {
    const loadEntry = remoteLoadGuard().loadEntry as Hook<'loadEntry'>;
    const entry = (url: string) =>
      loadEntry({ remoteInfo: { name: 'mfe_mfa', entry: url } } as Parameters<Hook<'loadEntry'>>[0]);
    expect(entry('/remotes/mfe-mfa/1.0.0/remoteEntry.js')).toBeUndefined();
    expect(entry(`${window.location.origin}/remotes/mfe-mfa/1.0.0/remoteEntry.js`)).toBeUndefined();
    for (const foreign of [
      'https://cdn.evil.example/remoteEntry.js',
      '//cdn.evil.example/remoteEntry.js',
      'data:text/javascript,alert(1)',
    ]) {
      await expect(entry(foreign)).rejects.toThrow(ForeignRemoteEntryError);
    }
  });

  it.each([
    [{ publicPath: 'auto' }, true],
    [{ publicPath: '/remotes/mfe-mfa/1.0.0/' }, true],
    [{ publicPath: `${window.location.origin}/remotes/mfe-mfa/1.0.0/` }, true],
    [{ publicPath: 'https://cdn.evil.example/mfe-mfa/' }, false],
    [{ publicPath: '//cdn.evil.example/mfe-mfa/' }, false],
    [{ publicPath: 'auto', getPublicPath: 'return "https://cdn.evil.example/"' }, false],
  ])('S33 a federation manifest with %o is taken: %s (issue 48)', async (metaData, taken) => {
    const fetch = vi.fn(() => Promise.resolve(Response.json({ id: 'mfe_mfa', metaData })));
    const fetchHook = remoteLoadGuard({ ...FAST, fetch }).fetch as Hook<'fetch'>;
    const answer = fetchHook(MANIFEST, {}) as Promise<Response>;
    if (taken) expect(await (await answer).json()).toEqual({ id: 'mfe_mfa', metaData });
    else await expect(answer).rejects.toThrow(ForeignRemoteEntryError);
    // A refusal is not a network failure: it is not tried again.
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  /** What the runtime hands loadEntryError: a getRemoteEntry that fails `failures` times, then loads. */
  function entryFailure(failures: number) {
    const exports = { get: vi.fn(), init: vi.fn() };
    const globalLoading: Record<string, Promise<unknown> | undefined> = {
      'mfe_mfa:entry': Promise.reject(new Error('first load')).catch(() => undefined),
    };
    let calls = 0;
    const getRemoteEntry = vi.fn(() => {
      calls += 1;
      expect(globalLoading['mfe_mfa:entry']).toBeUndefined();
      return calls <= failures
        ? Promise.reject(new Error('ScriptNetworkError: timed out'))
        : Promise.resolve(exports);
    });
    const args = {
      getRemoteEntry,
      origin: {},
      remoteInfo: { name: 'mfe_mfa', entry: '/remotes/mfe-mfa/1.0.0/remoteEntry.js' },
      globalLoading,
      uniqueKey: 'mfe_mfa:entry',
    } as unknown as Parameters<Hook<'loadEntryError'>>[0];
    return { args, exports, getRemoteEntry };
  }

  it('loads a failed entry again and hands the runtime what the retry loaded', async () => {
    const { args, exports, getRemoteEntry } = entryFailure(1);
    const onRetry = vi.fn();
    const plugin = remoteLoadGuard({ ...FAST, onRetry });
    await expect((plugin.loadEntryError as Hook<'loadEntryError'>)(args)).resolves.toBe(exports);
    expect(getRemoteEntry).toHaveBeenCalledTimes(2);
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('gives up after the bounded retries: the runtime then throws its original error', async () => {
    const { args, getRemoteEntry } = entryFailure(5);
    const plugin = remoteLoadGuard({ ...FAST, onRetry: () => undefined });
    await expect((plugin.loadEntryError as Hook<'loadEntryError'>)(args)).resolves.toBeUndefined();
    expect(getRemoteEntry).toHaveBeenCalledTimes(FAST.retries);
  });
});
