import type { Kysely } from 'kysely';
import type { RoleName } from 'shared-contracts';
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

/** Customers and memberships tables access. */
export class CustomerRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(input: Customer): Promise<Customer> {
    await this.db
      .insertInto('customers')
      .values({ id: input.id, partner_id: input.partnerId, name: input.name, created_at: this.now() })
      .execute();
    return input;
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
      })
      .execute();
  }

  /** How many customers a user belongs to. */
  async countCustomersOf(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
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
