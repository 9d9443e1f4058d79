import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Issue 48 (ADR 0041): a vendor account has its vendor's credentials only.
// - users.vendor_id: the vendor provider (identity_providers.id) whose first sign-in created the account. It stays
//   when the provider or the link is removed, so the account never turns into a local one that could be given a
//   password, a passkey or a second factor. Filled here for every account linked through a vendor provider.
// - Every local credential such an account was given before (through "forgotten password", the security centre,
//   the device offer, the 2FA set-up) is removed: the password hash, its passkeys, second-factor methods, recovery
//   codes, remembered browsers, one-time tokens (reset links, one-time sign-in codes, PINs) and the e-mail address
//   that let it ask for them. Its security stamp changes, so every session signed in with them ends. One audit
//   event `vendor.local-credentials-removed` per account touched, saying what was removed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('vendor_id', 'text').execute();
  await sql`update users set vendor_id = (
      select min(el.vendor_id) from external_logins el
      join identity_providers p on p.id = el.vendor_id
      where el.user_id = users.id and p.vendor = 1)
    where exists (
      select 1 from external_logins el
      join identity_providers p on p.id = el.vendor_id
      where el.user_id = users.id and p.vendor = 1)`.execute(db);

  const vendorAccounts = await sql<{
    id: string;
    vendor_id: string;
    password: number;
    email: number;
    phone: number;
  }>`select id, vendor_id,
      case when password_hash is null then 0 else 1 end as password,
      case when email is null then 0 else 1 end as email,
      case when phone is null then 0 else 1 end as phone
    from users where vendor_id is not null order by id`.execute(db);
  const at = Date.now();
  for (const account of vendorAccounts.rows) {
    const count = async (table: string) =>
      Number(
        (
          await sql<{
            n: number | string;
          }>`select count(*) as n from ${sql.table(table)} where user_id = ${account.id}`.execute(db)
        ).rows[0]?.n ?? 0,
      );
    const removed = {
      password: Number(account.password) === 1,
      email: Number(account.email) === 1,
      phone: Number(account.phone) === 1,
      passkeys: await count('webauthn_credentials'),
      secondFactor: (await count('second_factors')) > 0,
      recoveryCodes: await count('recovery_codes'),
      rememberedBrowsers: await count('remembered_browsers'),
      oneTimeTokens: await count('one_time_tokens'),
    };
    const touched =
      removed.password ||
      removed.email ||
      removed.phone ||
      removed.secondFactor ||
      removed.passkeys + removed.recoveryCodes + removed.rememberedBrowsers + removed.oneTimeTokens > 0;
    if (!touched) continue;
    for (const table of [
      'webauthn_credentials',
      'second_factors',
      'recovery_codes',
      'remembered_browsers',
      'one_time_tokens',
      'device_offer_skips',
    ])
      await sql`delete from ${sql.table(table)} where user_id = ${account.id}`.execute(db);
    await sql`update users set password_hash = null, password_changed_at = null, password_expires_at = null,
        email = null, email_normalized = null, phone = null, security_stamp = ${randomUUID()}, updated_at = ${at}
      where id = ${account.id}`.execute(db);
    await sql`insert into audit_events (at, kind, user_id, ip, data, outcome)
      values (${at}, 'vendor.local-credentials-removed', ${account.id}, null,
        ${JSON.stringify({ provider: account.vendor_id, removed, by: 'migration 0025' })}, 'success')`.execute(
      db,
    );
  }
}
