import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlAdapterFactory } from '../../oidc/sql.adapter.js';
import type { OidcDatabase } from '../../oidc/types.js';
import { openAdminHarness, type AdminHarness } from '../testing/admin-harness.js';

describe('admin sessions', () => {
  let admin: AdminHarness;
  let oidc: ReturnType<typeof createSqlAdapterFactory>;
  const addUser = async (username: string) => {
    await admin.run(
      'users',
      'add',
      '--username',
      username,
      '--email',
      `${username}@example.test`,
      '--password',
      'S3cure-pass',
    );
    return (await admin.store.users.findByLogin(username))!;
  };
  beforeAll(async () => {
    admin = await openAdminHarness();
    oidc = createSqlAdapterFactory(admin.store.database.db as unknown as Kysely<OidcDatabase>);
  });
  afterAll(async () => {
    await admin.close();
  });

  it.each([
    ['sessions', 'revoke'],
    ['users', 'disable'],
  ])(
    '%s %s ends the OIDC sessions, grants and tokens of that user only, and every sign-in session',
    async (area, command) => {
      const ann = await addUser(`ann-${command}`);
      const bob = await addUser(`bob-${command}`);
      // What the provider keeps after a code flow: the OIDC session, the grant, and tokens issued under the grant.
      await oidc('Session').upsert(`s-ann-${command}`, { accountId: ann.id }, 3600);
      await oidc('Grant').upsert(`g-ann-${command}`, { accountId: ann.id }, 3600);
      await oidc('RefreshToken').upsert(
        `rt-ann-${command}`,
        { accountId: ann.id, grantId: `g-ann-${command}` },
        3600,
      );
      await oidc('Session').upsert(`s-bob-${command}`, { accountId: bob.id }, 3600);
      await oidc('Grant').upsert(`g-bob-${command}`, { accountId: bob.id }, 3600);

      const option = area === 'sessions' ? '--user' : '--username';
      const out = await admin.run(area, command, option, ann.username);
      expect(out).toBe(
        `${ann.username}${area === 'sessions' ? ':' : ' disabled;'} every sign-in session ended; 1 OIDC session(s) and 1 grant(s) with their tokens revoked`,
      );
      expect((await admin.store.users.findById(ann.id))!.securityStamp).not.toBe(ann.securityStamp);
      expect(await oidc('Session').find(`s-ann-${command}`)).toBeUndefined();
      expect(await oidc('Grant').find(`g-ann-${command}`)).toBeUndefined();
      expect(await oidc('RefreshToken').find(`rt-ann-${command}`)).toBeUndefined();
      expect(await oidc('Session').find(`s-bob-${command}`)).toBeDefined();
      expect(await oidc('Grant').find(`g-bob-${command}`)).toBeDefined();
      expect((await admin.store.users.findById(bob.id))!.securityStamp).toBe(bob.securityStamp);
    },
  );

  it('sessions revoke leaves the account enabled', async () => {
    const carl = await addUser('carl');
    await admin.run('sessions', 'revoke', '--user', 'carl');
    expect((await admin.store.users.findById(carl.id))!.disabled).toBe(false);
  });

  it('sessions revoke needs a known user', async () => {
    expect(await admin.refused('sessions', 'revoke', '--user', 'nobody')).toBe('error: no user "nobody"');
    expect(await admin.refused('sessions', 'revoke')).toBe('error: --user is required');
  });
});
