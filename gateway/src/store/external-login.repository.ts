import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** An external identity linked to a local account: keyed by (issuer, subject), never by e-mail (S35). */
export interface ExternalLogin {
  issuer: string;
  subject: string;
  userId: string;
  /** The identity provider (`IdentityProvider.id`) it came through. */
  providerId: string;
  createdAt: number;
  lastUsedAt: number | undefined;
}

/** The external_logins table. */
export class ExternalLoginRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The account an upstream identity is linked to: by issuer and subject only (S35). */
  async find(issuer: string, subject: string): Promise<ExternalLogin | undefined> {
    const row = await this.db
      .selectFrom('external_logins')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row
      ? {
          issuer: row.issuer,
          subject: row.subject,
          userId: row.user_id,
          providerId: row.vendor_id,
          createdAt: row.created_at,
          lastUsedAt: row.last_used_at ?? undefined,
        }
      : undefined;
  }

  /**
   * Links the identity to `userId`. False when the identity is already linked (to this or another account): one
   * upstream identity names one local account.
   */
  async link(input: {
    issuer: string;
    subject: string;
    userId: string;
    providerId: string;
  }): Promise<boolean> {
    const result = await this.db
      .insertInto('external_logins')
      .values({
        issuer: input.issuer,
        subject: input.subject,
        user_id: input.userId,
        vendor_id: input.providerId,
        created_at: this.now(),
      })
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async touch(issuer: string, subject: string): Promise<void> {
    await this.db
      .updateTable('external_logins')
      .set({ last_used_at: this.now() })
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .execute();
  }

  /** The identities linked to an account. */
  async listForUser(userId: string): Promise<ExternalLogin[]> {
    const rows = await this.db
      .selectFrom('external_logins')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      issuer: row.issuer,
      subject: row.subject,
      userId: row.user_id,
      providerId: row.vendor_id,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at ?? undefined,
    }));
  }

  /** Removes the account's identities of one provider; the number removed. */
  async unlink(userId: string, providerId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('external_logins')
      .where('user_id', '=', userId)
      .where('vendor_id', '=', providerId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
