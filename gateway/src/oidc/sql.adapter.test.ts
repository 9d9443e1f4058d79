import type { Kysely } from 'kysely';
import { errors } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlAdapterFactory, purgeExpiredOidcPayloads } from './sql.adapter.js';
import { openTempOidcStore, type TempOidcStore } from '../testing/oidc-harness.js';
import type { OidcDatabase } from './types.js';

describe('SQL adapter', () => {
  let temp: TempOidcStore;
  let db: Kysely<OidcDatabase>;
  let now = 1_700_000_000_000;
  const clock = () => now;

  beforeAll(async () => {
    temp = await openTempOidcStore('oidc-sql-');
    db = temp.db;
  });

  afterAll(async () => {
    await temp.close();
  });

  it('S36 consumes exactly once under 50 parallel calls; losers get invalid_grant and the grant is revoked', async () => {
    const adapter = createSqlAdapterFactory(db, clock);
    const codes = adapter('AuthorizationCode');
    const tokens = adapter('AccessToken');
    await codes.upsert('code-1', { grantId: 'g-1', clientId: 'c' }, 60);
    await tokens.upsert('at-1', { grantId: 'g-1', clientId: 'c' }, 600);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => codes.consume('code-1')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(errors.InvalidGrant);
    }
    // A replay revoked everything issued under the grant.
    expect(await tokens.find('at-1')).toBeUndefined();
  });

  it('marks consumed payloads, hides expired ones and purges them', async () => {
    const adapter = createSqlAdapterFactory(db, clock)('AuthorizationCode');
    await adapter.upsert('code-2', { grantId: 'g-2', uid: 'uid-2' }, 60);
    await adapter.consume('code-2');
    expect((await adapter.find('code-2'))?.consumed).toBeTruthy();
    expect(await adapter.findByUid('uid-2')).toMatchObject({ grantId: 'g-2' });
    now += 61_000;
    expect(await adapter.find('code-2')).toBeUndefined();
    expect(await purgeExpiredOidcPayloads(db, clock)).toBeGreaterThanOrEqual(1);
  });

  it('keeps kinds apart and revokes a grant across kinds', async () => {
    const factory = createSqlAdapterFactory(db, clock);
    await factory('Session').upsert('same-id', { accountId: 'a' }, 600);
    await factory('Interaction').upsert('same-id', { uid: 'x' }, 600);
    expect(await factory('Session').find('same-id')).toEqual({ accountId: 'a' });
    await factory('Grant').upsert('g-3', { accountId: 'a', clientId: 'c' }, 600);
    await factory('RefreshToken').upsert('rt-3', { grantId: 'g-3' }, 600);
    await factory('AccessToken').revokeByGrantId('g-3');
    expect(await factory('Grant').find('g-3')).toBeUndefined();
    expect(await factory('RefreshToken').find('rt-3')).toBeUndefined();
    expect(await factory('Interaction').find('same-id')).toEqual({ uid: 'x' });
  });
});
