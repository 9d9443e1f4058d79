import { safeReturnUrl } from 'shared-contracts';
import type { Store } from '../../store/store.js';
import { cachedValue, type CacheOptions } from '../config-cache/ttl-cache.js';

/** Checks returnUrls against the rules of S31 and the registered clients' addresses. */
export interface ReturnUrls {
  /** The value when it is acceptable, else "/". */
  safe(value: unknown): Promise<string>;
}

/**
 * returnUrls checked against the OIDC clients registered in the store. The registered addresses are kept in
 * process (`LoginView` and `Login` check one on every call): reloaded at most every few seconds, so a client the
 * admin CLI registers works within that on every replica, and at once after a write through this process.
 */
export function createReturnUrls(
  store: { clients: Pick<Store['clients'], 'registeredReturnUrls' | 'onChange'> },
  cache: CacheOptions = {},
): ReturnUrls {
  const registered = cachedValue(() => store.clients.registeredReturnUrls(), cache);
  store.clients.onChange(() => registered.invalidate());
  return {
    safe: async (value) => safeReturnUrl(value, await registered.get()),
  };
}
