import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import semver from 'semver';
import { FEDERATION_MANIFEST_FILE } from 'shared-contracts';

/**
 * The shared packages a remote must get from the shell (ADR 0059): a build requiring another major of one of them
 * cannot run beside the shell (the federation runtime refuses it at load, strictVersion), so publishing, promoting
 * or starting a canary of it is refused with one line.
 */
export const CHECKED_SHARED = ['react', 'react-dom', 'shared-contracts'] as const;

/** The package a share key belongs to: `react/jsx-runtime` → `react`, `@reduxjs/toolkit/query` → `@reduxjs/toolkit`. */
function packageOf(shareKey: string): string {
  const parts = shareKey.split('/');
  return shareKey.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The `shared` entries of a federation manifest (mf-manifest.json of Module Federation 2). */
function sharedOf(manifest: unknown): { name: string; version?: string; requiredVersion?: string }[] {
  const shared = (manifest as { shared?: unknown } | undefined)?.shared;
  if (!Array.isArray(shared)) return [];
  return shared.filter(
    (s): s is { name: string; version?: string; requiredVersion?: string } =>
      typeof s === 'object' && s !== null && typeof (s as { name?: unknown }).name === 'string',
  );
}

/**
 * What a build requires of shared packages, by package: each shared entry's `requiredVersion` in its
 * `mf-manifest.json` (the first entry of a package wins: `react` before `react/jsx-runtime`). Empty without a
 * manifest (a build from before MF 2 requires nothing the store can read).
 */
export function requiresOf(manifestText: string | Buffer | undefined): Record<string, string> {
  if (manifestText === undefined) return {};
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText.toString()) as unknown;
  } catch {
    return {};
  }
  const requires: Record<string, string> = {};
  for (const entry of sharedOf(manifest)) {
    const name = packageOf(entry.name);
    if (typeof entry.requiredVersion === 'string' && entry.requiredVersion && !(name in requires))
      requires[name] = entry.requiredVersion;
  }
  return requires;
}

/**
 * The versions the shell the gateway serves provides of the checked packages: its build's `mf-manifest.json` when
 * it writes one (the `version` of each shared entry), else the versions installed for the shell package the build
 * came from (`<shellDist>/../package.json`: what its federation config provides). Empty when neither is there.
 */
export function shellProvides(shellDist: string): Record<string, string> {
  const provides: Record<string, string> = {};
  for (const entry of sharedOf(readJson(path.join(shellDist, FEDERATION_MANIFEST_FILE)))) {
    const name = packageOf(entry.name);
    if (typeof entry.version === 'string' && !(name in provides)) provides[name] = entry.version;
  }
  const pkgFile = path.join(shellDist, '..', 'package.json');
  if (!existsSync(pkgFile)) return provides;
  const require = createRequire(pkgFile);
  for (const name of CHECKED_SHARED) {
    if (name in provides) continue;
    try {
      const version = (readJson(require.resolve(`${name}/package.json`)) as { version?: unknown })?.version;
      if (typeof version === 'string') provides[name] = version;
    } catch {
      // Not installed beside the shell: nothing known, nothing checked.
    }
  }
  return provides;
}

/**
 * Whether `version` satisfies the npm range `range` (semver's reading, as npm's and the federation runtime's).
 * Undefined for a version or range it cannot read: nothing is refused then (the federation runtime still checks at
 * load).
 */
export function satisfies(version: string, range: string): boolean | undefined {
  const parsed = semver.coerce(version, { includePrerelease: true });
  const valid = semver.validRange(range);
  if (!parsed || valid === null) return undefined;
  return semver.satisfies(parsed, valid, { includePrerelease: true });
}

/**
 * What refuses a build: the shared package, both versions, and the one line, e.g. `mfe-login 0.1.0-1a2b3c4d5e requires react ^20.0.0; the shell provides
 * react 19.3.1`, or undefined when every checked package it requires is one the shell provides in a version its
 * range accepts (or when either side is unknown).
 */
export function incompatibility(
  remote: string,
  version: string,
  requires: Record<string, string>,
  provides: Record<string, string>,
): { line: string; package: string; required: string; provided: string } | undefined {
  for (const name of CHECKED_SHARED) {
    const required = requires[name];
    const provided = provides[name];
    if (required === undefined || provided === undefined) continue;
    if (satisfies(provided, required) === false)
      return {
        line: `${remote} ${version} requires ${name} ${required}; the shell provides ${name} ${provided}`,
        package: name,
        required,
        provided,
      };
  }
  return undefined;
}
