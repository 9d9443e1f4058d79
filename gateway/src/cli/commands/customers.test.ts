import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin customers', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
    await admin.run('partners', 'add', '--id', 'acme', '--name', 'Acme');
  });
  afterAll(async () => {
    await admin.close();
  });

  it('add stores a customer, of a partner or of none', async () => {
    expect(
      await admin.run('customers', 'add', '--id', 'c1', '--name', 'Customer 1', '--partner', 'acme'),
    ).toBe('customer c1 added');
    expect(await admin.run('customers', 'add', '--id', 'c2', '--name', 'Customer 2')).toBe(
      'customer c2 added',
    );
    expect(await admin.store.customers.findById('c1')).toEqual({
      id: 'c1',
      name: 'Customer 1',
      partnerId: 'acme',
    });
    expect(await admin.store.customers.findById('c2')).toEqual({
      id: 'c2',
      name: 'Customer 2',
      partnerId: null,
    });
  });

  it('add refuses an unknown partner and a taken id', async () => {
    expect(await admin.refused('customers', 'add', '--id', 'c3', '--name', 'C3', '--partner', 'nope')).toBe(
      'error: no partner "nope"',
    );
    expect(await admin.store.customers.findById('c3')).toBeUndefined();
    expect(await admin.refused('customers', 'add', '--id', 'c1', '--name', 'Again')).toBe(
      'error: customer already exists',
    );
  });

  it('list shows id, name and partner', async () => {
    expect(await admin.run('customers', 'list')).toBe('c1\tCustomer 1\tacme\nc2\tCustomer 2\t-');
  });
});
