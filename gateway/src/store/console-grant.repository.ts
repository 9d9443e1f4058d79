import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { CONSOLE_ROLES, type ConsoleGrant, type ConsoleRole } from 'shared-contracts/console';
import type { Dialect } from './database.js';
import type { ConsoleGrantTable, Database } from './schema.js';

/** A stored console grant (ADR 0058): the contract's grant, whose it is, and who granted it when. */
export interface StoredConsoleGrant extends ConsoleGrant {
  id: string;
  userId: string;
  /** The grantee's username (the console and the CLI list grants by it). */
  username: string;
  /** A username, or `cli:<os user>`. */
  grantedBy: string;
  grantedAt: number;
}

/** Which grant: a role of an account, and where it applies (null: everywhere). */
export interface ConsoleGrantKey {
  userId: string;
  role: ConsoleRole;
  partnerId: string | null;
  customerId: string | null;
}

/** What {@link ConsoleGrantRepository.remove} did. */
export type ConsoleGrantRemoval = 'removed' | 'notFound' | 'lastPlatformAdmin';

type Row = Selectable<ConsoleGrantTable> & { username: string };

function isConsoleRole(role: string): role is ConsoleRole {
  return (CONSOLE_ROLES as readonly string[]).includes(role);
}

function toGrant(row: Row & { role: ConsoleRole }): StoredConsoleGrant {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    role: row.role,
    partnerId: row.partner_id,
    customerId: row.customer_id,
    grantedBy: row.granted_by,
    grantedAt: Number(row.granted_at),
  };
}

/**
 * The `console_grants` table (migration 0027). The rules of which role takes which scope are the console grants
 * service's (`identity/console/console-grants.service.ts`); this keeps one row per grant and refuses to remove the
 * last platform administrator's, atomically.
 */
export class ConsoleGrantRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a grant; undefined when the account already holds that very grant (the unique index decides). */
  async add(key: ConsoleGrantKey & { grantedBy: string }): Promise<StoredConsoleGrant | undefined> {
    const id = randomUUID();
    const result = await this.db
      .insertInto('console_grants')
      .values({
        id,
        user_id: key.userId,
        role: key.role,
        partner_id: key.partnerId,
        customer_id: key.customerId,
        granted_by: key.grantedBy,
        granted_at: this.now(),
      })
      // Both engines take a conflict on any unique index without naming it: a grant held already is no error.
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
    return (await this.list({ id }))[0];
  }

  /** The account's grants, oldest first. */
  async listOf(userId: string): Promise<StoredConsoleGrant[]> {
    return this.list({ userId });
  }

  /** Every grant (or one account's), by username, then role, then scope. */
  async list(filter: { userId?: string; id?: string } = {}): Promise<StoredConsoleGrant[]> {
    let query = this.db
      .selectFrom('console_grants')
      .innerJoin('users', 'users.id', 'console_grants.user_id')
      .selectAll('console_grants')
      .select('users.username');
    if (filter.userId !== undefined) query = query.where('console_grants.user_id', '=', filter.userId);
    if (filter.id !== undefined) query = query.where('console_grants.id', '=', filter.id);
    const rows = await query
      .orderBy('users.username_normalized')
      .orderBy('console_grants.role')
      .orderBy('console_grants.partner_id')
      .orderBy('console_grants.customer_id')
      .execute();
    // A role no longer known (a later version's, read by an older one) gives nothing.
    return rows.flatMap((row) => (isConsoleRole(row.role) ? [toGrant({ ...row, role: row.role })] : []));
  }

  /**
   * Removes a grant; refuses the last platform administrator's (of an enabled account), so the console always has
   * someone who can grant. One transaction, with the platform administrators' rows locked on PostgreSQL: two
   * administrators withdrawing each other at once cannot both succeed (SQLite runs one write transaction at a time).
   */
  async remove(key: ConsoleGrantKey): Promise<ConsoleGrantRemoval> {
    return this.db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom('console_grants')
        .select(['id', 'role'])
        .where('user_id', '=', key.userId)
        .where('role', '=', key.role)
        // A customer's grant is found by its customer alone: the partner beside it is the customer's at the time
        // of the grant, and a customer moved to another partner since must not leave it unwithdrawable.
        .where((eb) =>
          key.customerId !== null
            ? eb('customer_id', '=', key.customerId)
            : eb.and([
                eb('customer_id', 'is', null),
                key.partnerId === null ? eb('partner_id', 'is', null) : eb('partner_id', '=', key.partnerId),
              ]),
        )
        .executeTakeFirst();
      if (!found) return 'notFound';
      if (found.role === 'platformAdmin') {
        let admins = trx
          .selectFrom('console_grants')
          .innerJoin('users', 'users.id', 'console_grants.user_id')
          .select('console_grants.id')
          .where('console_grants.role', '=', 'platformAdmin')
          .where('users.disabled', '=', 0);
        if (this.dialect === 'postgres') admins = admins.forUpdate();
        const rows = await admins.execute();
        if (!rows.some((row) => row.id !== found.id)) return 'lastPlatformAdmin';
      }
      await trx.deleteFrom('console_grants').where('id', '=', found.id).execute();
      return 'removed';
    });
  }
}
