/**
 * The OIDC session follows the site session (ADR 0006). oidc-provider keeps its own session (cookie
 * `idp.oidc.session`) and would answer authorizations from it for as long as it lives; the site session is the one
 * truth of who is signed in in this browser. Before every authorization we compare the two: an OIDC session whose
 * account or sign-in (auth_time) is not the site session's — because the site session timed out, was signed out,
 * lost its cookie, or another user signed in — is ended there and then (back-channel logout, grants revoked), so
 * oidc-provider sees no session and runs the interaction (or answers `login_required` to `prompt=none`).
 */
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC, Session } from 'oidc-provider';
import type { GetSignedInAccount, SignedInAccount } from './types.js';

/** Reads the site session once per request and remembers the answer for the provider's synchronous hooks. */
export interface SiteSessionReader {
  /** The signed-in account of the site session, or undefined (read once per request). */
  read(req: IncomingMessage): Promise<SignedInAccount | undefined>;
  /** What {@link read} answered for this request, if it ran (for synchronous hooks such as `ttl.Session`). */
  known(req: IncomingMessage): SignedInAccount | undefined;
}

function normalise(value: SignedInAccount | string | undefined): SignedInAccount | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? { accountId: value } : value;
}

/** A {@link SiteSessionReader} over the gateway's `getSignedInAccount`. */
export function siteSessionReader(getSignedInAccount: GetSignedInAccount): SiteSessionReader {
  // Keyed by the request object, so the answer dies with the request and never crosses to another one.
  const answers = new WeakMap<IncomingMessage, SignedInAccount | undefined>();
  return {
    async read(req) {
      if (answers.has(req)) return answers.get(req);
      const account = normalise(await getSignedInAccount(req as Request));
      answers.set(req, account);
      return account;
    },
    known: (req) => answers.get(req),
  };
}

/** True when the OIDC session was made by this site sign-in: same account and, when known, the same auth_time. */
export function oidcSessionBelongsTo(session: Session, site: SignedInAccount | undefined): boolean {
  if (!site || session.accountId !== site.accountId) return false;
  return site.authTime === undefined || session.authTime() === site.authTime;
}

/** Removes a cookie (and its signature) from the request, so oidc-provider does not load what we just ended. */
function dropRequestCookie(req: IncomingMessage, name: string): void {
  const header = req.headers.cookie;
  if (!header) return;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => {
      const key = part.slice(0, part.indexOf('='));
      return key !== name && key !== `${name}.sig`;
    });
  if (kept.length > 0) req.headers.cookie = kept.join('; ');
  else delete req.headers.cookie;
}

/** Ends one OIDC session the way the Logout call does (back-channel logout, grants, cookie). */
export type TerminateOidcSession = (
  provider: Provider,
  session: Session,
  ctx: KoaContextWithOIDC,
) => Promise<unknown>;

/**
 * Runs before oidc-provider on an authorization request: ends the browser's OIDC session when it does not belong to
 * the live site session. Answers whether one was ended.
 */
export async function endOidcSessionUnlessSiteSessionMatches(
  provider: Provider,
  req: Request,
  res: Response,
  site: SignedInAccount | undefined,
  terminate: TerminateOidcSession,
): Promise<boolean> {
  const ctx = provider.createContext(req, res) as unknown as KoaContextWithOIDC;
  const session = await provider.Session.get(ctx);
  if (!session.accountId || oidcSessionBelongsTo(session, site)) return false;
  await terminate(provider, session, ctx);
  dropRequestCookie(req, provider.cookieName('session'));
  return true;
}

/** True when the authorization request asks for no interaction (`prompt=none`, OIDC Core §3.1.2.1), by query. */
export function asksForNoInteraction(req: Request): boolean {
  const prompt = req.query.prompt;
  return typeof prompt === 'string' && prompt.split(' ').includes('none');
}

/**
 * `prompt=none` from an application while the site session is signed in but the browser has no OIDC session yet
 * (the user signed in on the site, not through this or any application): oidc-provider would answer
 * `login_required`, since it can only sign a session in through an interaction, and `prompt=none` forbids one.
 * The site session is the one truth (ADR 0006), so its sign-in becomes the OIDC session here, exactly as the
 * interaction would have made it (account, auth_time, amr; transient unless remember-me), and oidc-provider finds
 * it on this very request (ADR 0020). Runs after {@link endOidcSessionUnlessSiteSessionMatches}. Answers whether
 * it made one.
 */
export async function startOidcSessionForNoInteraction(
  provider: Provider,
  req: Request,
  res: Response,
  site: SignedInAccount | undefined,
  ttl: (ctx: KoaContextWithOIDC, session: Session) => number,
): Promise<boolean> {
  if (!site || !asksForNoInteraction(req)) return false;
  const ctx = provider.createContext(req, res) as unknown as KoaContextWithOIDC;
  const session = await provider.Session.get(ctx);
  if (session.accountId) return false;
  session.loginAccount({
    accountId: site.accountId,
    ...(site.authTime !== undefined ? { loginTs: site.authTime } : {}),
    ...(site.amr ? { amr: [...site.amr] } : {}),
    transient: site.persistent !== true,
  });
  await session.save(ttl(ctx, session));
  // oidc-provider reads its (signed) session cookie from this request; its own middleware sets it on the response.
  const name = provider.cookieName('session');
  const keys = (ctx as unknown as { cookies: { keys?: { sign(data: string): string } } }).cookies.keys;
  if (!keys) return false;
  dropRequestCookie(req, name);
  const pairs = [`${name}=${session.jti}`, `${name}.sig=${keys.sign(`${name}=${session.jti}`)}`];
  req.headers.cookie = [req.headers.cookie, ...pairs].filter(Boolean).join('; ');
  return true;
}

/**
 * `ttl.Session`: at most the configured lifetime, and never beyond the site session's absolute end. Without a
 * reading of the site session (a request that does not sign in, e.g. the end-session's bookkeeping) an existing
 * session keeps its expiry rather than being extended.
 */
export function sessionTtl(
  reader: SiteSessionReader,
  lifetimeSeconds: number,
): (ctx: KoaContextWithOIDC, session: Session) => number {
  return (ctx, session) => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const site = reader.known(ctx.req);
    if (site?.expiresAt !== undefined) {
      const left = Math.floor(site.expiresAt / 1000) - nowSeconds;
      return Math.max(1, Math.min(lifetimeSeconds, left));
    }
    if (typeof session.exp === 'number') return Math.max(1, session.exp - nowSeconds);
    return lifetimeSeconds;
  };
}
