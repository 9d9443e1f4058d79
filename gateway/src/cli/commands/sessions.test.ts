import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlAdapterFactory } from '../../oidc/sql.adapter.js';
import type { OidcDatabase } from '../../oidc/types.js';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

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

  it('users set-password is a reset: reset links, sign-in codes, OIDC sessions, grants and refresh tokens and every sign-in session of the user end (issue 39)', async () => {
    const dan = await addUser('dan-set-password');
    for (const purpose of ['password-reset', 'sign-in'] as const)
      await admin.store.oneTimeTokens.issue({
        userId: dan.id,
        purpose,
        tokenHash: `hash-${purpose}`,
        ttlMs: 3_600_000,
      });
    await oidc('Session').upsert('s-dan', { accountId: dan.id }, 3600);
    await oidc('Grant').upsert('g-dan', { accountId: dan.id }, 3600);
    await oidc('RefreshToken').upsert('rt-dan', { accountId: dan.id, grantId: 'g-dan' }, 3600);

    expect(
      await admin.run('users', 'set-password', '--username', dan.username, '--password', 'N3w-password'),
    ).toBe(`password of ${dan.username} set; every session, reset link and OIDC token of the user ended`);
    const after = (await admin.store.users.findById(dan.id))!;
    expect(after.securityStamp).not.toBe(dan.securityStamp);
    expect(await admin.store.oneTimeTokens.findLive('password-reset', 'hash-password-reset')).toBeUndefined();
    expect(await admin.store.oneTimeTokens.findLive('sign-in', 'hash-sign-in')).toBeUndefined();
    expect(await oidc('Session').find('s-dan')).toBeUndefined();
    expect(await oidc('Grant').find('g-dan')).toBeUndefined();
    expect(await oidc('RefreshToken').find('rt-dan')).toBeUndefined();
    expect(await admin.store.audit.list({ userId: dan.id, kinds: ['password.set-by-admin'] })).toHaveLength(
      1,
    );
  });

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
