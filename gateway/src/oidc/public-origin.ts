/**
 * Every absolute URL the provider hands out comes from PUBLIC_URL, never from Host or X-Forwarded-Host
 * (ARCHITECTURE.md "One origin, one gateway"). oidc-provider builds them from the request: `ctx.oidc.urlFor` resolves
 * a route against Koa's `ctx.href` (lib/helpers/oidc_context.js), which is `protocol://host` of the request, and
 * Koa reads host from Host (or X-Forwarded-Host when `proxy` is on) and protocol from the socket (or
 * X-Forwarded-Proto). Left alone, a request with `Host: evil.example` gets discovery endpoints, a jwks_uri and an
 * interaction resume URL on evil.example — a poisoned cache or a phishing link away from sending users there.
 */
import type Provider from 'oidc-provider';

/**
 * Pins the host and protocol of every Koa request the provider creates to those of `publicUrl`.
 *
 * Koa builds each context's `request` from the app's `request` prototype — for the provider's own callback and for
 * `provider.createContext` (interaction details, our logout hooks) alike — so overriding the two getters there covers
 * all of them; `href`, `hostname`, `URL` and `secure` derive from them. `secure` then follows the public
 * URL too, so behind a TLS-terminating proxy the provider's cookies are Secure (as the `__Host-` session cookie
 * requires) whether or not the proxy is trusted. `proxy` still decides whether X-Forwarded-For is believed.
 */
export function pinPublicOrigin(provider: Provider, publicUrl: string): void {
  const url = new URL(publicUrl);
  const host = url.host;
  const protocol = url.protocol.replace(/:$/, '');
  Object.defineProperties(provider.request, {
    host: { get: () => host, configurable: true, enumerable: true },
    protocol: { get: () => protocol, configurable: true, enumerable: true },
  });
}
