import type { CookieJar } from '../infra/cookie-jar.js';
import type { Session, SessionLookup } from '../infra/sessions/session-manager.js';
import type { SessionData } from '../infra/sessions/session-store.js';

/** Reads the session a call carries (the cookie's), looked up once per call. */
export interface SessionReader {
  /** The session as the browser's cookie names it: none, expired, or active. */
  lookup(): Promise<SessionLookup>;
  /** The active session, if any. */
  current(): Promise<Session | undefined>;
}

/**
 * The browser behind one call, as identity sees it (issue 42: identity speaks no HTTP): its session, whose id the
 * services replace (S24) or end (S27), and its cookies. The services take this port and plain values; the HTTP layer
 * implements it over the request and response (`http/browser.ts`, one object per request) and translates the
 * answers. The OIDC side reaches the same request through it where oidc-provider needs one (`exchangeOf`).
 */
export interface Browser extends SessionReader, CookieJar {
  /** The active session, or a new anonymous one (its cookie sent, nothing stored until it is saved). */
  ensure(): Promise<Session>;
  /** Replaces the session with a new id carrying `data` (S24) and sends its cookie; the old id is dead. */
  regenerate(session: Session, data: SessionData, persistent?: boolean): Promise<Session>;
  /** Ends the session server-side (S27) and starts a fresh anonymous one. */
  end(): Promise<Session>;
}

/** Writes a session back (no HTTP involved: the record only). */
export interface SessionWriter {
  /** False when the session ended meanwhile: nothing is written. */
  save(session: Session): Promise<boolean>;
}
