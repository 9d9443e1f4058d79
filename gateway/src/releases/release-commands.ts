import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_IDS, type RemoteId } from 'shared-contracts';
import type {
  RegistryFile,
  ReleaseRepository,
  ReleaseState,
  StoredReleaseFile,
} from '../store/release.repository.js';
import { contentHash, readBuild } from './release-build.js';

/** A user mistake in a release command (unknown remote or version, overwrite attempt...). */
export class ReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReleaseError';
  }
}

/** What a version name may look like: a package version and a content hash, never a path. */
export const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

/** True when `id` is one of the five remotes. */
export function isRemoteId(id: string): id is RemoteId {
  return (REMOTE_IDS as readonly string[]).includes(id);
}

function activated(state: ReleaseState, version: string): ReleaseState {
  if (state.active === version) return state;
  return {
    active: version,
    previous: state.active ? [...state.previous, state.active] : state.previous,
    canary: state.canary?.version === version ? undefined : state.canary,
  };
}

/**
 * The release manager's commands (ARCHITECTURE.md "Releases") over the store: publish a build, promote, canary,
 * rollback. Each is one transaction that raises the registry's revision, so every replica serves it within seconds
 * (ADR 0033).
 */
export class ReleaseCommands {
  constructor(private readonly releases: ReleaseRepository) {}

  /**
   * Stores a built `dist/` as `<package version>-<content hash>`. Publishing the same build again changes nothing;
   * a different build under an existing version is refused (builds are immutable).
   */
  async publish(
    id: string,
    distDir: string,
    options: { activate?: boolean } = {},
  ): Promise<{ version: string; created: boolean }> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}" (one of ${REMOTE_IDS.join(', ')})`);
    if (!existsSync(distDir) || !statSync(distDir).isDirectory())
      throw new ReleaseError(`${distDir} is not a directory; build the remote first`);
    if (!existsSync(path.join(distDir, 'remoteEntry.js')))
      throw new ReleaseError(`${distDir} has no remoteEntry.js; is it a remote's build?`);
    let packageVersion = '0.0.0';
    const pkgFile = path.join(distDir, '..', 'package.json');
    if (existsSync(pkgFile))
      packageVersion =
        (JSON.parse(readFileSync(pkgFile, 'utf8')) as { version?: string }).version ?? packageVersion;
    const hash = contentHash(distDir);
    const version = `${packageVersion}-${hash.slice(0, 10)}`;
    return { version, created: await this.store(id, version, hash, distDir, options.activate ?? false) };
  }

  private async store(
    id: RemoteId,
    version: string,
    hash: string,
    dir: string,
    activate: boolean,
  ): Promise<boolean> {
    const existing = await this.releases.version(id, version);
    if (existing && existing.contentHash !== hash)
      throw new ReleaseError(`${id} ${version} exists with different content; refusing to overwrite`);
    if (existing && !activate) return false;
    const files: StoredReleaseFile[] = existing ? [] : await readBuild(dir);
    return this.releases.publish(
      id,
      version,
      { contentHash: hash, files, publishedAt: Date.now() },
      activate ? (state) => activated(state, version) : undefined,
    );
  }

  private async known(id: string, version: string): Promise<RemoteId> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`);
    if (!VERSION_PATTERN.test(version)) throw new ReleaseError(`"${version}" is not a version`);
    if (!(await this.releases.version(id, version)))
      throw new ReleaseError(`${id} has no published version ${version}`);
    return id;
  }

  /** Makes a published version the one everyone gets. */
  async promote(id: string, version: string): Promise<void> {
    await this.releases.update(await this.known(id, version), (state) => activated(state, version));
  }

  /** Serves `version` to `percent` % of browsers (by bucket cookie); 0 ends the canary. */
  async canary(id: string, version: string, percent: number): Promise<void> {
    if (!Number.isInteger(percent) || percent < 0 || percent > 100)
      throw new ReleaseError('percent must be 0–100');
    await this.releases.update(await this.known(id, version), (state) => ({
      ...state,
      canary: percent === 0 ? undefined : { version, percent },
    }));
  }

  /** Returns to the previously active version and ends any canary; answers that version. */
  async rollback(id: string): Promise<string> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`);
    let back: string | undefined;
    await this.releases.update(id, (state) => {
      back = state.previous.at(-1);
      if (!back) return state;
      return { active: back, previous: state.previous.slice(0, -1), canary: undefined };
    });
    if (!back) throw new ReleaseError(`${id} has no earlier version to roll back to`);
    return back;
  }

  /** The registry as stored. */
  async read(): Promise<RegistryFile> {
    return (await this.releases.read()).registry;
  }

  /**
   * Imports the per-replica release store of an older install (`<dataDir>/releases/registry.json` and its version
   * folders) once: every version whose folder is there, then each remote's active, earlier and canary versions as
   * far as they were imported. The file is renamed `registry.json.imported` afterwards, so it never runs twice.
   * Answers the lines to print (none when there is nothing to import).
   */
  async importLegacy(dataDir: string): Promise<string[]> {
    const root = path.join(dataDir, 'releases');
    const file = path.join(root, 'registry.json');
    if (!existsSync(file)) return [];
    const legacy = JSON.parse(readFileSync(file, 'utf8')) as {
      remotes?: Record<
        string,
        {
          active?: string;
          previous?: string[];
          canary?: { version: string; percent: number };
          versions?: Record<string, unknown>;
        }
      >;
    };
    const lines: string[] = [];
    for (const [id, release] of Object.entries(legacy.remotes ?? {})) {
      if (!isRemoteId(id)) continue;
      const imported = new Set<string>();
      for (const version of Object.keys(release.versions ?? {})) {
        const dir = path.join(root, id, version);
        if (!VERSION_PATTERN.test(version) || !existsSync(path.join(dir, 'remoteEntry.js'))) continue;
        const hash = contentHash(dir);
        const existing = await this.releases.version(id, version);
        if (!existing) await this.store(id, version, hash, dir, false);
        imported.add(version);
      }
      await this.releases.update(id, (state) => {
        // A remote the store already manages keeps its state: the import never undoes a newer command.
        if (state.active) return state;
        const active = release.active && imported.has(release.active) ? release.active : undefined;
        const canary =
          release.canary && imported.has(release.canary.version) && active ? release.canary : undefined;
        return {
          active,
          previous: (release.previous ?? []).filter((v) => imported.has(v)),
          canary,
        };
      });
      lines.push(`${id}: imported ${imported.size} version(s) from ${file}`);
    }
    renameSync(file, `${file}.imported`);
    return lines;
  }
}
