import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { StoreDatabase } from './database.js';
import * as initial from './migrations/0001-initial.js';
import * as outboxHtml from './migrations/0002-outbox-html.js';
import * as kv from './migrations/0003-kv.js';
import * as passwordPolicies from './migrations/0006-password-policies.js';
import * as customerSearch from './migrations/0005-customer-search.js';
import * as clientLaunchUrl from './migrations/0014-client-launch-url.js';
import * as membershipSearchKey from './migrations/0009-membership-search-key.js';
import * as deviceOfferSkips from './migrations/0013-device-offer-skips.js';
import * as secondFactorMethods from './migrations/0007-second-factor-methods.js';
import * as rememberBrowser from './migrations/0007-second-factor-remember-browser.js';
import * as captchaSettings from './migrations/0010-captcha-settings.js';
import * as auditContext from './migrations/0011-audit-context.js';
import * as clientErrorCounts from './migrations/0012-client-error-counts.js';
import * as oneTimeSignIn from './migrations/0017-one-time-sign-in.js';
import * as identityProviders from './migrations/0015-identity-providers.js';
import * as externalLoginsByUser from './migrations/0016-external-logins-by-user.js';
import * as idleSignOut from './migrations/0018-idle-sign-out.js';
import * as releases from './migrations/0019-releases.js';
import * as externalLoginStamps from './migrations/0021-external-login-stamps.js';
import * as accountSessions from './migrations/0022-account-sessions.js';
import * as customerSortKey from './migrations/0023-customer-sort-key.js';
import * as rememberedBrowsers from './migrations/0024-remembered-browsers.js';
import * as vendorAccounts from './migrations/0025-vendor-accounts.js';
import * as boundAdditions from './migrations/0026-bound-additions.js';
import * as releaseHistory from './migrations/0028-release-history.js';
import * as consoleGrants from './migrations/0027-console-grants.js';
import * as disabledApplications from './migrations/0030-disabled-applications.js';
import * as auditSearch from './migrations/0031-audit-search.js';
import * as upstreamTokenAuth from './migrations/0032-upstream-token-auth.js';
import * as canaryBaseline from './migrations/0033-canary-baseline.js';

// Migrations are imported statically (not read from a folder) so the compiled dist/ and tests run the same list.
export function provider(store: StoreDatabase): MigrationProvider {
  const all: Record<string, Migration> = {
    '0001-initial': { up: (db) => initial.up(db, store.dialect) },
    '0002-outbox-html': { up: (db) => outboxHtml.up(db, store.dialect) },
    '0003-kv': { up: (db) => kv.up(db) },
    '0006-password-policies': { up: (db) => passwordPolicies.up(db) },
    '0005-customer-search': { up: (db) => customerSearch.up(db) },
    '0014-client-launch-url': { up: (db) => clientLaunchUrl.up(db) },
    '0009-membership-search-key': { up: (db) => membershipSearchKey.up(db) },
    '0013-device-offer-skips': { up: (db) => deviceOfferSkips.up(db) },
    '0007-second-factor-methods': { up: (db) => secondFactorMethods.up(db) },
    '0007-second-factor-remember-browser': { up: (db) => rememberBrowser.up(db) },
    '0010-captcha-settings': { up: (db) => captchaSettings.up(db) },
    '0011-audit-context': { up: (db) => auditContext.up(db) },
    '0012-client-error-counts': { up: (db) => clientErrorCounts.up(db) },
    '0017-one-time-sign-in': { up: (db) => oneTimeSignIn.up(db) },
    '0015-identity-providers': { up: (db) => identityProviders.up(db) },
    '0016-external-logins-by-user': { up: (db) => externalLoginsByUser.up(db) },
    '0018-idle-sign-out': { up: (db) => idleSignOut.up(db) },
    '0019-releases': { up: (db) => releases.up(db, store.dialect) },
    '0021-external-login-stamps': { up: (db) => externalLoginStamps.up(db) },
    '0022-account-sessions': { up: (db) => accountSessions.up(db) },
    '0023-customer-sort-key': { up: (db) => customerSortKey.up(db, store.dialect) },
    '0024-remembered-browsers': { up: (db) => rememberedBrowsers.up(db) },
    '0025-vendor-accounts': { up: (db) => vendorAccounts.up(db) },
    '0026-bound-additions': { up: (db) => boundAdditions.up(db) },
    '0028-release-history': { up: (db) => releaseHistory.up(db, store.dialect) },
    '0027-console-grants': { up: (db) => consoleGrants.up(db) },
    '0030-disabled-applications': { up: (db) => disabledApplications.up(db) },
    '0031-audit-search': { up: (db) => auditSearch.up(db, store.dialect) },
    '0032-upstream-token-auth': { up: (db) => upstreamTokenAuth.up(db) },
    '0033-canary-baseline': { up: (db) => canaryBaseline.up(db) },
  };
  return { getMigrations: () => Promise.resolve(all) };
}

/**
 * The PostgreSQL schema the migration tables belong in: the store's own, else the connection's `current_schema()`
 * (the first of `search_path`, which `DATABASE_URL`'s `options=-c search_path=…` may set). Kysely's migrator without
 * a `migrationTableSchema` looks for its tables in every schema: in a database shared by several schemas it found
 * another schema's `kysely_migration_lock`, skipped creating its own, and failed ("relation … does not exist").
 * Undefined on SQLite, which has no schemas.
 */
async function migrationTableSchema(store: StoreDatabase): Promise<string | undefined> {
  if (store.schema) return store.schema;
  if (store.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(store.db);
  return rows[0]?.schema ?? undefined;
}

/** Brings the schema to the newest version; throws with the failing migration's name. */
export async function migrateToLatest(store: StoreDatabase): Promise<void> {
  const schema = await migrationTableSchema(store);
  const migrator = new Migrator({
    db: store.db,
    provider: provider(store),
    // Parallel work lands migrations out of number order (0013 before 0011): a store that already ran a higher
    // number must still take a lower one that arrives later.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
