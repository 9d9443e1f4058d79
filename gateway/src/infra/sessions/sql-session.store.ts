import { CompiledQuery, type Kysely } from 'kysely';
import { Prepared, type CommittedReader } from '../../store/database.js';
import type { Database } from '../../store/schema.js';
import type { SessionRecord, SessionStore, StoredSession } from './session-store.js';

// The `data` of an ended marker: never valid JSON of a record, so no record can be mistaken for one.
const ENDED = 'ended';

/** Session store in the main database (the embedded default: SQLite; also PostgreSQL without Redis). */
export class SqlSessionStore implements SessionStore {
  private writes = 0;
  /** The read of every request, built and compiled once (Kysely's builder is a good share of a light call). */
  private readonly getSql: string;
  /** The write of every sign-in (`replace`), compiled once ({@link Prepared}). */
  private readonly replaceWrite: Prepared<
    unknown,
    'oldKey' | 'now' | 'endedUntil' | 'newKey' | 'data' | 'createdAt' | 'lastSeenAt' | 'storeUntil'
  >;

  /**
   * @param reader the SQLite file's committed reader (`store.database.committedReader`): the read of every
   *   request then goes without Kysely's driver and its promises. Without one (PostgreSQL, an in-memory SQLite),
   *   through Kysely.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
    private readonly reader?: CommittedReader,
  ) {
    this.getSql = db
      .selectFrom('sessions')
      .select(['data', 'expires_at'])
      .where('id_hash', '=', '')
      .compile().sql;
    this.replaceWrite = new Prepared(db, undefined, (param) =>
      db
        .insertInto('sessions')
        .values([
          {
            id_hash: param('oldKey'),
            data: ENDED,
            created_at: param('now'),
            last_seen_at: param('now'),
            expires_at: param('endedUntil'),
          },
          {
            id_hash: param('newKey'),
            data: param('data'),
            created_at: param('createdAt'),
            last_seen_at: param('lastSeenAt'),
            expires_at: param('storeUntil'),
          },
        ])
        .onConflict((oc) =>
          oc
            .column('id_hash')
            .doUpdateSet({ data: ENDED, last_seen_at: param('now'), expires_at: param('endedUntil') })
            .where((eb) => eb(eb.ref('excluded.id_hash'), '=', param('oldKey'))),
        ),
    );
  }

  async get(key: string): Promise<StoredSession | undefined> {
    type Row = { data: string; expires_at: number };
    const row = this.reader
      ? this.reader.get<Row>(this.getSql, [key])
      : (await this.db.executeQuery<Row>(CompiledQuery.raw(this.getSql, [key]))).rows[0];
    if (!row || Number(row.expires_at) <= this.now()) return undefined;
    return row.data === ENDED
      ? { kind: 'ended' }
      : { kind: 'live', record: JSON.parse(row.data) as SessionRecord };
  }

  async create(key: string, record: SessionRecord, storeUntil: number): Promise<boolean> {
    await this.sweep();
    // A row past its time that nobody swept yet must not block the key, so it goes first.
    await this.db
      .deleteFrom('sessions')
      .where('id_hash', '=', key)
      .where('expires_at', '<=', this.now())
      .execute();
    const result = await this.db
      .insertInto('sessions')
      .values({
        id_hash: key,
        data: JSON.stringify(record),
        created_at: record.createdAt,
        last_seen_at: record.lastSeenAt,
        expires_at: storeUntil,
      })
      .onConflict((oc) => oc.column('id_hash').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(key: string, record: SessionRecord, storeUntil: number): Promise<boolean> {
    await this.sweep();
    // One conditional statement: a row removed or ended by another request in the meantime is not written back.
    const result = await this.db
      .updateTable('sessions')
      .set({ data: JSON.stringify(record), last_seen_at: record.lastSeenAt, expires_at: storeUntil })
      .where('id_hash', '=', key)
      .where('data', '<>', ENDED)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async destroy(key: string, endedUntil?: number): Promise<void> {
    if (endedUntil === undefined) {
      await this.db.deleteFrom('sessions').where('id_hash', '=', key).execute();
      return;
    }
    const now = this.now();
    await this.db
      .insertInto('sessions')
      .values({ id_hash: key, data: ENDED, created_at: now, last_seen_at: now, expires_at: endedUntil })
      .onConflict((oc) =>
        oc.column('id_hash').doUpdateSet({ data: ENDED, last_seen_at: now, expires_at: endedUntil }),
      )
      .execute();
  }

  /**
   * The ended marker under `oldKey` and the new record under `newKey` in one statement, so one commit: a two-row
   * upsert whose conflict rule turns only the old key's row into the marker (what `destroy` with `endedUntil`
   * does); a row already under the new key stays as it is and the answer is false (the old key has ended all the
   * same, as after `destroy` and a refused `create`). The new key is 256 fresh random
   * bits, so no row past its time holds it either (`create` clears one first).
   */
  async replace(
    oldKey: string,
    endedUntil: number,
    newKey: string,
    record: SessionRecord,
    storeUntil: number,
  ): Promise<boolean> {
    await this.sweep();
    const changed = await this.replaceWrite.run({
      oldKey,
      now: this.now(),
      endedUntil,
      newKey,
      data: JSON.stringify(record),
      createdAt: record.createdAt,
      lastSeenAt: record.lastSeenAt,
      storeUntil,
    });
    return changed === 2;
  }

  // Rows past their time are swept now and then rather than on every write.
  private async sweep(): Promise<void> {
    this.writes += 1;
    if (this.writes % 500 === 0)
      await this.db.deleteFrom('sessions').where('expires_at', '<=', this.now()).execute();
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
