/**
 * A user's customer list as the selection page pages through it (issue 43), on SQLite and (when TEST_DATABASE_URL
 * is set) PostgreSQL: natural order ("Branch 2" before "Branch 10") across pages, case and accents ignored as the
 * search ignores them, the search unchanged, and the customer chosen last still first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestBackends, type TestBackends } from '../testing/backends.js';
import { customerSortKey } from './customer-search-key.js';
import type { CustomerRepository } from './customer.repository.js';

const SQL = [
  { sql: 'sqlite' as const, skip: false as const },
  {
    sql: 'postgres' as const,
    skip: process.env.TEST_DATABASE_URL ? (false as const) : 'TEST_DATABASE_URL is not set',
  },
];

describe('customerSortKey', () => {
  it.each([
    ['Branch 2', 'Branch 10'],
    ['Branch 9', 'branch 10'],
    ['branch 3', 'Branch 10'],
    ['Branch 1', 'Branch 1a'],
    ['Branch 1a', 'Branch 2'],
    ['Branch 007', 'Branch 10'],
    ['Store 2 Unit 10', 'Store 10 Unit 2'],
    ['Zürich 2', 'ZURICH 10'],
    ['Branch 99999999999', 'Branch 100000000000'],
    ['Branch', 'Branch 1'],
    ['Branch 10', 'Élan'],
  ])('%s sorts before %s', (first, second) => {
    expect(customerSortKey(first) < customerSortKey(second)).toBe(true);
  });

  it('is the same for names that differ only in case, accents, spacing or leading zeros', () => {
    expect(new Set(['Élan 7', 'ELAN 7', 'elan  07', 'Elan 0007'].map(customerSortKey)).size).toBe(1);
  });
});

for (const { sql, skip } of SQL) {
  describe.skipIf(skip)(`customer list order (${sql})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    let backends: TestBackends;
    let customers: CustomerRepository;
    /** Imported in one file (importAll). */
    let annId: string;
    /** Given memberships one by one (create + addMembership). */
    let bobId: string;
    /** Member of the mixed list. */
    let carolId: string;

    const names = (page: { customers: { name: string }[] }) => page.customers.map((c) => c.name);

    beforeAll(async () => {
      backends = await openTestBackends({ sql, tempPrefix: 'customer-order-test-' });
      const { store } = backends;
      customers = store.customers;
      const ids: string[] = [];
      for (const username of ['ann', 'bob', 'carol']) {
        const user = await store.users.create({
          username,
          email: `${username}@example.test`,
          displayName: username,
          passwordHash: 'x',
          roles: ['MANAGER'],
          partnerId: null,
          passwordExpiresAt: null,
          requiresTwoFactor: false,
          disabled: false,
        });
        ids.push(user.id);
      }
      [annId, bobId, carolId] = ids as [string, string, string];
      // Branch 1 … Branch 12, stored in a shuffled order so insertion order cannot pass for the sort.
      const branches = [7, 12, 1, 10, 3, 5, 11, 2, 9, 4, 8, 6];
      await customers.importAll(
        branches.map((n) => ({
          id: `ann-${n}`,
          partnerId: null,
          name: `Branch ${n}`,
          members: [{ userId: annId, roles: ['MANAGER'] }],
        })),
      );
      for (const n of branches) {
        await customers.create({ id: `bob-${n}`, partnerId: null, name: `Branch ${n}` });
        await customers.addMembership({ userId: bobId, customerId: `bob-${n}`, roles: ['MANAGER'] });
      }
      for (const [id, name] of [
        ['m1', 'Élan'],
        ['m2', 'Branch 10'],
        ['m3', 'branch 3'],
        ['m4', 'Branch 2'],
        ['m5', 'ÉLAN 2'],
        ['m6', '50% Off Ltd'],
      ]) {
        await customers.create({ id: id!, partnerId: null, name: name! });
        await customers.addMembership({ userId: carolId, customerId: id!, roles: ['MANAGER'] });
      }
    });
    afterAll(async () => {
      await backends?.close();
    });

    it.each([
      ['imported', () => annId],
      ['added one by one', () => bobId],
    ])('pages the %s customers in natural order', async (_, user) => {
      const page = (n: number) => customers.searchCustomersOf(user(), { offset: (n - 1) * 5, limit: 5 });
      expect(names(await page(1))).toEqual(['Branch 1', 'Branch 2', 'Branch 3', 'Branch 4', 'Branch 5']);
      expect(names(await page(2))).toEqual(['Branch 6', 'Branch 7', 'Branch 8', 'Branch 9', 'Branch 10']);
      expect(await page(3)).toMatchObject({ total: 12 });
      expect(names(await page(3))).toEqual(['Branch 11', 'Branch 12']);
    });

    it('orders mixed case and accents as the search folds them', async () => {
      const all = await customers.searchCustomersOf(carolId, { offset: 0, limit: 10 });
      expect(names(all)).toEqual(['50% Off Ltd', 'Branch 2', 'branch 3', 'Branch 10', 'Élan', 'ÉLAN 2']);
      const second = await customers.searchCustomersOf(carolId, { offset: 2, limit: 2 });
      expect(names(second)).toEqual(['branch 3', 'Branch 10']);
    });

    it('still searches, ignoring case and accents, and keeps the natural order in the matches', async () => {
      const ones = await customers.searchCustomersOf(annId, { filter: 'BRANCH 1', offset: 0, limit: 5 });
      expect(ones).toMatchObject({ total: 4 });
      expect(names(ones)).toEqual(['Branch 1', 'Branch 10', 'Branch 11', 'Branch 12']);
      const later = await customers.searchCustomersOf(annId, { filter: 'branch 1', offset: 2, limit: 5 });
      expect(names(later)).toEqual(['Branch 11', 'Branch 12']);
      expect(
        names(await customers.searchCustomersOf(carolId, { filter: 'elan', offset: 0, limit: 5 })),
      ).toEqual(['Élan', 'ÉLAN 2']);
      expect(
        names(await customers.searchCustomersOf(carolId, { filter: '50%', offset: 0, limit: 5 })),
      ).toEqual(['50% Off Ltd']);
      expect(await customers.searchCustomersOf(carolId, { filter: '5%', offset: 0, limit: 5 })).toEqual({
        customers: [],
        total: 0,
      });
    });

    it('lists the customer chosen last first, then the others in natural order', async () => {
      await customers.markSelected(bobId, 'bob-10');
      const first = await customers.searchCustomersOf(bobId, { offset: 0, limit: 5 });
      expect(names(first)).toEqual(['Branch 10', 'Branch 1', 'Branch 2', 'Branch 3', 'Branch 4']);
      const second = await customers.searchCustomersOf(bobId, { offset: 5, limit: 5 });
      expect(names(second)).toEqual(['Branch 5', 'Branch 6', 'Branch 7', 'Branch 8', 'Branch 9']);
      const third = await customers.searchCustomersOf(bobId, { offset: 10, limit: 5 });
      expect(names(third)).toEqual(['Branch 11', 'Branch 12']);
    });
  });
}
