/**
 * The console's grants (issue 51, ADR 0058) on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL: which role
 * takes which scope, one grant of a kind per account (NULL scopes included), the last platform administrator kept,
 * every change audited with the console's shape, and whether an account is ready for the console.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from 'shared-contracts/console';
import { ManualClock } from '../../infra/clock.js';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import type { Store } from '../../store/store.js';
import { storeSignInFacts } from '../sign-in/sign-in-context.js';
import { cliActor, operatorActor } from './console-actor.js';
import {
  createConsoleGrantsService,
  grantGives,
  holdsEnough,
  permissionsOf,
  type ConsoleGrantsService,
} from './console-grants.service.js';

const SQL = [
  { sql: 'sqlite' as const, skip: false as const },
  {
    sql: 'postgres' as const,
    skip: process.env.TEST_DATABASE_URL ? (false as const) : 'TEST_DATABASE_URL is not set',
  },
];

describe('what a grant gives', () => {
  const global = (role: 'platformAdmin' | 'releaseManager') => ({ role, partnerId: null, customerId: null });
  it.each([
    [global('releaseManager'), 'console.releases.change', 'all', true],
    [global('platformAdmin'), 'console.releases.read', 'all', true],
    [{ role: 'support', partnerId: 'p', customerId: null }, 'console.releases.read', 'all', false],
    [{ role: 'customerAdmin', partnerId: 'p', customerId: 'c' }, 'console.releases.read', 'customer', false],
    // A platform administrator's grant applies everywhere, so within any partner or customer too.
    [global('platformAdmin'), 'console.releases.read', 'partner', true],
    [global('platformAdmin'), 'console.releases.read', 'customer', true],
  ] as const)('%o gives %s over %s: %s', (grant, permission, scope, gives) => {
    expect(grantGives(grant, permission, scope)).toBe(gives);
  });

  it('needs a grant that applies everywhere for scope "all", whatever its role holds', () => {
    // A scoped grant of a role that holds the permission (a role the next issue may give partner-wide reads).
    const scoped = { role: 'platformAdmin' as const, partnerId: 'p', customerId: null };
    expect(grantGives(scoped, 'console.releases.read', 'all')).toBe(false);
    expect(grantGives(scoped, 'console.releases.read', 'partner')).toBe(true);
    expect(grantGives({ ...scoped, customerId: 'c' }, 'console.releases.read', 'partner')).toBe(false);
  });

  it("gives the union of the roles' permissions, each once", () => {
    expect(permissionsOf([])).toEqual([]);
    expect(permissionsOf([{ role: 'support' }])).toEqual(ROLE_PERMISSIONS.support);
    expect(permissionsOf([{ role: 'releaseManager' }, { role: 'platformAdmin' }]).sort()).toEqual(
      [...new Set([...ROLE_PERMISSIONS.releaseManager, ...ROLE_PERMISSIONS.platformAdmin])].sort(),
    );
  });
});

describe('nobody grants more than they hold (ADR 0063)', () => {
  const everywhere = (role: 'platformAdmin' | 'releaseManager') => ({
    role,
    partnerId: null,
    customerId: null,
  });
  const support = (partnerId: string) => ({ role: 'support' as const, partnerId, customerId: null });
  const customerAdmin = (partnerId: string, customerId: string) => ({
    role: 'customerAdmin' as const,
    partnerId,
    customerId,
  });
  const nowhere = { partnerId: null, customerId: null };
  it.each([
    // A platform administrator holds every permission everywhere.
    [[everywhere('platformAdmin')], 'platformAdmin', nowhere, true],
    [[everywhere('platformAdmin')], 'support', { partnerId: 'north', customerId: null }, true],
    // A release manager holds releases only: no people, let alone everything.
    [[everywhere('releaseManager')], 'releaseManager', nowhere, true],
    [[everywhere('releaseManager')], 'platformAdmin', nowhere, false],
    [[everywhere('releaseManager')], 'support', { partnerId: 'north', customerId: null }, false],
    // Support of a partner: support of that partner and the customer administrators of its customers only.
    [[support('north')], 'support', { partnerId: 'north', customerId: null }, true],
    [[support('north')], 'support', { partnerId: 'south', customerId: null }, false],
    [[support('north')], 'customerAdmin', { partnerId: 'north', customerId: 'north-retail' }, true],
    [[support('north')], 'customerAdmin', { partnerId: 'south', customerId: 'south-retail' }, false],
    [[support('north')], 'platformAdmin', nowhere, false],
    // A customer administrator: its customer's administrators, never support of the whole partner.
    [
      [customerAdmin('north', 'north-retail')],
      'customerAdmin',
      { partnerId: 'north', customerId: 'north-retail' },
      true,
    ],
    [
      [customerAdmin('north', 'north-retail')],
      'customerAdmin',
      { partnerId: 'north', customerId: 'north-x' },
      false,
    ],
    [[customerAdmin('north', 'north-retail')], 'support', { partnerId: 'north', customerId: null }, false],
    // Grants add up: support of a partner beside a release manager is not a platform administrator.
    [[everywhere('releaseManager'), support('north')], 'platformAdmin', nowhere, false],
    [[], 'customerAdmin', { partnerId: 'north', customerId: 'north-retail' }, false],
  ] as const)('%o may give %s over %o: %s', (held, role, scope, allowed) => {
    expect(holdsEnough(held, role, scope)).toBe(allowed);
  });
});

for (const { sql, skip } of SQL) {
  describe.skipIf(skip)(`console grants (${sql})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    let backends: TestBackends;
    let store: Store;
    let grants: ConsoleGrantsService;
    const clock = new ManualClock();
    const cli = cliActor('ops');

    async function addUser(username: string) {
      return store.users.create({
        username,
        email: `${username}@example.test`,
        displayName: username,
        passwordHash: 'x',
        roles: ['EMPLOYEE'],
        partnerId: null,
        passwordExpiresAt: null,
        requiresTwoFactor: false,
        disabled: false,
      });
    }

    beforeAll(async () => {
      backends = await openTestBackends({ sql, tempPrefix: 'console-grants-test-', now: () => clock.now() });
      store = backends.store;
      grants = createConsoleGrantsService({ store, facts: storeSignInFacts(store), clock });
      await store.partners.create({ id: 'north', name: 'North' });
      await store.partners.create({ id: 'south', name: 'South' });
      await store.customers.create({ id: 'north-retail', name: 'North Retail', partnerId: 'north' });
    });
    afterAll(async () => {
      await backends.close();
    });

    it.each([
      ['releaseManager', { partnerId: 'north' }, { kind: 'globalRole', role: 'releaseManager' }],
      ['platformAdmin', { customerId: 'north-retail' }, { kind: 'globalRole', role: 'platformAdmin' }],
      ['support', {}, { kind: 'partnerRequired' }],
      ['support', { partnerId: 'north', customerId: 'north-retail' }, { kind: 'supportTakesNoCustomer' }],
      ['support', { partnerId: 'west' }, { kind: 'unknownPartner', partnerId: 'west' }],
      ['customerAdmin', { partnerId: 'north' }, { kind: 'customerRequired' }],
      [
        'customerAdmin',
        { customerId: 'east-retail' },
        { kind: 'unknownCustomer', customerId: 'east-retail' },
      ],
      [
        'customerAdmin',
        { partnerId: 'south', customerId: 'north-retail' },
        { kind: 'customerOfAnotherPartner', customerId: 'north-retail', partnerId: 'north' },
      ],
    ] as const)('refuses %s with %o: %o', async (role, scope, refusal) => {
      const user = await addUser(`refused-${role}-${Object.values(scope).join('-') || 'none'}`);
      expect(await grants.grant({ userId: user.id, role, ...scope, actor: cli })).toEqual({
        kind: 'refused',
        refusal,
      });
      expect(await grants.grantsOf(user.id)).toEqual([]);
    });

    it("grants each role its scope; a customer administrator's partner is its customer's", async () => {
      const user = await addUser('scoped');
      for (const request of [
        { role: 'releaseManager', partnerId: null, customerId: null },
        { role: 'support', partnerId: 'north', customerId: null },
        { role: 'customerAdmin', customerId: 'north-retail' },
      ] as const)
        expect((await grants.grant({ userId: user.id, ...request, actor: cli })).kind).toBe('done');
      expect(await grants.grantsOf(user.id)).toEqual([
        { role: 'customerAdmin', partnerId: 'north', customerId: 'north-retail' },
        { role: 'releaseManager', partnerId: null, customerId: null },
        { role: 'support', partnerId: 'north', customerId: null },
      ]);
      expect((await grants.list({ userId: user.id }))[0]).toMatchObject({
        username: 'scoped',
        grantedBy: 'cli:ops',
        grantedAt: clock.now(),
      });
    });

    it('holds one grant of a kind per account, the scopes that are null included', async () => {
      const user = await addUser('twice');
      const request = { userId: user.id, role: 'releaseManager' as const, actor: cli };
      expect((await grants.grant(request)).kind).toBe('done');
      expect(await grants.grant(request)).toEqual({ kind: 'refused', refusal: { kind: 'alreadyGranted' } });
      const support = { userId: user.id, role: 'support' as const, partnerId: 'north', actor: cli };
      expect((await grants.grant(support)).kind).toBe('done');
      expect(await grants.grant(support)).toEqual({ kind: 'refused', refusal: { kind: 'alreadyGranted' } });
      expect((await grants.grant({ ...support, partnerId: 'south' })).kind).toBe('done');
      // The index itself refuses, whoever writes (not only the service's path).
      expect(
        await store.consoleGrants.add({
          userId: user.id,
          role: 'releaseManager',
          partnerId: null,
          customerId: null,
          grantedBy: 'test',
        }),
      ).toBeUndefined();
      expect(await grants.grantsOf(user.id)).toHaveLength(3);
    });

    it('audits every grant and withdrawal with who, what, on whom and why', async () => {
      const actor = await addUser('granter');
      const user = await addUser('audited');
      // The operator gives what they hold themselves, where they hold it (ADR 0063).
      await grants.grant({ userId: actor.id, role: 'support', partnerId: 'north', actor: cli });
      await grants.grant({
        userId: user.id,
        role: 'support',
        partnerId: 'north',
        actor: operatorActor(actor),
        reason: 'new help desk member',
      });
      await grants.withdraw({ userId: user.id, role: 'support', partnerId: 'north', actor: cli });
      const events = await store.audit.list({ kinds: ['console.grant'] });
      const own = events.filter((e) => e.data.subject === 'audited').reverse();
      expect(own.map((e) => ({ kind: e.kind, userId: e.userId, data: e.data }))).toEqual([
        {
          kind: 'console.grant.added',
          userId: actor.id,
          data: {
            actor: 'granter',
            subject: 'audited',
            reason: 'new help desk member',
            role: 'support',
            partnerId: 'north',
            customerId: null,
          },
        },
        {
          kind: 'console.grant.withdrawn',
          userId: null,
          data: {
            actor: 'cli:ops',
            subject: 'audited',
            reason: null,
            role: 'support',
            partnerId: 'north',
            customerId: null,
          },
        },
      ]);
      expect(await grants.grantsOf(user.id)).toEqual([]);
    });

    it('refuses an operator more than they hold, themselves included; the CLI holds everything', async () => {
      const operator = await addUser('partial');
      await grants.grant({ userId: operator.id, role: 'support', partnerId: 'north', actor: cli });
      const other = await addUser('other-partial');
      const as = operatorActor(operator);
      for (const request of [
        { userId: operator.id, role: 'platformAdmin' as const },
        { userId: operator.id, role: 'support' as const, partnerId: 'south' },
        { userId: other.id, role: 'releaseManager' as const },
      ])
        expect(await grants.grant({ ...request, actor: as })).toEqual({
          kind: 'refused',
          refusal: { kind: 'beyondOwn' },
        });
      expect(await grants.grantsOf(other.id)).toEqual([]);
      expect(await grants.grantsOf(operator.id)).toEqual([
        { role: 'support', partnerId: 'north', customerId: null },
      ]);
      // Withdrawing too: what they could not give, they cannot take.
      await grants.grant({ userId: other.id, role: 'support', partnerId: 'south', actor: cli });
      expect(
        await grants.withdraw({ userId: other.id, role: 'support', partnerId: 'south', actor: as }),
      ).toEqual({
        kind: 'refused',
        refusal: { kind: 'beyondOwn' },
      });
      expect(
        (await grants.grant({ userId: other.id, role: 'support', partnerId: 'north', actor: as })).kind,
      ).toBe('done');
    });

    it('withdraws only what was granted, and refuses an unknown account', async () => {
      const user = await addUser('nothing');
      expect(await grants.withdraw({ userId: user.id, role: 'releaseManager', actor: cli })).toEqual({
        kind: 'refused',
        refusal: { kind: 'notGranted' },
      });
      expect(await grants.grant({ userId: 'no-such-id', role: 'releaseManager', actor: cli })).toEqual({
        kind: 'refused',
        refusal: { kind: 'unknownUser' },
      });
    });

    it('never withdraws the last platform administrator of an enabled account', async () => {
      const first = await addUser('admin-one');
      const second = await addUser('admin-two');
      const request = (userId: string) => ({ userId, role: 'platformAdmin' as const, actor: cli });
      await grants.grant(request(first.id));
      expect(await grants.withdraw(request(first.id))).toEqual({
        kind: 'refused',
        refusal: { kind: 'lastPlatformAdmin' },
      });
      // A disabled account's grant does not count as someone who can still grant.
      await grants.grant(request(second.id));
      await store.users.update(second.id, { disabled: true });
      expect((await grants.withdraw(request(first.id))).kind).toBe('refused');
      await store.users.update(second.id, { disabled: false });
      expect((await grants.withdraw(request(first.id))).kind).toBe('done');
      expect((await grants.withdraw(request(second.id))).kind).toBe('refused');
    });

    it('keeps one of two platform administrators who withdraw each other at the same moment', async () => {
      // Without the lock, PostgreSQL let both go in about half of such rounds; ten rounds make a miss unlikely.
      // Each round starts with the pair as the only enabled platform administrators.
      for (const grant of await grants.list())
        if (grant.role === 'platformAdmin') await store.users.update(grant.userId, { disabled: true });
      for (let round = 0; round < 10; round++) {
        const pair = [await addUser(`at-once-${round}-a`), await addUser(`at-once-${round}-b`)];
        const request = (userId: string) => ({ userId, role: 'platformAdmin' as const, actor: cli });
        for (const user of pair) await grants.grant(request(user.id));
        const outcomes = await Promise.all(pair.map((user) => grants.withdraw(request(user.id))));
        expect(outcomes.map((o) => o.kind).sort()).toEqual(['done', 'refused']);
        const left = pair[outcomes.findIndex((o) => o.kind === 'refused')]!;
        await store.users.update(left.id, { disabled: true });
      }
    });

    it('is ready for the console with a second factor, and not without', async () => {
      const user = await addUser('ready');
      await grants.grant({ userId: user.id, role: 'releaseManager', actor: cli });
      expect(await grants.access(user.id)).toEqual({
        grants: [{ role: 'releaseManager', partnerId: null, customerId: null }],
        permissions: ROLE_PERMISSIONS.releaseManager,
        secondFactorReady: false,
      });
      await store.secondFactors.enableAuthenticator(user.id, store.secrets.encrypt('JBSWY3DPEHPK3PXP'), 0);
      expect((await grants.access(user.id)).secondFactorReady).toBe(true);
    });
  });
}
