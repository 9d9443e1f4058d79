import type { NextFunction, Request, Response } from 'express';
import type { GatewayConfig } from '../config.js';
import { hmac, randomToken, safeEqual } from '../infra/crypto/tokens.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { cookieNames, readCookie, setCookie } from './cookies.js';
import { sendFormError } from './problem.js';

const STATE_TTL_MS = 10 * 60_000;
/** How many verified token and session pairs are remembered before the memory starts again. */
const PROVED_PAIRS_KEPT = 10_000;

/**
 * Signed double-submit anti-forgery (S30): the token is `nonce.HMAC(secret, session id, nonce)`, set in a cookie
 * the page can read (name ends `x-csrf-token-value`) and echoed in the header of the same name. It is valid only
 * for the session it was made for, so a token planted from another session does not pass.
 */
export class Antiforgery {
  private readonly cookieName: string;
  /** Token and session pairs whose signature verified (a pure function of the secret and the two strings). */
  private readonly proved = new Set<string>();

  constructor(
    private readonly config: Pick<GatewayConfig, 'secure' | 'secretKey'>,
    private readonly sessions: RequestSessions,
    private readonly now: () => number = Date.now,
  ) {
    this.cookieName = cookieNames(config).antiforgery;
  }

  tokenFor(sessionId: string): string {
    const nonce = randomToken(16);
    return `${nonce}.${hmac(this.config.secretKey, 'csrf', sessionId, nonce)}`;
  }

  isValidFor(token: string | undefined, sessionId: string | undefined): boolean {
    if (!token || !sessionId || token.length > 200) return false;
    // A page sends the same token with every call of its session: a pair already proved is not signed again.
    // Only proved pairs are kept, keyed by both exact strings, so a guess always pays the full check.
    const key = `${sessionId} ${token}`;
    if (this.proved.has(key)) return true;
    const [nonce, mac, extra] = token.split('.');
    if (!nonce || !mac || extra !== undefined) return false;
    if (!safeEqual(mac, hmac(this.config.secretKey, 'csrf', sessionId, nonce))) return false;
    if (this.proved.size >= PROVED_PAIRS_KEPT) this.proved.clear();
    this.proved.add(key);
    return true;
  }

  /** Sets a fresh token cookie for the session and returns the token. */
  issue(res: Response, sessionId: string): string {
    const token = this.tokenFor(sessionId);
    setCookie(res, this.config, this.cookieName, token, { httpOnly: false, sameSite: 'strict' });
    return token;
  }

  /** True when the header equals the cookie and is signed for the request's session cookie. */
  verifyRequest(req: Request): boolean {
    const header = req.get('x-csrf-token-value');
    const cookie = readCookie(req, this.cookieName);
    if (!header || !cookie || !safeEqual(header, cookie)) return false;
    return this.isValidFor(header, this.sessions.cookieId(req));
  }

  /** The `state` of a 209 answer: proves to `Exchange` which session the step change produced. */
  stateFor(sessionId: string): string {
    const issued = this.now().toString(36);
    const nonce = randomToken(12);
    return `${issued}.${nonce}.${hmac(this.config.secretKey, 'state', sessionId, issued, nonce)}`;
  }

  isValidState(state: string, sessionId: string | undefined): boolean {
    if (!sessionId) return false;
    const [issued, nonce, mac, extra] = state.split('.');
    if (!issued || !nonce || !mac || extra !== undefined) return false;
    const at = parseInt(issued, 36);
    if (!Number.isFinite(at) || this.now() - at > STATE_TTL_MS || at - this.now() > 60_000) return false;
    return safeEqual(mac, hmac(this.config.secretKey, 'state', sessionId, issued, nonce));
  }

  /**
   * Middleware for the account API: every non-GET/HEAD call needs a valid token, checked before anything runs.
   * On failure it answers 400 `{"": ["antiforgeryInvalid"]}` and hands out a fresh token for the browser's
   * session so a reload-free retry can work. `exempt` names calls that prove themselves otherwise (Exchange).
   */
  middleware(exempt: (req: Request) => boolean) {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || exempt(req)) {
        next();
        return;
      }
      if (this.verifyRequest(req)) {
        next();
        return;
      }
      try {
        const session = await this.sessions.current(req);
        if (session) this.issue(res, session.id);
      } catch {
        // The answer is a refusal either way.
      }
      sendFormError(res, 'antiforgeryInvalid');
    };
  }
}
