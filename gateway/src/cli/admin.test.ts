import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKeys } from '../oidc/signing-keys.js';
import type { OidcDatabase } from '../oidc/types.js';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { runAdminCommand } from './admin.js';
import { UsageError } from './cli-support.js';

describe('admin CLI', () => {
  let gw: TestGateway;
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    await runAdminCommand(gw.store, args, (line) => lines.push(line));
    return lines.join('\n');
  };
  beforeAll(async () => {
    gw = await startTestGateway();
    await run('partners', 'add', '--id', 'acme', '--name', 'Acme');
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['--background-color', 'red;background:url(https://evil.example/x)'],
    ['--background-color', 'var(--x)'],
    ['--background-color', 'expression(alert(1))'],
    ['--privacy-url', 'javascript:alert(1)'],
    ['--privacy-url', 'https://user@evil.example/'],
    ['--privacy-url', '/relative/privacy'],
    ['--privacy-url', 'data:text/html,<script>alert(1)</script>'],
  ])('S34 refuses partner %s %s with one line, storing nothing', async (option, value) => {
    await expect(run('partners', 'update', '--id', 'acme', option, value)).rejects.toBeInstanceOf(UsageError);
    const partner = await gw.store.partners.findById('acme');
    expect(partner?.backgroundColor ?? null).toBeNull();
    expect(partner?.privacyPolicyUrl ?? null).toBeNull();
  });

  it('accepts the colours and links the shell accepts (shared checks)', async () => {
    await run(
      'partners',
      'update',
      '--id',
      'acme',
      '--background-color',
      ' rgb(10 20 30 / 50%) ',
      '--privacy-url',
      'https://acme.example/privacy',
    );
    const partner = await gw.store.partners.findById('acme');
    expect(partner?.backgroundColor).toBe('rgb(10 20 30 / 50%)');
    expect(partner?.privacyPolicyUrl).toBe('https://acme.example/privacy');
  });

  it('keys rotate publishes a new generation that signs only after the grace period', async () => {
    const db = gw.store.database.db as unknown as Kysely<OidcDatabase>;
    const before = await loadSigningKeys(db);
    const output = await run('keys', 'rotate');
    expect(output).toMatch(/published; they sign from \d{4}-/);
    const after = await loadSigningKeys(db);
    expect(after).toHaveLength(4);
    expect(after.slice(0, 2).map((k) => k.kid)).toEqual(before.slice(0, 2).map((k) => k.kid));
    expect(await loadSigningKeys(db, Date.now() + 61_000).then((k) => k[0]!.kid)).toBe(after[2]!.kid);
  });

  it('sessions revoke needs a known user', async () => {
    await expect(run('sessions', 'revoke', '--user', 'nobody')).rejects.toThrow('no user "nobody"');
    await expect(run('sessions', 'revoke')).rejects.toThrow('--user is required');
  });
});
