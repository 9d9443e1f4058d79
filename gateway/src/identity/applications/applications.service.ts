import type { Application } from 'shared-contracts';
import type { Store } from '../../store/store.js';
import { cachedValue, type CacheOptions } from '../config-cache/ttl-cache.js';

/** The applications a signed-in person can go on to from the signed-in home. */
export interface Applications {
  /** Every registered client with a sign-in start address (initiate_login_uri), by name. */
  list(): Promise<Application[]>;
}

/**
 * The registered clients that can start their own sign-in, kept in process like the registered return URLs
 * (reloaded at most every few seconds, at once after a write through this process).
 */
export function createApplications(
  store: { clients: Pick<Store['clients'], 'list' | 'onChange'> },
  cache: CacheOptions = {},
): Applications {
  const launchable = cachedValue(async () => {
    const clients = await store.clients.list();
    return clients
      .flatMap((client) =>
        client.initiateLoginUri && !client.disabled
          ? [{ name: client.name, url: client.initiateLoginUri }]
          : [],
      )
      .sort((a, b) => a.name.localeCompare(b.name));
  }, cache);
  store.clients.onChange(() => launchable.invalidate());
  return { list: () => launchable.get() };
}
