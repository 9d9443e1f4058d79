import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfig } from '../../config.js';
import { randomFrom } from '../crypto/tokens.js';
import { cookieName, setCookieValue } from '../cookie-attributes.js';
import { appendSetCookie, readCookie } from '../read-cookie.js';
import type { Session, SessionLookup, SessionManager } from './session-manager.js';
import { REMEMBER_ME_MAX_MS } from './session-manager.js';
import type { SessionData } from './session-store.js';

type Req = IncomingMessage;
type Res = ServerResponse;

const cache = new WeakMap<Req, SessionLookup>();

// An issued anonymous id: 32 random bytes (S25) and the first 16 bytes of their HMAC, base64url (64 characters).
const ISSUED_RANDOM_BYTES = 32;
const ISSUED_MAC_BYTES = 16;
const ISSUED_ID = /^[A-Za-z0-9_-]{64}$/;
/** How many recognised ids are remembered, so a browser's every call does not compute the MAC again. */
const RECOGNISED_IDS = 10_000;

/**
 * The session of a request, through its cookie. Works on plain Node requests so oidc-provider's handlers (Koa)
 * and Express routers share it. Lookups are cached per request.
 *
 * An anonymous browser costs no storage: `ensure` issues it an id the server can recognise by its MAC
 * (SECRET_KEY) and stores nothing; the record is written on the first `save` that has something to keep (the
 * remembered username, a logged-out record), and sign-in moves the data to a new stored id (S24). An issued id
 * without a record is that empty anonymous session; one whose record ended or timed out is expired.
 */
export class RequestSessions {
  readonly cookieName: string;
  private readonly secret: Buffer;
  /** Ids whose MAC checked out (a pure fact of the id and the key); oldest forgotten first. Never a failed one. */
  private readonly recognised = new Set<string>();

  constructor(
    readonly manager: SessionManager,
    private readonly config: Pick<GatewayConfig, 'secure'> & Partial<Pick<GatewayConfig, 'secretKey'>>,
  ) {
    this.cookieName = cookieName(config, 'idp.session');
    // Without a configured key (unit tests) the ids are recognised only by this process, which is all they need.
    this.secret = config.secretKey ?? randomBytes(32);
  }

  private mac(random: Buffer): Buffer {
    return createHmac('sha256', this.secret)
      .update('anonymous-session|')
      .update(random)
      .digest()
      .subarray(0, ISSUED_MAC_BYTES);
  }

  /** A new anonymous id: random, with a MAC that lets the server recognise it later without storing it. */
  private issueId(): string {
    const random = randomFrom(ISSUED_RANDOM_BYTES);
    return Buffer.concat([random, this.mac(random)]).toString('base64url');
  }

  /** True when the server issued `id` as an anonymous id (constant-time check of its MAC). */
  private isIssued(id: string | undefined): id is string {
    if (!id || !ISSUED_ID.test(id)) return false;
    if (this.recognised.has(id)) return true;
    const raw = Buffer.from(id, 'base64url');
    if (raw.length !== ISSUED_RANDOM_BYTES + ISSUED_MAC_BYTES) return false;
    if (!timingSafeEqual(raw.subarray(ISSUED_RANDOM_BYTES), this.mac(raw.subarray(0, ISSUED_RANDOM_BYTES))))
      return false;
    this.recognised.add(id);
    if (this.recognised.size > RECOGNISED_IDS) this.recognised.delete(this.recognised.values().next().value!);
    return true;
  }

  /** The raw session id the browser sent, if any. */
  cookieId(req: Req): string | undefined {
    return readCookie(req, this.cookieName);
  }

  /** Loads the request's session (none, expired or active). */
  async lookup(req: Req): Promise<SessionLookup> {
    const cached = cache.get(req);
    if (cached) return cached;
    const id = this.cookieId(req);
    const result = await this.manager.load(id, this.isIssued(id));
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
    appendSetCookie(
      res,
      setCookieValue(this.config, this.cookieName, session.id, {
        httpOnly: true,
        maxAgeSeconds: session.record.persistent
          ? Math.min(session.record.absoluteExpiresAt - session.record.createdAt, REMEMBER_ME_MAX_MS) / 1000
          : undefined,
      }),
    );
  }

  /** The active session, or a new anonymous one (cookie sent, nothing stored until it is saved). */
  async ensure(req: Req, res: Res): Promise<Session> {
    const existing = await this.current(req);
    if (existing) return existing;
    const session = this.manager.anonymous(this.issueId());
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

  /**
   * Ends the request's session server-side (its id is dead: S27, and no request still holding it can write it
   * back) and starts a fresh anonymous one, stored once something is saved in it.
   */
  async end(req: Req, res: Res): Promise<Session> {
    const session = await this.current(req);
    if (session) await this.manager.destroy(session);
    const next = this.manager.anonymous(this.issueId());
    this.use(req, res, next);
    return next;
  }

  /**
   * Writes the session back over its live record (or creates an anonymous one's first record). False when the
   * session ended meanwhile: nothing is written, the session stays ended.
   */
  save(session: Session): Promise<boolean> {
    return this.manager.save(session);
  }
}
