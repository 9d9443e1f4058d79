import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { SessionRecord, SessionStore } from './session-store.js';

/** Session store in the main database (the embedded default: SQLite; also PostgreSQL without Redis). */
export class SqlSessionStore implements SessionStore {
  private writes = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['data', 'expires_at'])
      .where('id_hash', '=', key)
      .executeTakeFirst();
    if (!row || row.expires_at <= this.now()) return undefined;
    return JSON.parse(row.data) as SessionRecord;
  }

  async set(key: string, record: SessionRecord, expiresAt: number): Promise<void> {
    const values = {
      id_hash: key,
      data: JSON.stringify(record),
      created_at: record.createdAt,
      last_seen_at: record.lastSeenAt,
      expires_at: expiresAt,
    };
    await this.db
      .insertInto('sessions')
      .values(values)
      .onConflict((oc) =>
        oc
          .column('id_hash')
          .doUpdateSet({ data: values.data, last_seen_at: values.last_seen_at, expires_at: expiresAt }),
      )
      .execute();
    // Expired rows are swept now and then rather than on every write.
    this.writes += 1;
    if (this.writes % 500 === 0)
      await this.db.deleteFrom('sessions').where('expires_at', '<=', this.now()).execute();
  }

  async destroy(key: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', key).execute();
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.selectFrom('sessions').select('id_hash').limit(1).execute();
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
