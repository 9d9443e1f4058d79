import { sql, type Kysely } from 'kysely';
import type { RoleName } from './roles.js';
import { containsPattern, customerSearchKey, customerSortKey } from './customer-search-key.js';
import { Prepared, type CommittedReader } from './database.js';
import type { Database } from './schema.js';

/** A customer (tenant) of the payroll provider. */
export interface Customer {
  id: string;
  partnerId: string | null;
  name: string;
}

/** A user's membership of a customer. */
export interface Membership {
  userId: string;
  customerId: string;
  roles: RoleName[];
}

/** A customer as one of a user's memberships: with the user's roles in it. */
export type MemberCustomer = Customer & { roles: RoleName[] };

/** One page of a user's customers: `customers` in list order and the total matching the filter. */
export interface CustomerPage {
  customers: MemberCustomer[];
  total: number;
}

/** Customers and memberships tables access. */
export class CustomerRepository {
  /** The sign-in's count of the user's customers (its customer step), compiled once ({@link Prepared}). */
  private readonly customerCount: Prepared<{ n: number | string }, 'userId'>;

  /** @param reader the SQLite file's committed reader, for the sign-in's count (see UserRepository). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
    reader?: CommittedReader,
  ) {
    this.customerCount = new Prepared(db, reader, (param) =>
      db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', param('userId')),
    );
  }

  async create(input: Customer): Promise<Customer> {
    await this.db
      .insertInto('customers')
      .values({
        id: input.id,
        partner_id: input.partnerId,
        name: input.name,
        search_key: customerSearchKey(input.name),
        sort_key: customerSortKey(input.name),
        created_at: this.now(),
      })
      .execute();
    return input;
  }

  /**
   * Adds every customer (and its memberships) in one transaction: either all rows are stored or none (a bulk
   * onboarding file must never be half-imported). `onProgress` hears how many customers are stored so far.
   */
  async importAll(
    customers: readonly (Customer & { members?: readonly { userId: string; roles: RoleName[] }[] })[],
    onProgress: (done: number) => void = () => undefined,
  ): Promise<void> {
    const at = this.now();
    await this.db.transaction().execute(async (trx) => {
      // Batches keep each statement under SQLite's and PostgreSQL's bound-parameter limits.
      const BATCH = 200;
      for (let start = 0; start < customers.length; start += BATCH) {
        const batch = customers.slice(start, start + BATCH);
        await trx
          .insertInto('customers')
          .values(
            batch.map((c) => ({
              id: c.id,
              partner_id: c.partnerId,
              name: c.name,
              search_key: customerSearchKey(c.name),
              sort_key: customerSortKey(c.name),
              created_at: at,
            })),
          )
          .execute();
        const members = batch.flatMap((c) =>
          (c.members ?? []).map((m) => ({
            user_id: m.userId,
            customer_id: c.id,
            roles: JSON.stringify(m.roles),
            created_at: at,
            last_selected_at: null,
            search_key: customerSearchKey(c.name),
            sort_key: customerSortKey(c.name),
          })),
        );
        if (members.length > 0) await trx.insertInto('memberships').values(members).execute();
        onProgress(start + batch.length);
      }
    });
  }

  async findById(id: string): Promise<Customer | undefined> {
    const row = await this.db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, partnerId: row.partner_id, name: row.name } : undefined;
  }

  async list(): Promise<Customer[]> {
    const rows = await this.db.selectFrom('customers').selectAll().orderBy('name').execute();
    return rows.map((row) => ({ id: row.id, partnerId: row.partner_id, name: row.name }));
  }

  async addMembership(input: Membership): Promise<void> {
    await this.db
      .insertInto('memberships')
      .values({
        user_id: input.userId,
        customer_id: input.customerId,
        roles: JSON.stringify(input.roles),
        created_at: this.now(),
        last_selected_at: null,
        // The customer's folded name and natural-order key, so the user's list is searched and paged from the
        // memberships index alone.
        search_key: sql<string>`(select search_key from customers where id = ${input.customerId})`,
        sort_key: sql<string>`(select sort_key from customers where id = ${input.customerId})`,
      })
      .execute();
  }

  /** Replaces the roles of an existing membership (the console's AddPersonMembership on a member); true when found. */
  async setMembershipRoles(userId: string, customerId: string, roles: RoleName[]): Promise<boolean> {
    const result = await this.db
      .updateTable('memberships')
      .set({ roles: JSON.stringify(roles) })
      .where('user_id', '=', userId)
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a membership; true when there was one. */
  async removeMembership(userId: string, customerId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('memberships')
      .where('user_id', '=', userId)
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The customer `customerId` as a membership of `userId`, or undefined when the user does not belong to it (S37). */
  async membershipOf(userId: string, customerId: string): Promise<MemberCustomer | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .innerJoin('customers', 'customers.id', 'memberships.customer_id')
      .select(['customers.id', 'customers.partner_id', 'customers.name', 'memberships.roles'])
      .where('memberships.user_id', '=', userId)
      .where('memberships.customer_id', '=', customerId)
      .executeTakeFirst();
    return row
      ? { id: row.id, partnerId: row.partner_id, name: row.name, roles: JSON.parse(row.roles) as RoleName[] }
      : undefined;
  }

  /** Records that the user chose this customer now: it is listed first next time. */
  async markSelected(userId: string, customerId: string): Promise<void> {
    await this.db
      .updateTable('memberships')
      .set({ last_selected_at: this.now() })
      .where('user_id', '=', userId)
      .where('customer_id', '=', customerId)
      .execute();
  }

  /**
   * One page of the customers `userId` belongs to whose name contains `filter` (case, accents and compatibility forms
   * ignored; `%` and `_` are text), the last selected one first, then by name in natural order ("Branch 2" before
   * "Branch 10", issue 43). Only the user's memberships are read (S37): paging walks the index
   * memberships(user_id, sort_key, customer_id, search_key) in order and never sorts, counting and filtering stay
   * in the memberships' indexes; the customers table is read for the page's rows only.
   */
  async searchCustomersOf(
    userId: string,
    query: { filter?: string | undefined; offset: number; limit: number },
  ): Promise<CustomerPage> {
    const filter = query.filter ? customerSearchKey(query.filter) : '';
    const mine = () => {
      let q = this.db.selectFrom('memberships').where('memberships.user_id', '=', userId);
      if (filter !== '')
        q = q.where(sql<boolean>`memberships.search_key like ${containsPattern(filter)} escape '\\'`);
      return q;
    };
    const counted = await mine()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || query.offset >= total) return { customers: [], total };
    // The customer chosen last leads the list when it matches the filter; the others follow in natural order.
    const last = await this.db
      .selectFrom('memberships')
      .select(['customer_id', 'search_key'])
      .where('user_id', '=', userId)
      .where('last_selected_at', 'is not', null)
      .orderBy('last_selected_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const pinned = last && (last.search_key ?? '').includes(filter) ? last.customer_id : undefined;
    const ids: string[] = [];
    let offset = query.offset;
    let limit = query.limit;
    if (pinned !== undefined && offset === 0) {
      ids.push(pinned);
      limit -= 1;
    } else if (pinned !== undefined) offset -= 1;
    if (limit > 0) {
      let q = mine().select('memberships.customer_id');
      if (pinned !== undefined) q = q.where('memberships.customer_id', '!=', pinned);
      const rows = await q
        .orderBy('memberships.sort_key')
        .orderBy('memberships.customer_id')
        .limit(limit)
        .offset(offset)
        .execute();
      ids.push(...rows.map((row) => row.customer_id));
    }
    const rows =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('memberships')
            .innerJoin('customers', 'customers.id', 'memberships.customer_id')
            .select(['customers.id', 'customers.partner_id', 'customers.name', 'memberships.roles'])
            .where('memberships.user_id', '=', userId)
            .where('memberships.customer_id', 'in', ids)
            .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return {
      total,
      customers: ids.flatMap((id) => {
        const row = byId.get(id);
        return row
          ? [
              {
                id: row.id,
                partnerId: row.partner_id,
                name: row.name,
                roles: JSON.parse(row.roles) as RoleName[],
              },
            ]
          : [];
      }),
    };
  }

  /** How many customers a user belongs to. */
  async countCustomersOf(userId: string): Promise<number> {
    return Number((await this.customerCount.first({ userId }))?.n ?? 0);
  }

  /** Customers a user belongs to (S37: a user may select only these). */
  async customersOf(userId: string): Promise<(Customer & { roles: RoleName[] })[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('customers', 'customers.id', 'memberships.customer_id')
      .select(['customers.id', 'customers.partner_id', 'customers.name', 'memberships.roles'])
      .where('memberships.user_id', '=', userId)
      .orderBy('customers.name')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      partnerId: row.partner_id,
      name: row.name,
      roles: JSON.parse(row.roles) as RoleName[],
    }));
  }

  async listMemberships(): Promise<Membership[]> {
    const rows = await this.db.selectFrom('memberships').selectAll().orderBy('user_id').execute();
    return rows.map((row) => ({
      userId: row.user_id,
      customerId: row.customer_id,
      roles: JSON.parse(row.roles) as RoleName[],
    }));
  }
}
