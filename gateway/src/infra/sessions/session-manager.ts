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
}

/** Result of looking up a cookie's id. */
export type SessionLookup = { kind: 'none' } | { kind: 'expired' } | { kind: 'active'; session: Session };

// Only touch the store for activity when the last write is this old, so GET-heavy pages do not write each time.
const TOUCH_INTERVAL_MS = 30_000;

/**
 * Server-side sessions: opaque 256-bit ids (S25), idle + absolute timeouts enforced here on every load (S28),
 * remember-me ≤ 30 days, and `regenerate` that issues a new id and kills the old one (S24).
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

  /** Looks a cookie's id up; an idle or absolutely expired session is destroyed and reported as expired. */
  async load(id: string | undefined): Promise<SessionLookup> {
    if (!id || id.length < 20 || id.length > 100) return { kind: 'none' };
    const record = await this.store.get(this.key(id));
    if (!record) return { kind: 'expired' };
    const now = this.now();
    if (now >= this.expiresAt(record)) {
      await this.store.destroy(this.key(id));
      return { kind: 'expired' };
    }
    if (now - record.lastSeenAt >= TOUCH_INTERVAL_MS) {
      record.lastSeenAt = now;
      await this.store.set(this.key(id), record, this.expiresAt(record));
    }
    return { kind: 'active', session: { id, record } };
  }

  /** Starts a new session. */
  async create(data: SessionData = {}, persistent = false): Promise<Session> {
    const now = this.now();
    const record: SessionRecord = {
      data,
      createdAt: now,
      lastSeenAt: now,
      absoluteExpiresAt: now + (persistent ? REMEMBER_ME_MAX_MS : this.timeouts.absoluteMs),
      persistent,
    };
    const session = { id: randomToken(32), record };
    await this.store.set(this.key(session.id), record, this.expiresAt(record));
    return session;
  }

  /** Writes the session's data back. */
  async save(session: Session): Promise<void> {
    session.record.lastSeenAt = this.now();
    await this.store.set(this.key(session.id), session.record, this.expiresAt(session.record));
  }

  /**
   * Issues a new id for the session's data and destroys the old id (S24). `persistent` switches remember-me on
   * or off; the absolute timeout restarts because this is a fresh authentication.
   */
  async regenerate(
    session: Session,
    data: SessionData,
    persistent = session.record.persistent,
  ): Promise<Session> {
    await this.store.destroy(this.key(session.id));
    return this.create(data, persistent);
  }

  async destroy(session: Session): Promise<void> {
    await this.store.destroy(this.key(session.id));
  }

  ping(): Promise<boolean> {
    return this.store.ping();
  }
}
