import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, runAdminProcess, type AdminHarness } from '../../testing/admin-harness.js';

/**
 * `admin console grant|withdraw|list` (issue 51, ADR 0058): the first platform administrator is made here, and any
 * grant after it; every mistake is one line naming it, and every change is audited as the console audits it, with
 * the actor `cli:<os user>`.
 */
describe('admin console', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
    for (const username of ['ann', 'bob'])
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
    await admin.run('partners', 'add', '--id', 'north', '--name', 'North');
    await admin.run('partners', 'add', '--id', 'south', '--name', 'South');
    await admin.run(
      'customers',
      'add',
      '--id',
      'north-retail',
      '--name',
      'North Retail',
      '--partner',
      'north',
    );
  });
  afterAll(async () => {
    await admin.close();
  });

  it('makes the first platform administrator, and audits it with the OS user as the actor', async () => {
    expect(
      await admin.run(
        'console',
        'grant',
        'ann',
        '--role',
        'platformAdmin',
        '--reason',
        'first administrator',
      ),
    ).toBe('ann is now platformAdmin');
    const [event] = await admin.store.audit.list({ kinds: ['console.grant.added'] });
    expect(event).toMatchObject({
      userId: null,
      data: {
        actor: `cli:${userInfo().username}`,
        subject: 'ann',
        reason: 'first administrator',
        role: 'platformAdmin',
        partnerId: null,
        customerId: null,
      },
    });
  });

  it('grants support of a partner and a customer administrator of a customer (its partner beside it)', async () => {
    expect(await admin.run('console', 'grant', 'bob', '--role', 'support', '--partner', 'north')).toBe(
      'bob is now support of partner north',
    );
    expect(
      await admin.run('console', 'grant', 'bob', '--role', 'customeradmin', '--customer', 'north-retail'),
    ).toBe('bob is now customerAdmin of customer north-retail');
    const lines = (await admin.run('console', 'list', '--user', 'bob')).split('\n').map((l) => l.split('\t'));
    expect(lines.map((fields) => fields.slice(0, 5))).toEqual([
      ['bob', 'customerAdmin', 'north', 'north-retail', `cli:${userInfo().username}`],
      ['bob', 'support', 'north', '-', `cli:${userInfo().username}`],
    ]);
    expect((await admin.run('console', 'list')).split('\n')).toHaveLength(3);
  });

  it.each([
    [['grant', 'nobody', '--role', 'support'], 'error: no user "nobody"'],
    [
      ['grant', 'bob', '--role', 'owner'],
      'error: unknown role "owner" (platformAdmin, releaseManager, support, customerAdmin)',
    ],
    [['grant', 'bob', '--role', 'support', '--partner', 'west'], 'error: no partner "west"'],
    [['grant', 'bob', '--role', 'customerAdmin', '--customer', 'east'], 'error: no customer "east"'],
    [
      ['grant', 'bob', '--role', 'releaseManager', '--partner', 'north'],
      'error: releaseManager applies everywhere: give neither --partner nor --customer',
    ],
    [['grant', 'bob', '--role', 'support'], 'error: support is for one partner: give --partner'],
    [
      ['grant', 'bob', '--role', 'customerAdmin'],
      'error: customerAdmin is for one customer: give --customer',
    ],
    [
      ['grant', 'bob', '--role', 'customerAdmin', '--customer', 'north-retail', '--partner', 'south'],
      'error: customer "north-retail" belongs to partner "north", not to the --partner given',
    ],
    [['grant', 'bob', '--role', 'support', '--partner', 'north'], 'error: bob already holds that grant'],
    [['grant', 'bob', '--role', 'support', '--partner', ' '], 'error: --partner needs an id'],
    [['grant', 'bob'], 'error: --role is required'],
    [['grant', '--role', 'support'], 'error: USERNAME is required'],
    [['withdraw', 'bob', '--role', 'releaseManager'], 'error: bob holds no such grant'],
    [
      ['withdraw', 'ann', '--role', 'platformAdmin'],
      'error: ann is the last platform administrator: grant another one first',
    ],
    [['list', '--user', 'nobody'], 'error: no user "nobody"'],
  ])('refuses console %j: %s', async (args, line) => {
    const before = await admin.store.consoleGrants.list();
    expect(await admin.refused('console', ...args)).toBe(line);
    expect(await admin.store.consoleGrants.list()).toEqual(before);
  });

  it('withdraws a grant, and a platform administrator once another one is there', async () => {
    expect(await admin.run('console', 'withdraw', 'bob', '--role', 'support', '--partner', 'north')).toBe(
      'bob is no longer support of partner north',
    );
    await admin.run('console', 'grant', 'bob', '--role', 'platformAdmin');
    expect(await admin.run('console', 'withdraw', 'ann', '--role', 'platformAdmin', '--reason', 'left')).toBe(
      'ann is no longer platformAdmin',
    );
    const [event] = await admin.store.audit.list({ kinds: ['console.grant.withdrawn'] });
    expect(event?.data).toMatchObject({
      subject: 'ann',
      reason: 'left',
      actor: `cli:${userInfo().username}`,
    });
    expect((await admin.run('console', 'list')).split('\n').map((l) => l.split('\t').slice(0, 2))).toEqual([
      ['bob', 'customerAdmin'],
      ['bob', 'platformAdmin'],
    ]);
  });
});

describe('admin console as a process', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'admin-console-process-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a refused grant prints its one line and exits 2, as every mistake', async () => {
    const result = await runAdminProcess(['console', 'grant', 'nobody', '--role', 'platformAdmin'], {
      DATA_DIR: dir,
    });
    expect(result).toEqual({ status: 2, stdout: '', stderr: 'error: no user "nobody"\n' });
  });
});
