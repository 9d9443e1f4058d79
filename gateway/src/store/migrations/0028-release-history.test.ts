/**
 * Migration 0028 (issue 51, ADR 0059) on a store with releases: versions keep their rows (nobody recorded as their
 * publisher), every remote gets the guard's defaults, and a canary running at the upgrade is judged from then on.
 */
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../database.js';
import { migrateToLatest, provider } from '../migrator.js';
import { ReleaseRepository } from '../release.repository.js';
import { releaseFile } from '../../testing/releases.js';

describe('migration 0028 (sqlite)', () => {
  const database = openDatabase({ sqliteFile: ':memory:' });
  afterAll(async () => {
    await database.close();
  });

  it('keeps what was published and starts the guard on a running canary', async () => {
    const all = await provider(database).getMigrations();
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0028'));
    const { error } = await new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve(before) },
      allowUnorderedMigrations: true,
    }).migrateToLatest();
    expect(error).toBeUndefined();
    // A remote with an active version and a canary, as 0019's tables hold them.
    await database.db
      .insertInto('release_versions')
      .values(
        ['1.0.0', '1.1.0'].map((version) => ({
          remote: 'mfe-login',
          version,
          content_hash: version,
          file_count: 0,
          published_at: 0,
        })) as never,
      )
      .execute();
    await database.db
      .insertInto('release_remotes')
      .values({
        remote: 'mfe-login',
        active: '1.0.0',
        previous: '[]',
        canary_version: '1.1.0',
        canary_percent: 10,
      })
      .execute();

    await migrateToLatest(database);
    const releases = new ReleaseRepository(database.db, database.dialect);
    const { registry } = await releases.read();
    const login = registry.remotes['mfe-login']!;
    expect(login.versions['1.0.0']).toMatchObject({
      publishedBy: null,
      activatedAt: null,
      bytesOnWire: 0,
      requires: {},
    });
    expect(login.guard).toEqual({ minPageLoads: 100, minFailureRate: 0.02, ratio: 2 });
    expect(login.canaryStarted?.at).toMatch(/^\d{4}-/);
    expect(login.canaryStarted?.by).toBeNull();
    // The tables work as they now are.
    await releases.publish('mfe-login', '1.2.0', {
      contentHash: 'x',
      files: [releaseFile('remoteEntry.js', '/* 1.2.0 */')],
      publishedAt: 1,
      publishedBy: 'cli:tester',
    });
    expect((await releases.version('mfe-login', '1.2.0'))?.publishedBy).toBe('cli:tester');
  });
});
