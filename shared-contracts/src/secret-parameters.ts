/**
 * Query parameters that hand a page a secret (docs/adr/0044-secrets-demo-data-remote-origins.md, S16): the token of a
 * reset or one-time sign-in link, the e-mail change confirmation of the security centre, a recovery-code set's id,
 * a code, and the id of a sign-out a browser just finished. Such an address is kept by no cache: the gateway answers
 * it `Cache-Control: no-store` and the shell's service worker never stores it. Names compare case-insensitively (the
 * gateway reads `Token` as `token`). A link that carries a new secret adds its parameter here.
 */
export const SECRET_QUERY_PARAMETERS = ['token', 'id', 'code', 'confirmEmail', 'logoutId'] as const;

const SECRET_NAMES = new Set<string>(SECRET_QUERY_PARAMETERS.map((name) => name.toLowerCase()));

/** How deep a `returnUrl` inside a `returnUrl` is still read (a sign-in page sends back to a page that did the same). */
const MAX_RETURN_URL_DEPTH = 2;

/**
 * True when a query (`?a=1&b=2` or its parameters) carries a {@link SECRET_QUERY_PARAMETERS} parameter, in any
 * spelling, itself or inside a `returnUrl`: a signed-out browser opening `/account/?confirmEmail=…` is sent to
 * `/account/login?returnUrl=%2Faccount%2F%3FconfirmEmail%3D…`, whose address carries the same secret.
 */
export function queryCarriesSecret(query: string | URLSearchParams, depth = 0): boolean {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  for (const [name, value] of params) {
    const lower = name.toLowerCase();
    if (SECRET_NAMES.has(lower)) return true;
    if (lower === 'returnurl' && depth < MAX_RETURN_URL_DEPTH) {
      const start = value.indexOf('?');
      if (start >= 0 && queryCarriesSecret(value.slice(start + 1).split('#')[0]!, depth + 1)) return true;
    }
  }
  return false;
}
