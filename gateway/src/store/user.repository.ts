import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { RoleName } from './roles.js';
import { dropBoundAdditions } from './bound-additions.js';
import { containsPattern } from './customer-search-key.js';
import { Prepared, type CommittedReader } from './database.js';
import type { Database, UserTable } from './schema.js';

/** A user as the identity layer sees it. */
export interface User {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  displayName: string;
  passwordHash: string | null;
  passwordChangedAt: number | null;
  passwordExpiresAt: number | null;
  disabled: boolean;
  roles: RoleName[];
  requiresTwoFactor: boolean;
  partnerId: string | null;
  /** Changes whenever credentials change, so older sessions and tokens can be told apart. */
  securityStamp: string;
  createdAt: number;
  /**
   * A vendor account (ADR 0041): the vendor provider whose sign-in created it, kept after the provider is removed.
   * It signs in through that provider only: no local password, passkey, second factor, e-mail or one-time token.
   */
  vendorId?: string | undefined;
}

/** Fields of a new user. */
export interface NewUser {
  username: string;
  email?: string | null;
  phone?: string | null;
  displayName?: string;
  passwordHash: string | null;
  passwordExpiresAt?: number | null;
  disabled?: boolean;
  roles?: RoleName[];
  requiresTwoFactor?: boolean;
  partnerId?: string | null;
  /** A vendor account's provider (ADR 0041); fixed at creation. */
  vendorId?: string;
}

/** Fields that can change. */
export type UserUpdate = Partial<Omit<NewUser, 'username' | 'vendorId'>> & {
  passwordChangedAt?: number | null;
};

/** Usernames and e-mails match case-insensitively and without surrounding spaces. */
export function normaliseLogin(value: string): string {
  return value.trim().normalize('NFKC').toLowerCase();
}

function toUser(row: Selectable<UserTable>): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    passwordChangedAt: row.password_changed_at,
    passwordExpiresAt: row.password_expires_at,
    disabled: row.disabled === 1,
    roles: JSON.parse(row.roles) as RoleName[],
    requiresTwoFactor: row.requires_two_factor === 1,
    partnerId: row.partner_id,
    securityStamp: row.security_stamp,
    createdAt: row.created_at,
    ...(row.vendor_id ? { vendorId: row.vendor_id } : {}),
  };
}

/** Users table access. */
export class UserRepository {
  /** The sign-in's two reads, compiled once ({@link Prepared}): every password sign-in makes them. */
  private readonly byLogin: Prepared<Selectable<UserTable>, 'login'>;
  private readonly secondFactor: Prepared<{ user_id: string }, 'userId'>;

  /**
   * @param reader the SQLite file's committed reader (`store.database.committedReader`), for the sign-in's reads;
   *   without one (PostgreSQL, an in-memory SQLite) they go through Kysely with the same SQL.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
    reader?: CommittedReader,
  ) {
    this.byLogin = new Prepared(db, reader, (param) =>
      db
        .selectFrom('users')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('username_normalized', '=', param('login')),
            eb('email_normalized', '=', param('login')),
          ]),
        )
        .orderBy('created_at'),
    );
    this.secondFactor = new Prepared(db, reader, (param) =>
      db
        .selectFrom('second_factors')
        .select('user_id')
        .where('user_id', '=', param('userId'))
        .where('enabled', '=', 1),
    );
  }

  async create(input: NewUser): Promise<User> {
    const at = this.now();
    const row = {
      id: randomUUID(),
      username: input.username.trim(),
      username_normalized: normaliseLogin(input.username),
      email: input.email?.trim() || null,
      email_normalized: input.email ? normaliseLogin(input.email) : null,
      phone: input.phone ?? null,
      display_name: input.displayName ?? input.username.trim(),
      password_hash: input.passwordHash,
      password_changed_at: input.passwordHash ? at : null,
      password_expires_at: input.passwordExpiresAt ?? null,
      disabled: input.disabled ? 1 : 0,
      roles: JSON.stringify(input.roles ?? []),
      requires_two_factor: input.requiresTwoFactor ? 1 : 0,
      partner_id: input.partnerId ?? null,
      security_stamp: randomUUID(),
      created_at: at,
      updated_at: at,
      vendor_id: input.vendorId ?? null,
    };
    await this.db.insertInto('users').values(row).execute();
    return toUser(row);
  }

  async findById(id: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  /** Finds by username or e-mail, case-insensitively (SPEC.md §2: "username or email"). */
  async findByLogin(login: string): Promise<User | undefined> {
    const key = normaliseLogin(login);
    const row = await this.byLogin.first({ login: key });
    return row ? toUser(row) : undefined;
  }

  /** Whether the user has a confirmed second factor (the sign-in's 2FA step applies). */
  async hasSecondFactor(userId: string): Promise<boolean> {
    return (await this.secondFactor.first({ userId })) !== undefined;
  }

  /** Whether the user has a registered passkey or security key. */
  async hasWebauthnCredential(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('webauthn_credentials')
      .select('id')
      .where('user_id', '=', userId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The vendor accounts a vendor provider's sign-ins created (ADR 0041). */
  async vendorAccountsOf(providerId: string): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().where('vendor_id', '=', providerId).execute();
    return rows.map(toUser);
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('username_normalized').execute();
    return rows.map(toUser);
  }

  /**
   * A new security stamp: every session signed in before it stops being signed in at its next request (the
   * session keeps the stamp it was signed in with; session-auth.service.ts compares them).
   */
  async rotateSecurityStamp(id: string): Promise<void> {
    const stamp = randomUUID();
    await this.db
      .updateTable('users')
      .set({ security_stamp: stamp, updated_at: this.now() })
      .where('id', '=', id)
      .execute();
    // ADR 0042: ways in added without a proved second factor end with the stamp they were bound to.
    await dropBoundAdditions(this.db, id, stamp, this.now());
  }

  /** Applies the changes; a new password hash also sets password_changed_at and a new security stamp. */
  async update(id: string, changes: UserUpdate): Promise<User | undefined> {
    const at = this.now();
    const set: Partial<Selectable<UserTable>> = { updated_at: at };
    if (changes.email !== undefined) {
      set.email = changes.email?.trim() || null;
      set.email_normalized = changes.email ? normaliseLogin(changes.email) : null;
    }
    if (changes.phone !== undefined) set.phone = changes.phone;
    if (changes.displayName !== undefined) set.display_name = changes.displayName;
    if (changes.passwordHash !== undefined) {
      set.password_hash = changes.passwordHash;
      set.password_changed_at = changes.passwordChangedAt ?? at;
      set.security_stamp = randomUUID();
    }
    if (changes.passwordExpiresAt !== undefined) set.password_expires_at = changes.passwordExpiresAt;
    if (changes.disabled !== undefined) {
      set.disabled = changes.disabled ? 1 : 0;
      if (changes.disabled) set.security_stamp = randomUUID();
    }
    if (changes.roles !== undefined) set.roles = JSON.stringify(changes.roles);
    if (changes.requiresTwoFactor !== undefined) set.requires_two_factor = changes.requiresTwoFactor ? 1 : 0;
    if (changes.partnerId !== undefined) set.partner_id = changes.partnerId;
    await this.db.updateTable('users').set(set).where('id', '=', id).execute();
    // ADR 0042: a new stamp (password, disabling) ends the ways in bound to the old one.
    if (set.security_stamp) await dropBoundAdditions(this.db, id, set.security_stamp, at);
    return this.findById(id);
  }

  /**
   * The console's people search (issue 52): accounts whose username, e-mail, display name or one of whose customers'
   * names contains `text` (case and accents ignored as the customer search ignores them), optionally members of
   * `customerId`, within `within` (accounts of those partners or members of those customers; everyone without it)
   * and never those of `exclude`. One page by username, and the total.
   */
  async search(query: {
    text?: string | undefined;
    customerId?: string | undefined;
    within?: { partnerIds: readonly string[]; customerIds: readonly string[] } | undefined;
    exclude?: readonly string[] | undefined;
    offset: number;
    limit: number;
  }): Promise<{ users: User[]; total: number }> {
    const text = query.text?.trim() ?? '';
    const escape = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const login = escape(normaliseLogin(text));
    const folded = text === '' ? '' : containsPattern(text);
    const matching = () => {
      let q = this.db.selectFrom('users');
      if (text !== '')
        q = q.where((eb) =>
          eb.or([
            sql<boolean>`users.username_normalized like ${login} escape '\\'`,
            sql<boolean>`users.email_normalized like ${login} escape '\\'`,
            sql<boolean>`lower(users.display_name) like ${escape(text.toLowerCase())} escape '\\'`,
            eb.exists(
              eb
                .selectFrom('memberships')
                .select('memberships.user_id')
                .whereRef('memberships.user_id', '=', 'users.id')
                .where(sql<boolean>`memberships.search_key like ${folded} escape '\\'`),
            ),
          ]),
        );
      if (query.customerId !== undefined) {
        const customerId = query.customerId;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('memberships')
              .select('memberships.user_id')
              .whereRef('memberships.user_id', '=', 'users.id')
              .where('memberships.customer_id', '=', customerId),
          ),
        );
      }
      const within = query.within;
      if (within !== undefined) {
        q = q.where((eb) => {
          const ors = [];
          if (within.partnerIds.length > 0) ors.push(eb('users.partner_id', 'in', [...within.partnerIds]));
          if (within.customerIds.length > 0)
            ors.push(
              eb.exists(
                eb
                  .selectFrom('memberships')
                  .select('memberships.user_id')
                  .whereRef('memberships.user_id', '=', 'users.id')
                  .where('memberships.customer_id', 'in', [...within.customerIds]),
              ),
            );
          return ors.length > 0 ? eb.or(ors) : sql<boolean>`1 = 0`;
        });
      }
      if (query.exclude && query.exclude.length > 0) q = q.where('users.id', 'not in', [...query.exclude]);
      return q;
    };
    const counted = await matching()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || query.offset >= total) return { users: [], total };
    const rows = await matching()
      .selectAll('users')
      .orderBy('users.username_normalized')
      .orderBy('users.id')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { users: rows.map(toUser), total };
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
