import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfig } from '../../config.js';
import { readCookie } from '../read-cookie.js';
import type { Session, SessionLookup, SessionManager } from './session-manager.js';
import { REMEMBER_ME_MAX_MS } from './session-manager.js';
import type { SessionData } from './session-store.js';

type Req = IncomingMessage;
type Res = ServerResponse;

const cache = new WeakMap<Req, SessionLookup>();

function appendSetCookie(res: Res, cookie: string): void {
  const existing = res.getHeader('set-cookie');
  const list = Array.isArray(existing) ? existing : existing ? [String(existing)] : [];
  res.setHeader('set-cookie', [...list.filter((c) => !c.startsWith(cookie.split('=')[0] + '=')), cookie]);
}

/**
 * The session of a request, through its cookie. Works on plain Node requests so oidc-provider's handlers (Koa)
 * and Express routers share it. Lookups are cached per request.
 */
export class RequestSessions {
  readonly cookieName: string;

  constructor(
    readonly manager: SessionManager,
    private readonly config: Pick<GatewayConfig, 'secure'>,
  ) {
    this.cookieName = `${config.secure ? '__Host-' : ''}idp.session`;
  }

  /** The raw session id the browser sent, if any. */
  cookieId(req: Req): string | undefined {
    return readCookie(req, this.cookieName);
  }

  /** Loads the request's session (none, expired or active). */
  async lookup(req: Req): Promise<SessionLookup> {
    const cached = cache.get(req);
    if (cached) return cached;
    const result = await this.manager.load(this.cookieId(req));
    cache.set(req, result);
    return result;
  }

  /** The active session, if any. */
  async current(req: Req): Promise<Session | undefined> {
    const found = await this.lookup(req);
    return found.kind === 'active' ? found.session : undefined;
  }

  /** Makes `session` the request's session and sends its cookie (persistent for remember-me, ≤ 30 days). */
  use(req: Req, res: Res, session: Session): void {
    cache.set(req, { kind: 'active', session });
    const parts = [
      `${this.cookieName}=${session.id}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      ...(this.config.secure ? ['Secure'] : []),
      ...(session.record.persistent
        ? [
            `Max-Age=${Math.floor(Math.min(session.record.absoluteExpiresAt - session.record.createdAt, REMEMBER_ME_MAX_MS) / 1000)}`,
          ]
        : []),
    ];
    appendSetCookie(res, parts.join('; '));
  }

  /** The active session, or a new anonymous one (cookie sent). */
  async ensure(req: Req, res: Res): Promise<Session> {
    const existing = await this.current(req);
    if (existing) return existing;
    const session = await this.manager.create({});
    this.use(req, res, session);
    return session;
  }

  /** Replaces the session with a new id carrying `data` (S24); the old id is dead from now on. */
  async regenerate(
    req: Req,
    res: Res,
    session: Session,
    data: SessionData,
    persistent?: boolean,
  ): Promise<Session> {
    const next = await this.manager.regenerate(session, data, persistent);
    this.use(req, res, next);
    return next;
  }

  /** Ends the request's session server-side and starts a fresh anonymous one. */
  async end(req: Req, res: Res): Promise<Session> {
    const session = await this.current(req);
    if (session) await this.manager.destroy(session);
    const next = await this.manager.create({});
    this.use(req, res, next);
    return next;
  }

  save(session: Session): Promise<void> {
    return this.manager.save(session);
  }
}
