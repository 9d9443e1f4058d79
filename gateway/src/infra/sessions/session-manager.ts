import { randomToken, sha256 } from '../crypto/tokens.js';
import type { SessionData, SessionRecord, SessionStore } from './session-store.js';

/** Remember-me lasts at most 30 days (S28). */
export const REMEMBER_ME_MAX_MS = 30 * 24 * 3_600_000;

/** Timeouts of the session manager. */
export interface SessionTimeouts {
  /** Ends a session after this long without a request. */
  idleMs: number;
  /** Ends a session this long after it started, whatever the activity. */
  absoluteMs: number;
  /** Idle timeout of a remember-me session (bounded by {@link REMEMBER_ME_MAX_MS}). */
  persistentIdleMs?: number;
}

/** A loaded or new session; `id` is the opaque value of the cookie. */
export interface Session {
  id: string;
  record: SessionRecord;
  /**
   * The id was issued to an anonymous browser without storing anything ({@link SessionManager.anonymous}): its
   * record is written on the first save, and when it ends an ended marker keeps it from coming back.
   */
  issued?: boolean;
  /** False while nothing has been written for the session (an issued id before its first save). */
  stored?: boolean;
}

/** Result of looking up a cookie's id. */
export type SessionLookup = { kind: 'none' } | { kind: 'expired' } | { kind: 'active'; session: Session };

// Only touch the store for activity when the last write is this old, so GET-heavy pages do not write each time.
const TOUCH_INTERVAL_MS = 30_000;

/**
 * Server-side sessions: opaque 256-bit ids (S25), idle + absolute timeouts enforced here on every load (S28),
 * remember-me ≤ 30 days, and `regenerate` that issues a new id and kills the old one (S24).
 *
 * Only `create` (and the first save of an issued id) inserts a record; `save` updates a live record and nothing
 * else, so a request still holding a session that sign-out or `regenerate` ended cannot write it back (S27).
 */
export class SessionManager {
  constructor(
    private readonly store: SessionStore,
    private readonly timeouts: SessionTimeouts,
    private readonly now: () => number = Date.now,
  ) {}

  private key(id: string): string {
    return sha256(id);
  }

  private idleMs(record: SessionRecord): number {
    return record.persistent
      ? Math.min(this.timeouts.persistentIdleMs ?? 14 * 24 * 3_600_000, REMEMBER_ME_MAX_MS)
      : this.timeouts.idleMs;
  }

  /** When the session ends if no further request comes. */
  expiresAt(record: SessionRecord): number {
    return Math.min(record.lastSeenAt + this.idleMs(record), record.absoluteExpiresAt);
  }

  /**
   * How long the store keeps a record. An issued id's record outlives its session by the absolute timeout, and so
   * does its ended marker: a browser still sending that id is told its session timed out rather than taken for a
   * brand-new anonymous visitor (the id itself proves no more than that the server issued it).
   */
  private storeUntil(session: Session): number {
    const end = this.expiresAt(session.record);
    return session.issued ? end + this.timeouts.absoluteMs : end;
  }

  private fresh(data: SessionData, persistent: boolean): SessionRecord {
    const now = this.now();
    return {
      data,
      createdAt: now,
      lastSeenAt: now,
      absoluteExpiresAt: now + (persistent ? REMEMBER_ME_MAX_MS : this.timeouts.absoluteMs),
      persistent,
    };
  }

  /**
   * Looks a cookie's id up; an idle or absolutely expired session is ended and reported as expired, as is an id
   * whose record is gone. `issued`: the caller verified that the server issued this id to an anonymous browser;
   * without a record it is that anonymous session, not an expired one.
   */
  async load(id: string | undefined, issued = false): Promise<SessionLookup> {
    if (!id || id.length < 20 || id.length > 100) return { kind: 'none' };
    const found = await this.store.get(this.key(id));
    if (!found) return issued ? { kind: 'active', session: this.anonymous(id) } : { kind: 'expired' };
    if (found.kind === 'ended') return { kind: 'expired' };
    const session: Session = { id, record: found.record, ...(issued ? { issued: true, stored: true } : {}) };
    const now = this.now();
    if (now >= this.expiresAt(session.record)) {
      await this.destroy(session);
      return { kind: 'expired' };
    }
    if (now - session.record.lastSeenAt >= TOUCH_INTERVAL_MS) {
      session.record.lastSeenAt = now;
      // Ended by another request since the read: it is expired for this one too.
      if (!(await this.store.update(this.key(id), session.record, this.storeUntil(session))))
        return { kind: 'expired' };
    }
    return { kind: 'active', session };
  }

  /** The session of an id issued to an anonymous browser, before anything is stored for it (see `save`). */
  anonymous(id: string): Session {
    return { id, record: this.fresh({}, false), issued: true, stored: false };
  }

  /** Starts a new stored session. */
  async create(data: SessionData = {}, persistent = false): Promise<Session> {
    const session: Session = { id: randomToken(32), record: this.fresh(data, persistent) };
    // 256 random bits never collide; a refused insert would mean the store holds the key already.
    if (!(await this.store.create(this.key(session.id), session.record, this.storeUntil(session))))
      throw new Error('session id already in use');
    return session;
  }

  /**
   * Writes the session's data back, only over its live record: true when written. False when another request
   * ended the session meanwhile (sign-out, a new id, a timeout): the data is dropped, the session stays ended.
   * An issued id's first save creates its record, unless that id has ended.
   */
  async save(session: Session): Promise<boolean> {
    session.record.lastSeenAt = this.now();
    const key = this.key(session.id);
    const until = this.storeUntil(session);
    if (session.stored === false) {
      // Another request of the same browser may have created it first: then this is an update like any other.
      if (await this.store.create(key, session.record, until)) {
        session.stored = true;
        return true;
      }
    }
    const written = await this.store.update(key, session.record, until);
    if (written) session.stored = true;
    return written;
  }

  /**
   * Issues a new id for the session's data and ends the old id (S24). `persistent` switches remember-me on
   * or off; the absolute timeout restarts because this is a fresh authentication.
   */
  async regenerate(
    session: Session,
    data: SessionData,
    persistent = session.record.persistent,
  ): Promise<Session> {
    // An issued id ends with a marker, written with the new record at once.
    if (session.issued) {
      const next: Session = { id: randomToken(32), record: this.fresh(data, persistent) };
      const written = await this.store.replace(
        this.key(session.id),
        this.now() + this.timeouts.absoluteMs,
        this.key(next.id),
        next.record,
        this.storeUntil(next),
      );
      if (!written) throw new Error('session id already in use');
      return next;
    }
    await this.end(session, true);
    return this.create(data, persistent);
  }

  /**
   * Ends the session: its id loads as expired from now on and no late save brings it back. An issued id that
   * was never stored leaves nothing behind (an anonymous sign-out costs no row), so only an empty anonymous session
   * could be saved under it again.
   */
  async destroy(session: Session): Promise<void> {
    await this.end(session, session.stored !== false);
  }

  private async end(session: Session, leaveMarker: boolean): Promise<void> {
    const key = this.key(session.id);
    // A stored id whose record is gone answers expired anyway, and nothing inserts under it again: deleting is
    // enough. An issued id is recognised without a record, so its end must be remembered.
    if (session.issued && leaveMarker) await this.store.destroy(key, this.now() + this.timeouts.absoluteMs);
    else await this.store.destroy(key);
  }

  ping(): Promise<boolean> {
    return this.store.ping();
  }
}
