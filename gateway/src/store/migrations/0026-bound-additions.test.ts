/**
 * Migration 0026 (issue 48, ADR 0042) on a database that already has passkeys, second factors and recovery codes:
 * what was there is not bound (it survives a new security stamp), and a way in bound after the upgrade ends with
 * the stamp, on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrator.js';
import { createStore } from '../store.js';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';
import * as initial from './0001-initial.js';
import * as outboxHtml from './0002-outbox-html.js';
import * as kv from './0003-kv.js';
import * as passwordPolicies from './0006-password-policies.js';
import * as customerSearch from './0005-customer-search.js';
import * as clientLaunchUrl from './0014-client-launch-url.js';
import * as membershipSearchKey from './0009-membership-search-key.js';
import * as deviceOfferSkips from './0013-device-offer-skips.js';
import * as secondFactorMethods from './0007-second-factor-methods.js';
import * as rememberBrowser from './0007-second-factor-remember-browser.js';
import * as captchaSettings from './0010-captcha-settings.js';
import * as auditContext from './0011-audit-context.js';
import * as clientErrorCounts from './0012-client-error-counts.js';
import * as oneTimeSignIn from './0017-one-time-sign-in.js';
import * as identityProviders from './0015-identity-providers.js';
import * as externalLoginsByUser from './0016-external-logins-by-user.js';
import * as idleSignOut from './0018-idle-sign-out.js';
import * as releases from './0019-releases.js';
import * as externalLoginStamps from './0021-external-login-stamps.js';
import * as accountSessions from './0022-account-sessions.js';
import * as customerSortKey from './0023-customer-sort-key.js';
import * as rememberedBrowsers from './0024-remembered-browsers.js';

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0026 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('S15 keeps the ways in made before it unbound; one bound after it ends with the next security stamp', async () => {
      const database = await openTestDatabase(kind, 'm26', cleanups);
      // The schema as every migration before 0026 left it.
      const before: Record<string, Migration> = {
        '0001-initial': { up: (db) => initial.up(db, database.dialect) },
        '0002-outbox-html': { up: (db) => outboxHtml.up(db, database.dialect) },
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
        '0019-releases': { up: (db) => releases.up(db, database.dialect) },
        '0021-external-login-stamps': { up: (db) => externalLoginStamps.up(db) },
        '0022-account-sessions': { up: (db) => accountSessions.up(db) },
        '0023-customer-sort-key': { up: (db) => customerSortKey.up(db, database.dialect) },
        '0024-remembered-browsers': { up: (db) => rememberedBrowsers.up(db) },
      };
      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: () => Promise.resolve(before) },
        allowUnorderedMigrations: true,
        ...(database.schema ? { migrationTableSchema: database.schema } : {}),
      });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      const db = database.db as unknown as Kysely<unknown>;
      await sql`insert into users (id, username, username_normalized, email, email_normalized, display_name, password_hash, roles, security_stamp, created_at, updated_at)
        values ('u1', 'ann', 'ANN', 'ann@example.test', 'ANN@EXAMPLE.TEST', 'Ann', 'x', '["EMPLOYEE"]', 's1', 0, 0)`.execute(
        db,
      );
      await sql`insert into webauthn_credentials (id, user_id, public_key, counter, transports, display_name, created_at, last_used_at)
        values ('old-key', 'u1', 'pk', 0, '[]', 'Old laptop', 0, null)`.execute(db);
      await sql`insert into second_factors (user_id, totp_secret_enc, totp_last_step, enabled, preferred_method, updated_at, sms_phone, pin_enabled)
        values ('u1', 'sealed', null, 1, 'authenticator', 0, '+447700900123', 0)`.execute(db);
      await sql`insert into recovery_codes (id, user_id, code_hash, used_at, created_at) values ('r1', 'u1', 'h1', null, 0)`.execute(
        db,
      );

      await migrateToLatest(database);
      const store = createStore(database, randomBytes(32));
      expect((await store.passkeys.find('old-key'))?.boundStamp).toBeNull();

      // After the upgrade: a passkey and the PIN bound to today's stamp (added without a proved second factor).
      await store.passkeys.add({
        id: 'new-key',
        userId: 'u1',
        publicKey: 'pk2',
        counter: 0,
        transports: [],
        name: 'New laptop',
        boundStamp: 's1',
      });
      await store.secondFactors.enablePin('u1', 's1');
      expect((await store.passkeys.find('new-key'))?.boundStamp).toBe('s1');

      await store.users.rotateSecurityStamp('u1');
      expect((await store.passkeys.listForUser('u1')).map((c) => c.id)).toEqual(['old-key']);
      // The PIN was the preferred method when it went: the preference moves to a method that is left.
      expect(await store.secondFactors.find('u1')).toMatchObject({
        totpSecretSealed: 'sealed',
        smsPhone: '+447700900123',
        pinEnabled: false,
        preferredMethod: 'authenticator',
      });
      expect(await store.recoveryCodes.remaining('u1')).toBe(1);
    });
  });
}
