/**
 * True when a remote's file (a manifest entry, an entry script) is on the page's own origin: a path such as
 * `/remotes/mfe-login/1.0.0/mf-manifest.json` or an absolute URL of this origin. Anything else (another host, port
 * or scheme, `//host/…`, `data:`, `javascript:`) is refused before the federation runtime loads it, in addition to
 * the CSP's 'self' (S33, docs/adr/0044-secrets-demo-data-remote-origins.md): a manifest naming another origin would
 * otherwise have that origin's code run as ours.
 */
export function isOwnOrigin(url: string, origin = window.location.origin): boolean {
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}
