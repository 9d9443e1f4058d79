import type { Kysely, Selectable } from 'kysely';
import type { Database } from './schema.js';

/** A registered passkey or security key (WebAuthn credential), bound to one user. */
export interface Passkey {
  /** The credential id, URL-safe base64: the table's key (an id belongs to one user only). */
  id: string;
  userId: string;
  /** COSE public key, URL-safe base64. */
  publicKey: string;
  /** The last signature counter seen (0 for authenticators that do not count). */
  counter: number;
  transports: string[];
  /** The name the user gave the device. */
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  /**
   * The security stamp the passkey is bound to when it was added without a proved second factor (ADR 0042): it
   * works only while the account has that stamp. Null: not bound.
   */
  boundStamp: string | null;
}

/** A credential as registration stores it. */
export type NewPasskey = Omit<Passkey, 'createdAt' | 'lastUsedAt' | 'boundStamp'> & {
  boundStamp?: string | null;
};

type Row = Selectable<Database['webauthn_credentials']>;

function toPasskey(row: Row): Passkey {
  let transports: string[] = [];
  try {
    const parsed = JSON.parse(row.transports) as unknown;
    if (Array.isArray(parsed)) transports = parsed.filter((t): t is string => typeof t === 'string');
  } catch {
    // A malformed list only loses the transport hint.
  }
  return {
    id: row.id,
    userId: row.user_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports,
    name: row.display_name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    boundStamp: row.bound_stamp ?? null,
  };
}

/**
 * The passkeys (ADR 0057's name) over the `webauthn_credentials` and `device_offer_skips` tables: the SQL tables keep
 * the names of their migrations (0001, 0013), since renaming a table every deployment holds buys nothing a reader
 * needs; in code they are passkeys and the passkey offer.
 */
export class PasskeyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async find(id: string): Promise<Passkey | undefined> {
    const row = await this.db
      .selectFrom('webauthn_credentials')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPasskey(row) : undefined;
  }

  async listForUser(userId: string): Promise<Passkey[]> {
    const rows = await this.db
      .selectFrom('webauthn_credentials')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map(toPasskey);
  }

  /** Stores a new credential; false when the id is already registered (to anyone). */
  async add(credential: NewPasskey): Promise<boolean> {
    const result = await this.db
      .insertInto('webauthn_credentials')
      .values({
        id: credential.id,
        user_id: credential.userId,
        public_key: credential.publicKey,
        counter: credential.counter,
        transports: JSON.stringify(credential.transports),
        display_name: credential.name,
        created_at: this.now(),
        last_used_at: null,
        bound_stamp: credential.boundStamp ?? null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /**
   * Records a sign-in with the credential: the new counter and the time. The counter only moves forward (S23):
   * false when another request already stored this or a higher non-zero counter.
   */
  async recordUse(id: string, previousCounter: number, newCounter: number): Promise<boolean> {
    const result = await this.db
      .updateTable('webauthn_credentials')
      .set({ counter: newCounter, last_used_at: this.now() })
      .where('id', '=', id)
      .where('counter', '=', previousCounter)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Renames one of the user's credentials; false when it is not theirs. */
  async rename(userId: string, id: string, name: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webauthn_credentials')
      .set({ display_name: name })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Removes one of the user's credentials; false when it is not theirs. */
  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webauthn_credentials')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Remembers that the user skipped the passkey offer now (SkipFido). */
  async recordOfferSkipped(userId: string): Promise<void> {
    const at = this.now();
    await this.db
      .insertInto('device_offer_skips')
      .values({ user_id: userId, skipped_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ skipped_at: at }))
      .execute();
  }

  /** When the user last skipped the passkey offer, or undefined. */
  async offerSkippedAt(userId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('device_offer_skips')
      .select('skipped_at')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? Number(row.skipped_at) : undefined;
  }
}
