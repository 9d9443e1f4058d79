import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A browser remembered for an account's second factor (ADR 0008), as the security centre lists it (ADR 0036). */
export interface RememberedBrowser {
  /** SHA-256 of the cookie entry's random part: never shown to the page. */
  entryKey: string;
  /** Random id the page names the browser by. */
  handle: string;
  userId: string;
  /** SHA-256 of the account's security stamp when it was remembered. */
  stampHash: string;
  rememberedAt: number;
  /** When it last spared a sign-in the second factor; null until then. */
  lastUsedAt: number | null;
  expiresAt: number;
  /** Coarse source address when remembered (a network, not the host). */
  ip: string | null;
  userAgent: string | null;
}

type Row = Database['remembered_browsers'];

function toRememberedBrowser(row: Row): RememberedBrowser {
  return {
    entryKey: row.entry_key,
    handle: row.handle,
    userId: row.user_id,
    stampHash: row.stamp_hash,
    rememberedAt: Number(row.remembered_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    expiresAt: Number(row.expires_at),
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/** The `remembered_browsers` table: an entry of the `idp.2fa` cookie counts only while its row is here. */
export class RememberedBrowserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(browser: RememberedBrowser): Promise<void> {
    await this.db
      .insertInto('remembered_browsers')
      .values({
        entry_key: browser.entryKey,
        handle: browser.handle,
        user_id: browser.userId,
        stamp_hash: browser.stampHash,
        remembered_at: browser.rememberedAt,
        last_used_at: browser.lastUsedAt,
        expires_at: browser.expiresAt,
        ip: browser.ip,
        user_agent: browser.userAgent,
      })
      .execute();
  }

  /** The account's row for an entry, while it has not expired. */
  async findLive(entryKey: string, userId: string, now: number): Promise<RememberedBrowser | undefined> {
    const row = await this.db
      .selectFrom('remembered_browsers')
      .selectAll()
      .where('entry_key', '=', entryKey)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? toRememberedBrowser(row) : undefined;
  }

  /** Records that the entry spared a sign-in the second factor. */
  async markUsed(entryKey: string, at: number): Promise<void> {
    await this.db
      .updateTable('remembered_browsers')
      .set({ last_used_at: at })
      .where('entry_key', '=', entryKey)
      .execute();
  }

  /**
   * The account's browsers that still count, newest first: rows that expired or were remembered under an older
   * security stamp (a password change since) are dropped on the way.
   */
  async listForUser(userId: string, stampHash: string, now: number): Promise<RememberedBrowser[]> {
    await this.db
      .deleteFrom('remembered_browsers')
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('stamp_hash', '!=', stampHash)]))
      .execute();
    const rows = await this.db
      .selectFrom('remembered_browsers')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('remembered_at', 'desc')
      .orderBy('handle')
      .execute();
    return rows.map(toRememberedBrowser);
  }

  /** Forgets one of the account's browsers by its handle; false when the account has none by that handle. */
  async removeByHandle(userId: string, handle: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('remembered_browsers')
      .where('user_id', '=', userId)
      .where('handle', '=', handle)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Forgets every browser of the account; answers how many rows went. */
  async removeAllOf(userId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('remembered_browsers')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Drops the rows of entries a browser no longer holds (replaced, or pushed out of its cookie). */
  async remove(entryKeys: readonly string[]): Promise<void> {
    if (entryKeys.length === 0) return;
    await this.db.deleteFrom('remembered_browsers').where('entry_key', 'in', entryKeys).execute();
  }
}
