import type { Kysely } from 'kysely';
import type { PasswordRules } from 'shared-contracts';
import type { Database } from './schema.js';

/** The `password_policies` table (migration 0006): one optional row per partner. */
export interface PasswordPolicyTable {
  partner_id: string;
  rules: string;
  max_age_days: number;
  updated_at: number;
}

/** A partner's password policy as stored: rule overrides over the defaults, and the maximum age. */
export interface PasswordPolicy {
  partnerId: string;
  rules: Partial<PasswordRules>;
  /** Days a password lives before the sign-in asks for a new one; 0 = never. */
  maxAgeDays: number;
}

type PolicyDatabase = Database & { password_policies: PasswordPolicyTable };

/** Partners' password policies; a partner without a row has the defaults. */
export class PasswordPolicyRepository {
  private readonly db: Kysely<PolicyDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {
    // The table is this repository's own (added by 0006), so its type lives here rather than in schema.ts.
    this.db = db as unknown as Kysely<PolicyDatabase>;
  }

  async find(partnerId: string): Promise<PasswordPolicy | undefined> {
    const row = await this.db
      .selectFrom('password_policies')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .executeTakeFirst();
    if (!row) return undefined;
    let rules: Partial<PasswordRules> = {};
    try {
      const parsed = JSON.parse(row.rules) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) rules = parsed;
    } catch {
      // A broken row means the defaults, never a failing page.
    }
    return { partnerId, rules, maxAgeDays: Number(row.max_age_days) };
  }

  /** Creates or replaces the partner's policy. */
  async set(policy: PasswordPolicy): Promise<void> {
    const row = {
      partner_id: policy.partnerId,
      rules: JSON.stringify(policy.rules),
      max_age_days: policy.maxAgeDays,
      updated_at: this.now(),
    };
    await this.db
      .insertInto('password_policies')
      .values(row)
      .onConflict((oc) =>
        oc.column('partner_id').doUpdateSet({
          rules: row.rules,
          max_age_days: row.max_age_days,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }
}
