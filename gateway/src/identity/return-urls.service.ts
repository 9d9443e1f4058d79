import { safeReturnUrl } from 'shared-contracts';
import type { Store } from '../store/store.js';

/** Checks returnUrls against the rules of S31 and the registered clients' addresses. */
export interface ReturnUrls {
  /** The value when it is acceptable, else "/". */
  safe(value: unknown): Promise<string>;
}

/** returnUrls checked against the OIDC clients registered in the store. */
export function createReturnUrls(store: Pick<Store, 'clients'>): ReturnUrls {
  return {
    safe: async (value) => safeReturnUrl(value, await store.clients.registeredReturnUrls()),
  };
}
