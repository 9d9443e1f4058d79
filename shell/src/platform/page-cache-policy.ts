import { queryCarriesSecret } from 'shared-contracts';

/**
 * What the offline worker (src/sw.ts) may keep of a page (issue 48, ADR 0044): its navigations run through these,
 * kept here, outside the worker, so they are tested as they are.
 */

/** True for an address whose query hands the page a secret (any spelling of the parameter's name, or in its returnUrl). */
export function carriesSecret(url: URL): boolean {
  return queryCarriesSecret(url.searchParams);
}

/** True when the answer's `Cache-Control` says `no-store` (any spelling, among other directives). */
export function saysNoStore(response: Pick<Response, 'headers'>): boolean {
  return (response.headers.get('Cache-Control') ?? '')
    .split(',')
    .some((directive) => directive.trim().toLowerCase() === 'no-store');
}

/**
 * True when a page's answer may go to Cache Storage: a plain 200 that does not say `no-store`, for an address that
 * carries no secret. Anything else (a redirect, an error, an opaque answer) is not stored.
 */
export function storablePage(url: URL, response: Pick<Response, 'status' | 'headers'>): boolean {
  return response.status === 200 && !saysNoStore(response) && !carriesSecret(url);
}
