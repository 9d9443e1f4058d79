import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

type Triple = [number, number, number];

function triple(text: string): Triple | undefined {
  const match = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$/.exec(text.trim());
  if (!match) return undefined;
  const part = (p: string | undefined) => (p === undefined || /[xX*]/.test(p) ? 0 : Number(p));
  return [Number(match[1]), part(match[2]), part(match[3])];
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator of a range (`^19.3.1`, `~1.2.0`, `>=19`, `<21`, `19.3.1`, `19.x`, `*`) against a version. */
function meets(version: Triple, comparator: string): boolean | undefined {
  if (comparator === '' || comparator === '*' || /^[xX]$/.test(comparator)) return true;
  const match = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  const bound = match && triple(match[2]!);
  if (!match || !bound) return undefined;
  const op = match[1] ?? '';
  const wildcardMinor = /^v?\d+(?:\.[xX*])?$/.test(match[2]!.trim());
  const c = compare(version, bound);
  switch (op) {
    case '^':
      if (c < 0) return false;
      if (bound[0] > 0 || wildcardMinor) return version[0] === bound[0];
      return version[0] === 0 && version[1] === bound[1];
    case '~':
      return c >= 0 && version[0] === bound[0] && (wildcardMinor || version[1] === bound[1]);
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    default:
      // `19` or `19.x`: that major; `19.3.1`: exactly.
      return wildcardMinor ? version[0] === bound[0] : c === 0;
  }
}

/**
 * Whether `version` satisfies the npm range `range` (the forms builds write: `^`, `~`, comparisons, exact, `x`,
 * `||` alternatives, space-joined comparators). Undefined for a range it cannot read (then nothing is refused: the
 * federation runtime still checks at load).
 */
export function satisfies(version: string, range: string): boolean | undefined {
  const v = triple(version);
  if (!v) return undefined;
  let unreadable = false;
  for (const alternative of range.split('||')) {
    const comparators = alternative.trim().split(/\s+/).filter(Boolean);
    const results = comparators.map((c) => meets(v, c));
    if (results.some((r) => r === undefined)) {
      unreadable = true;
      continue;
    }
    if (results.every((r) => r === true)) return true;
  }
  return unreadable ? undefined : false;
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
