import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { ADMIN_COMMANDS, adminUsage, commandName } from './command-table.js';
import { openAdminHarness, runAdminProcess, type AdminHarness } from '../testing/admin-harness.js';

describe('admin CLI: finding the command', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
  });
  afterAll(async () => {
    await admin.close();
  });

  it.each([
    [
      ['users', 'frob'],
      /^error: unknown command "users frob" \(users: add, set-password, .*, list; "admin help"/,
    ],
    [
      ['frob'],
      /^error: unknown command "frob" \(areas: users, partners, customers, memberships, clients, idps, keys/,
    ],
    [[], /^error: no command given; "admin help" lists the commands$/],
    [['users', 'list', 'extra'], /^error: unexpected argument "extra"$/],
    [['users', 'list', '--email', 'a@b.example'], /^error: "users list" takes no --email$/],
    [['users', 'list', '--frob'], /^error: Unknown option '--frob'/],
    [['users', 'add', '--username'], /^error: Option '--username <value>' argument missing$/],
    [['users', 'add', '--username', 'ann', '--password', 'Long-enough-1'], /^error: --email is required$/],
    [['users', 'add', '--username', '  ', '--email', 'a@b.example'], /^error: --username is required$/],
    [['clients', 'add', '--id', 'c', '--name', 'C', '--public'], /^error: --redirect-uri is required$/],
  ])('admin %j is refused with one line', async (args, line) => {
    expect(await admin.refused(...args)).toMatch(line);
  });

  it('refuses a mistake before the command changes anything', async () => {
    await admin.refused('users', 'add', '--username', 'nobody-yet', '--email', 'n@example.test', '--frob');
    expect(await admin.store.users.findByLogin('nobody-yet')).toBeUndefined();
  });

  it('the usage lists every command of the table with every option it takes', () => {
    // Each command's block: its synopsis line (two spaces, then the command), then indented continuation lines.
    const blocks: string[] = [];
    for (const line of adminUsage().split('\n').slice(1, -1)) {
      if (/^ {2}\S/.test(line)) blocks.push(line);
      else blocks[blocks.length - 1] += `\n${line}`;
    }
    expect(blocks).toHaveLength(ADMIN_COMMANDS.length);
    ADMIN_COMMANDS.forEach((command, i) => {
      const block = blocks[i]!;
      expect(block.startsWith(`  ${commandName(command)}`), block).toBe(true);
      for (const [name, spec] of Object.entries(command.options)) {
        const shown = spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value}`;
        expect(block).toContain(spec.required ? ` ${shown}` : `[${shown}]`);
      }
    });
    expect(
      adminUsage()
        .split('\n')
        .filter((line) => line.length > 110),
    ).toEqual([]);
  });
});

describe('admin CLI as a process', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'admin-cli-process-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('help prints the usage and exits 0', async () => {
    const result = await runAdminProcess(['help'], { DATA_DIR: dataDir() });
    expect(result).toEqual({ status: 0, stdout: `${adminUsage()}\n`, stderr: '' });
  });

  it('a mistake prints one error line, exits 2 and leaves no database behind', async () => {
    const dir = dataDir();
    const result = await runAdminProcess(['customers', 'add', '--id', 'c1'], { DATA_DIR: dir });
    expect(result).toEqual({ status: 2, stdout: '', stderr: 'error: --name is required\n' });
    expect(existsSync(path.join(dir, 'identity.db'))).toBe(false);
  });

  it('a command runs against the store of DATA_DIR', async () => {
    const dir = dataDir();
    const result = await runAdminProcess(['customers', 'add', '--id', 'c1', '--name', 'Customer 1'], {
      DATA_DIR: dir,
    });
    expect(result).toEqual({ status: 0, stdout: 'customer c1 added\n', stderr: '' });
    const store = await openStore({
      sqliteFile: path.join(dir, 'identity.db'),
      dataEncryptionKey: randomBytes(32),
    });
    try {
      expect(await store.customers.findById('c1')).toEqual({ id: 'c1', name: 'Customer 1', partnerId: null });
    } finally {
      await store.database.close();
    }
  });
});
