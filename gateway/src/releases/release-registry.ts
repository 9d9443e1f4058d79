import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { REMOTE_IDS, type RemoteId, type RemotesManifest } from 'shared-contracts';

/** A remote's release state: which version everyone gets, and an optional canary. */
export interface RemoteRelease {
  active: string | undefined;
  /** Earlier active versions, newest last; `rollback` returns to the last one. */
  previous: string[];
  canary: { version: string; percent: number } | undefined;
  versions: Record<string, { publishedAt: string; contentHash: string }>;
}

/** The registry file `<DATA_DIR>/releases/registry.json`. */
export interface RegistryFile {
  remotes: Partial<Record<RemoteId, RemoteRelease>>;
}

/** A user mistake in a release command (unknown remote or version, overwrite attempt...). */
export class ReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReleaseError';
  }
}

const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

/** True when `id` is one of the five remotes. */
export function isRemoteId(id: string): id is RemoteId {
  return (REMOTE_IDS as readonly string[]).includes(id);
}

/**
 * True when `version` is a published version of remote `id`: a version folder the registry lists, never a staging
 * folder (`<version>.tmp-<pid>`) or anything else under the remote's folder.
 */
export function isServableVersion(registry: ReleaseRegistry, id: RemoteId, version: string): boolean {
  if (!VERSION_PATTERN.test(version) || version.includes('.tmp')) return false;
  return Object.hasOwn(registry.read().remotes[id]?.versions ?? {}, version);
}

function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, base));
    else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** SHA-256 over every file's relative path and bytes: the identity of a build. */
export function contentHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of listFiles(dir)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(dir, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/**
 * Release store of the remotes (ARCHITECTURE.md "Releases"): immutable builds under
 * `<DATA_DIR>/releases/<remote-id>/<version>/` and a registry of the active and canary versions. The file is
 * re-read when it changes, so CLI commands take effect without a restart.
 */
export class ReleaseRegistry {
  readonly root: string;
  private readonly file: string;
  private cached: { mtimeMs: number; data: RegistryFile } | undefined;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'releases');
    this.file = path.join(this.root, 'registry.json');
  }

  read(): RegistryFile {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.file).mtimeMs;
    } catch {
      return { remotes: {} };
    }
    if (this.cached?.mtimeMs === mtimeMs) return this.cached.data;
    const data = JSON.parse(readFileSync(this.file, 'utf8')) as RegistryFile;
    this.cached = { mtimeMs, data };
    return data;
  }

  private write(data: RegistryFile): void {
    mkdirSync(this.root, { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`);
    renameSync(tmp, this.file);
    this.cached = undefined;
  }

  private release(data: RegistryFile, id: RemoteId): RemoteRelease {
    return (data.remotes[id] ??= { active: undefined, previous: [], canary: undefined, versions: {} });
  }

  versionDir(id: RemoteId, version: string): string {
    return path.join(this.root, id, version);
  }

  /**
   * Copies a built `dist/` into the store as `<package version>-<content hash>`. Publishing the same build again
   * changes nothing; a different build under an existing version is refused (builds are immutable).
   */
  publish(
    id: string,
    distDir: string,
    options: { activate?: boolean } = {},
  ): { version: string; created: boolean } {
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
    const target = this.versionDir(id, version);
    let created = false;
    if (existsSync(target)) {
      if (contentHash(target) !== hash)
        throw new ReleaseError(`${id} ${version} exists with different content; refusing to overwrite`);
    } else {
      const tmp = `${target}.tmp-${process.pid}`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(distDir, tmp, { recursive: true });
      renameSync(tmp, target);
      created = true;
    }
    const data = this.read();
    const release = this.release(data, id);
    release.versions[version] ??= { publishedAt: new Date().toISOString(), contentHash: hash };
    if (options.activate) this.activate(release, version);
    this.write(data);
    return { version, created };
  }

  private activate(release: RemoteRelease, version: string): void {
    if (release.active === version) return;
    if (release.active) release.previous.push(release.active);
    release.active = version;
    if (release.canary?.version === version) release.canary = undefined;
  }

  private known(id: string, version: string): { data: RegistryFile; release: RemoteRelease; id: RemoteId } {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`);
    if (!VERSION_PATTERN.test(version)) throw new ReleaseError(`"${version}" is not a version`);
    const data = this.read();
    const release = this.release(data, id);
    if (!release.versions[version]) throw new ReleaseError(`${id} has no published version ${version}`);
    return { data, release, id };
  }

  /** Makes a published version the one everyone gets. */
  promote(id: string, version: string): void {
    const { data, release } = this.known(id, version);
    this.activate(release, version);
    this.write(data);
  }

  /** Serves `version` to `percent` % of browsers (by bucket cookie); 0 ends the canary. */
  canary(id: string, version: string, percent: number): void {
    if (!Number.isInteger(percent) || percent < 0 || percent > 100)
      throw new ReleaseError('percent must be 0–100');
    const { data, release } = this.known(id, version);
    release.canary = percent === 0 ? undefined : { version, percent };
    this.write(data);
  }

  /** Returns to the previously active version and ends any canary. */
  rollback(id: string): string {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`);
    const data = this.read();
    const release = this.release(data, id);
    const previous = release.previous.pop();
    if (!previous) throw new ReleaseError(`${id} has no earlier version to roll back to`);
    release.active = previous;
    release.canary = undefined;
    this.write(data);
    return previous;
  }

  /** The manifest one browser gets: canary when its bucket (0–99) is below the canary's percent. */
  manifest(bucket: number): RemotesManifest {
    const remotes: RemotesManifest['remotes'] = {};
    for (const id of REMOTE_IDS) {
      const release = this.read().remotes[id];
      if (!release?.active) continue;
      const version =
        release.canary && bucket < release.canary.percent ? release.canary.version : release.active;
      remotes[id] = { entry: `/remotes/${id}/${version}/remoteEntry.js`, version };
    }
    return { remotes };
  }
}
