import type { Kysely } from 'kysely';
import { Prepared } from './database.js';
import type { Database } from './schema.js';

/** A signed-in session as the security centre lists it (ADR 0036). */
export interface AccountSession {
  /** The session store's key (a hash of the cookie id): never shown to the page. */
  sessionKey: string;
  /** Random id the page names the session by. */
  handle: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string | null;
  userAgent: string | null;
}

type Row = Database['account_sessions'];

const COLUMNS = [
  'session_key',
  'handle',
  'user_id',
  'created_at',
  'last_seen_at',
  'expires_at',
  'ip',
  'user_agent',
] as const satisfies readonly (keyof Row)[];

function toSession(row: Row): AccountSession {
  return {
    sessionKey: row.session_key,
    handle: row.handle,
    userId: row.user_id,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/** The `account_sessions` table: which account each signed-in session belongs to. */
export class AccountSessionRepository {
  /** The two writes of every sign-in (the new key's row, the replaced key's removal), compiled once ({@link Prepared}). */
  private readonly addWrite: Prepared<unknown, keyof Row>;
  private readonly removeWrite: Prepared<unknown, 'sessionKey'>;

  constructor(private readonly db: Kysely<Database>) {
    this.addWrite = new Prepared(db, undefined, (param) => {
      const row = Object.fromEntries(COLUMNS.map((column) => [column, param(column)])) as never;
      return db
        .insertInto('account_sessions')
        .values(row)
        .onConflict((oc) => oc.column('session_key').doUpdateSet(row));
    });
    this.removeWrite = new Prepared(db, undefined, (param) =>
      db.deleteFrom('account_sessions').where('session_key', '=', param('sessionKey')),
    );
  }

  /** Records a new signed-in session (or takes over the key's row: a key is one session). */
  async add(session: AccountSession): Promise<void> {
    await this.addWrite.run({
      session_key: session.sessionKey,
      handle: session.handle,
      user_id: session.userId,
      created_at: session.createdAt,
      last_seen_at: session.lastSeenAt,
      expires_at: session.expiresAt,
      ip: session.ip,
      user_agent: session.userAgent,
    });
  }

  /** Moves a session's activity forward. */
  async touch(sessionKey: string, lastSeenAt: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('account_sessions')
      .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
      .where('session_key', '=', sessionKey)
      .execute();
  }

  async find(sessionKey: string): Promise<AccountSession | undefined> {
    const row = await this.db
      .selectFrom('account_sessions')
      .selectAll()
      .where('session_key', '=', sessionKey)
      .executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  /** The user's sessions that have not expired, newest activity first; expired rows are dropped on the way. */
  async listForUser(userId: string, now: number): Promise<AccountSession[]> {
    await this.db
      .deleteFrom('account_sessions')
      .where('user_id', '=', userId)
      .where('expires_at', '<=', now)
      .execute();
    const rows = await this.db
      .selectFrom('account_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('last_seen_at', 'desc')
      .execute();
    return rows.map(toSession);
  }

  async remove(sessionKey: string): Promise<void> {
    await this.removeWrite.run({ sessionKey });
  }
}
