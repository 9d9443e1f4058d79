import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runReleasesCommand } from '../cli/releases.js';
import { createReleaseService } from './release-service.js';
import { openDatabase, type StoreDatabase } from '../store/database.js';
import { ReleaseRepository } from '../store/release.repository.js';
import { createStore } from '../store/store.js';
import { BACKENDS, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { ReleaseRegistry } from './release-registry.js';

const GATEWAY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

/** A remote's build folder: an entry naming `label`, a chunk, an MF2 manifest, and a large script. */
function build(root: string, label: string): string {
  const dist = path.join(root, `build-${label}`, 'dist');
  mkdirSync(path.join(dist, 'chunks'), { recursive: true });
  writeFileSync(path.join(dist, '..', 'package.json'), JSON.stringify({ version: '2.0.0' }));
  writeFileSync(path.join(dist, 'remoteEntry.js'), `/* entry ${label} */`);
  writeFileSync(path.join(dist, 'mf-manifest.json'), JSON.stringify({ name: label }));
  writeFileSync(path.join(dist, 'chunks', 'page.js'), `/* ${label} */ ${'console.log("x");'.repeat(200)}`);
  return dist;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const versionOf = async (app: Express, remote: string, bucket = 50): Promise<string | undefined> =>
  (
    (await request(app).get('/remotes/manifest.json').set('Cookie', `idp.bucket=${bucket}`)).body as {
      remotes: Record<string, { version: string }>;
    }
  ).remotes[remote]?.version;

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `releases in the store, served by every replica (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      /** The second replica's own connection to the same database, and its own view of the registry. */
      let other: { database: StoreDatabase; registry: ReleaseRegistry; app: Express };
      const cli = async (args: string[]) => {
        const out: string[] = [];
        await runReleasesCommand(args, createReleaseService(gw.store, gw.config.shellDist), (l) =>
          out.push(l),
        );
        return out.join('\n');
      };

      /** A second app (another replica) over its own connection to the database of `gw`. */
      async function replica(repository?: (releases: ReleaseRepository) => ReleaseRepository) {
        const database =
          backend.name === 'sqlite'
            ? openDatabase({ sqliteFile: path.join(gw.dataDir, 'identity.db') })
            : openDatabase({
                databaseUrl: process.env.TEST_DATABASE_URL,
                pgSchema: gw.store.database.schema!,
              });
        const store = createStore(database, gw.config.dataEncryptionKey);
        const releases = repository ? repository(store.releases) : store.releases;
        // On PostgreSQL the poll is an hour away: only the notification can bring a change within the test.
        const registry = new ReleaseRegistry(releases, {
          pollMs: backend.name === 'sqlite' ? 1000 : 3_600_000,
          listen:
            backend.name === 'sqlite' ? undefined : { connectionString: process.env.TEST_DATABASE_URL! },
        });
        await registry.start();
        return { database, registry, app: gw.appWith({ store, releases: registry }) };
      }

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        other = await replica();
      });
      afterAll(async () => {
        await other?.registry.close();
        await other?.database.close();
        await gw?.close();
      });

      it('a version published and promoted through one replica is served by the other within 3 s', async () => {
        const v1 = /mfe-login (\S+) published/.exec(
          await cli(['publish', 'mfe-login', build(gw.dataDir, 'one')]),
        )![1]!;
        await cli(['promote', 'mfe-login', v1]);
        const started = Date.now();
        expect(
          await waitFor(
            () => versionOf(other.app, 'mfe-login'),
            (v) => v === v1,
            3000,
          ),
        ).toBe(v1);
        expect(Date.now() - started).toBeLessThan(3000);

        // Every file of the dist folder, whatever its name, in its type and the encodings the store holds.
        const entry = await request(other.app).get(`/remotes/mfe-login/${v1}/remoteEntry.js`).expect(200);
        expect(entry.text).toBe('/* entry one */');
        expect(entry.headers['content-type']).toMatch(/^text\/javascript/);
        expect(entry.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const manifest = await request(other.app)
          .get(`/remotes/mfe-login/${v1}/mf-manifest.json`)
          .expect(200);
        expect(manifest.body).toEqual({ name: 'one' });
        const chunk = await request(other.app)
          .get(`/remotes/mfe-login/${v1}/chunks/page.js`)
          .set('Accept-Encoding', 'br')
          .expect(200);
        // Sent as the store's brotli bytes (supertest decodes them on the way in).
        expect(chunk.headers['content-encoding']).toBe('br');
        expect(chunk.text).toMatch(/^\/\* one \*\//);
        const etag = chunk.headers['etag'] as string;
        await request(other.app)
          .get(`/remotes/mfe-login/${v1}/chunks/page.js`)
          .set('Accept-Encoding', 'br')
          .set('If-None-Match', etag)
          .expect(304);

        // Then a promote and a rollback made on the first replica: the second follows each.
        const v2 = /mfe-login (\S+) published/.exec(
          await cli(['publish', 'mfe-login', build(gw.dataDir, 'two')]),
        )![1]!;
        await cli(['promote', 'mfe-login', v2]);
        expect(
          await waitFor(
            () => versionOf(other.app, 'mfe-login'),
            (v) => v === v2,
            3000,
          ),
        ).toBe(v2);
        await cli(['rollback', 'mfe-login']);
        expect(
          await waitFor(
            () => versionOf(other.app, 'mfe-login'),
            (v) => v === v1,
            3000,
          ),
        ).toBe(v1);
        // A page that loaded the other version still gets its chunks (loaded from the store when asked).
        expect(
          (await request(other.app).get(`/remotes/mfe-login/${v2}/remoteEntry.js`).expect(200)).text,
        ).toBe('/* entry two */');
      });

      it('a browser gets the same versions from either replica: the bucket is its cookie, not the replica', async () => {
        const canary = /mfe-login (\S+) published/.exec(
          await cli(['publish', 'mfe-login', build(gw.dataDir, 'canary')]),
        )![1]!;
        await cli(['canary', 'mfe-login', canary, '30']);
        await gw.releases.refresh();
        await waitFor(
          () => versionOf(other.app, 'mfe-login', 0),
          (v) => v === canary,
          3000,
        );
        for (let bucket = 0; bucket < 100; bucket += 1) {
          const [a, b] = [
            await versionOf(gw.app, 'mfe-login', bucket),
            await versionOf(other.app, 'mfe-login', bucket),
          ];
          expect(a, `bucket ${bucket}`).toBe(b);
          expect(a === canary, `bucket ${bucket}`).toBe(bucket < 30);
        }
        // A browser without a bucket gets one, and keeps the versions it chose on the other replica.
        const first = await request(gw.app).get('/remotes/manifest.json');
        const cookie = (first.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
        const again = await request(other.app).get('/remotes/manifest.json').set('Cookie', cookie);
        expect(again.headers['set-cookie']).toBeUndefined();
        expect(again.body).toEqual(first.body);
        await cli(['canary', 'mfe-login', canary, '0']);
      });
    },
  );
}

describe('a replica announces a version only once it holds every file of it', () => {
  let gw: TestGateway;
  let registry: ReleaseRegistry | undefined;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterEach(async () => {
    await registry?.close();
  });
  afterAll(async () => {
    await gw?.close();
  });
  const cli = async (args: string[]) => {
    const out: string[] = [];
    await runReleasesCommand(args, createReleaseService(gw.store, gw.config.shellDist), (l) => out.push(l));
    return /mfe-tenant (\S+)/.exec(out.join('\n'))?.[1] ?? '';
  };

  it('keeps serving the earlier version while the new one loads, and switches when it is whole', async () => {
    const v1 = await cli(['publish', 'mfe-tenant', build(gw.dataDir, 'tenant-one')]);
    await cli(['promote', 'mfe-tenant', v1]);
    const v2 = await cli(['publish', 'mfe-tenant', build(gw.dataDir, 'tenant-two')]);
    // This replica's files of v2 arrive only when the test lets them (a slow store, a large build).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const repository = Object.create(gw.store.releases) as ReleaseRepository;
    repository.files = async (remote, version) => {
      if (version === v2) await gate;
      return gw.store.releases.files(remote, version);
    };
    registry = new ReleaseRegistry(repository, { pollMs: 50 });
    await registry.start();
    const app = gw.appWith({ releases: registry });
    expect(await versionOf(app, 'mfe-tenant')).toBe(v1);

    await cli(['promote', 'mfe-tenant', v2]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The promote is in the store, but not one file of v2 is here: the manifest still names v1.
    expect(await versionOf(app, 'mfe-tenant')).toBe(v1);
    release();
    expect(
      await waitFor(
        () => versionOf(app, 'mfe-tenant'),
        (v) => v === v2,
        3000,
      ),
    ).toBe(v2);
    await request(app).get(`/remotes/mfe-tenant/${v2}/chunks/page.js`).expect(200);
  });

  it('never announces a version whose stored files are not whole (missing or altered)', async () => {
    const good = await cli(['publish', 'mfe-tenant', build(gw.dataDir, 'tenant-good')]);
    await cli(['promote', 'mfe-tenant', good]);
    registry = new ReleaseRegistry(gw.store.releases, { pollMs: 50 });
    await registry.start();
    const app = gw.appWith({ releases: registry });
    expect(await versionOf(app, 'mfe-tenant')).toBe(good);

    const altered = await cli(['publish', 'mfe-tenant', build(gw.dataDir, 'tenant-altered')]);
    await gw.store.database.db
      .updateTable('release_files')
      .set({ body: Buffer.from('/* not what was published */') })
      .where('version', '=', altered)
      .where('path', '=', 'remoteEntry.js')
      .execute();
    await cli(['promote', 'mfe-tenant', altered]);
    await registry.refresh();
    expect(await versionOf(app, 'mfe-tenant')).toBe(good);
    await request(app).get(`/remotes/mfe-tenant/${good}/remoteEntry.js`).expect(200);

    const missing = await cli(['publish', 'mfe-tenant', build(gw.dataDir, 'tenant-missing')]);
    await gw.store.database.db
      .deleteFrom('release_files')
      .where('version', '=', missing)
      .where('path', '=', 'chunks/page.js')
      .execute();
    await cli(['promote', 'mfe-tenant', missing]);
    await registry.refresh();
    expect(await versionOf(app, 'mfe-tenant')).toBe(good);
  });
});

describe('the releases CLI as a process', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });
  const releasesCli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/cli/releases.ts', ...args], {
      cwd: GATEWAY,
      env: { ...process.env, DATA_DIR: gw.dataDir, DATABASE_URL: '' },
    });

  it('imports an older DATA_DIR/releases once, then publishes, promotes and lists; the running app serves it', async () => {
    // What an install from before ADR 0033 left: a registry file and a version folder beside it.
    const legacy = path.join(gw.dataDir, 'releases');
    const oldVersion = '1.0.0-0123456789';
    cpSync(build(gw.dataDir, 'legacy'), path.join(legacy, 'mfe-devices', oldVersion), { recursive: true });
    writeFileSync(
      path.join(legacy, 'registry.json'),
      JSON.stringify({
        remotes: {
          'mfe-devices': {
            active: oldVersion,
            previous: [],
            versions: { [oldVersion]: { publishedAt: '2026-01-01T00:00:00.000Z', contentHash: 'x' } },
          },
        },
      }),
    );
    const listed = await releasesCli(['list']);
    expect(listed.stdout).toContain('mfe-devices: imported 1 version(s)');
    expect(listed.stdout).toContain(`mfe-devices: active ${oldVersion}`);
    expect(existsSync(path.join(legacy, 'registry.json'))).toBe(false);
    expect(
      await waitFor(
        () => versionOf(gw.app, 'mfe-devices'),
        (v) => v === oldVersion,
        3000,
      ),
    ).toBe(oldVersion);

    const published = await releasesCli(['publish', 'mfe-devices', build(gw.dataDir, 'cli')]);
    const version = /mfe-devices (\S+) published/.exec(published.stdout)![1]!;
    await releasesCli(['promote', 'mfe-devices', version]);
    expect(
      await waitFor(
        () => versionOf(gw.app, 'mfe-devices'),
        (v) => v === version,
        3000,
      ),
    ).toBe(version);
    expect((await releasesCli(['list'])).stdout).not.toContain('imported');

    const refused = await releasesCli(['promote', 'mfe-devices', '9.9.9-nope']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: .*no published version/),
    });
  });
});
