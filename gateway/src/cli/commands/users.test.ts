import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../identity/passwords/passwords.service.js';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin users', () => {
  let admin: AdminHarness;
  const user = async (login: string) => {
    const found = await admin.store.users.findByLogin(login);
    if (!found) throw new Error(`no user ${login}`);
    return found;
  };
  beforeAll(async () => {
    admin = await openAdminHarness();
    await admin.run('partners', 'add', '--id', 'acme', '--name', 'Acme');
  });
  afterAll(async () => {
    await admin.close();
  });

  it('add stores a user who signs in with the password given, an employee by default', async () => {
    const out = await admin.run(
      'users',
      'add',
      '--username',
      'ann',
      '--email',
      'ann@example.test',
      '--password',
      'S3cure-pass',
    );
    const ann = await user('ann');
    expect(out).toBe(`user ann added (id ${ann.id})`);
    expect(ann).toMatchObject({
      email: 'ann@example.test',
      displayName: 'ann',
      phone: null,
      roles: ['EMPLOYEE'],
      partnerId: null,
      requiresTwoFactor: false,
      passwordExpiresAt: null,
      disabled: false,
    });
    expect(await verifyPassword(ann.passwordHash!, 'S3cure-pass')).toBe(true);
  });

  it('add takes every field: display name, phone, roles by number or name, partner, 2FA, expired password', async () => {
    await admin.run(
      'users',
      'add',
      '--username',
      'bob',
      '--email',
      'bob@example.test',
      '--password',
      'S3cure-pass',
      '--display-name',
      'Bob B',
      '--phone',
      '+441234567890',
      '--roles',
      'EMPLOYEE,2,hr_admin',
      '--partner',
      'acme',
      '--require-2fa',
      '--expired',
    );
    const bob = await user('bob');
    expect(bob).toMatchObject({
      displayName: 'Bob B',
      phone: '+441234567890',
      roles: ['EMPLOYEE', 'MANAGER', 'HR_ADMIN'],
      partnerId: 'acme',
      requiresTwoFactor: true,
    });
    expect(bob.passwordExpiresAt).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    [['--password', 'short'], 'error: --password must have at least 8 characters'],
    [['--password', 'x'.repeat(1025)], 'error: --password must have at most 1024 characters'],
    [
      ['--password', 'S3cure-pass', '--email', 'not-an-address'],
      'error: --email: "not-an-address" is not an e-mail address',
    ],
    [
      ['--password', 'S3cure-pass', '--roles', 'EMPLOYEE,BOSS'],
      /^error: unknown role "BOSS" \(1–7 or EMPLOYEE/,
    ],
  ])('add refuses %j and stores nothing', async (options, line) => {
    const args = ['users', 'add', '--username', 'carl', '--email', 'carl@example.test', ...options];
    expect(await admin.refused(...args)).toMatch(line);
    expect(await admin.store.users.findByLogin('carl')).toBeUndefined();
  });

  it('add refuses a username that is taken, whatever its case', async () => {
    expect(
      await admin.refused(
        'users',
        'add',
        '--username',
        'ANN',
        '--email',
        'ann2@example.test',
        '--password',
        'S3cure-pass',
      ),
    ).toBe('error: user already exists');
  });

  it('set-password replaces the password and lifts an expiry', async () => {
    expect(await admin.run('users', 'set-password', '--username', 'bob', '--password', 'N3w-password')).toBe(
      'password of bob set; every session, reset link and OIDC token of the user ended',
    );
    const bob = await user('bob');
    expect(await verifyPassword(bob.passwordHash!, 'N3w-password')).toBe(true);
    expect(await verifyPassword(bob.passwordHash!, 'S3cure-pass')).toBe(false);
    expect(bob.passwordExpiresAt).toBeNull();
  });

  it('expire-password makes the next sign-in change it', async () => {
    expect(await admin.run('users', 'expire-password', '--username', 'ann@example.test')).toBe(
      'password of ann expired; the next sign-in must change it',
    );
    expect((await user('ann')).passwordExpiresAt).toBeLessThanOrEqual(Date.now());
  });

  it('require-2fa switches the second factor requirement on and --off again', async () => {
    expect(await admin.run('users', 'require-2fa', '--username', 'ann')).toBe('ann requires a second factor');
    expect((await user('ann')).requiresTwoFactor).toBe(true);
    expect(await admin.run('users', 'require-2fa', '--username', 'ann', '--off')).toBe(
      'ann no longer requires a second factor',
    );
    expect((await user('ann')).requiresTwoFactor).toBe(false);
  });

  it('disable ends every sign-in session of the user (new security stamp); --enable lets the user in again', async () => {
    const before = await user('bob');
    expect(await admin.run('users', 'disable', '--username', 'bob')).toBe(
      'bob disabled; every sign-in session ended; 0 OIDC session(s) and 0 grant(s) with their tokens revoked',
    );
    const disabled = await user('bob');
    expect(disabled.disabled).toBe(true);
    expect(disabled.securityStamp).not.toBe(before.securityStamp);
    expect(await admin.run('users', 'disable', '--username', 'bob', '--enable')).toBe('bob enabled');
    expect((await user('bob')).disabled).toBe(false);
  });

  it('disable and enable are audited as the console audits them, with the reason (issue 52: one people service)', async () => {
    await admin.run('users', 'disable', '--username', 'bob', '--reason', 'Left the company');
    await admin.run('users', 'disable', '--username', 'bob', '--enable');
    const events = await admin.store.audit.list({
      kinds: ['console.people.disabled', 'console.people.enabled'],
    });
    expect(events.map((e) => [e.kind, e.userId, e.data.subject, e.data.reason])).toEqual([
      ['console.people.enabled', null, 'bob', null],
      ['console.people.disabled', null, 'bob', 'Left the company'],
      // The test above's changes, made without a reason.
      ['console.people.enabled', null, 'bob', null],
      ['console.people.disabled', null, 'bob', null],
    ]);
    expect(String(events[0]!.data.actor)).toMatch(/^cli:/);
  });

  it('roles replaces the roles', async () => {
    expect(await admin.run('users', 'roles', '--username', 'ann', '--roles', 'MANAGER,7')).toBe(
      'ann: MANAGER, HR_ADMIN',
    );
    expect((await user('ann')).roles).toEqual(['MANAGER', 'HR_ADMIN']);
  });

  it.each([
    ['set-password', '--password', 'S3cure-pass'],
    ['expire-password'],
    ['require-2fa'],
    ['disable'],
    ['roles', '--roles', 'EMPLOYEE'],
  ])('%s names an unknown user in one line', async (command, ...options) => {
    expect(await admin.refused('users', command, '--username', 'nobody', ...options)).toBe(
      'error: no user "nobody"',
    );
  });

  it('list shows each user with e-mail, roles and state', async () => {
    await admin.run('users', 'disable', '--username', 'bob');
    await admin.run('users', 'require-2fa', '--username', 'bob');
    await admin.run('users', 'expire-password', '--username', 'bob');
    const lines = (await admin.run('users', 'list')).split('\n');
    expect(lines).toContain('ann\tann@example.test\tMANAGER,HR_ADMIN\texpired');
    expect(lines).toContain('bob\tbob@example.test\tEMPLOYEE,MANAGER,HR_ADMIN\tdisabled,2fa,expired');
    await admin.run('users', 'set-password', '--username', 'ann', '--password', 'S3cure-pass');
    expect((await admin.run('users', 'list')).split('\n')).toContain(
      'ann\tann@example.test\tMANAGER,HR_ADMIN\tactive',
    );
  });
});
