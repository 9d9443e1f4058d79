import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin memberships', () => {
  let admin: AdminHarness;
  let annId: string;
  beforeAll(async () => {
    admin = await openAdminHarness();
    await admin.run(
      'users',
      'add',
      '--username',
      'ann',
      '--email',
      'ann@example.test',
      '--password',
      'S3cure-pass',
      '--roles',
      'MANAGER',
    );
    annId = (await admin.store.users.findByLogin('ann'))!.id;
    await admin.run('customers', 'add', '--id', 'c1', '--name', 'Customer 1');
    await admin.run('customers', 'add', '--id', 'c2', '--name', 'Customer 2');
  });
  afterAll(async () => {
    await admin.close();
  });

  it("add makes the user a member with the user's own roles, or the roles given", async () => {
    expect(await admin.run('memberships', 'add', '--username', 'ann', '--customer', 'c1')).toBe(
      'ann is a member of c1',
    );
    expect(
      await admin.run('memberships', 'add', '--username', 'ann', '--customer', 'c2', '--roles', 'EMPLOYEE,7'),
    ).toBe('ann is a member of c2');
    expect(await admin.store.customers.listMemberships()).toEqual(
      expect.arrayContaining([
        { userId: annId, customerId: 'c1', roles: ['MANAGER'] },
        { userId: annId, customerId: 'c2', roles: ['EMPLOYEE', 'HR_ADMIN'] },
      ]),
    );
  });

  it('add refuses an unknown user or customer and a second membership of the same customer', async () => {
    expect(await admin.refused('memberships', 'add', '--username', 'nobody', '--customer', 'c1')).toBe(
      'error: no user "nobody"',
    );
    expect(await admin.refused('memberships', 'add', '--username', 'ann', '--customer', 'c9')).toBe(
      'error: no customer "c9"',
    );
    expect(await admin.refused('memberships', 'add', '--username', 'ann', '--customer', 'c1')).toBe(
      'error: membership already exists',
    );
    expect(await admin.store.customers.listMemberships()).toHaveLength(2);
  });

  it('list shows user id, customer and roles', async () => {
    const lines = (await admin.run('memberships', 'list')).split('\n');
    expect(lines.sort()).toEqual([`${annId}\tc1\tMANAGER`, `${annId}\tc2\tEMPLOYEE,HR_ADMIN`]);
  });
});
