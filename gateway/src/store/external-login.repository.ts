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
  /** The account's security stamp when the link was made; null for links older than migration 0021. */
  securityStamp: string | null;
}

type Row = {
  issuer: string;
  subject: string;
  user_id: string;
  vendor_id: string;
  created_at: number;
  last_used_at: number | null;
  security_stamp: string | null;
};

function fromRow(row: Row): ExternalLogin {
  return {
    issuer: row.issuer,
    subject: row.subject,
    userId: row.user_id,
    providerId: row.vendor_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at ?? undefined,
    securityStamp: row.security_stamp,
  };
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
    return row ? fromRow(row) : undefined;
  }

  /**
   * Links the identity to `userId`, bound to the account's current `securityStamp`. False when the identity is
   * already linked (to this or another account): one upstream identity names one local account.
   */
  async link(input: {
    issuer: string;
    subject: string;
    userId: string;
    providerId: string;
    securityStamp: string;
  }): Promise<boolean> {
    const result = await this.db
      .insertInto('external_logins')
      .values({
        issuer: input.issuer,
        subject: input.subject,
        user_id: input.userId,
        vendor_id: input.providerId,
        created_at: this.now(),
        security_stamp: input.securityStamp,
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
    return rows.map(fromRow);
  }

  /** Removes one link (a lapsed one, issue 39); true when there was one for `userId`. */
  async remove(issuer: string, subject: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('external_logins')
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Binds an existing link of `userId` to the account's current stamp (linked again from a full sign-in). */
  async renew(issuer: string, subject: string, userId: string, securityStamp: string): Promise<void> {
    await this.db
      .updateTable('external_logins')
      .set({ security_stamp: securityStamp })
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .where('user_id', '=', userId)
      .execute();
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
