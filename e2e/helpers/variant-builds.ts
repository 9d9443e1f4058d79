/**
 * Real builds of mfe-login other than the one `npm run build` made, for the canary proofs (console-releases,
 * console-guard, the scale suite): rspack with `--env e2eVariant=<variant>` (mfe-login/rspack.config.mjs):
 * - `new`: the same code with other content hashes in its file names, so another release version, healthy;
 * - `broken`: the remote loads and starts, but every page throws while rendering.
 * Each variant is built once (≈ 1–20 s) into a cache folder named after what it is built from (mfe-login's built
 * dist, its rspack config and routes), so a run builds it at most once whichever worker asks first, and the next run
 * reuses it as long as mfe-login is unchanged. The first paint (rendered from the page components, which the variant
 * flag does not touch) is taken from mfe-login's dist; the precompressed siblings are written as the build does.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GATEWAY_DIST, REPO, runReleases, systemUnderTest } from './system.js';

/** A build variant of mfe-login (see the file's comment). */
export type MfeLoginVariant = 'new' | 'broken';

const MFE_LOGIN = path.join(REPO, 'mfe-login');
/** One cache per checkout (several may run suites side by side on one machine). */
const CACHE = path.join(
  tmpdir(),
  'hr-identity-e2e-variants',
  createHash('sha256').update(REPO).digest('hex').slice(0, 12),
);
/** A lock older than this belongs to a run that died while building: taken over. */
const STALE_LOCK_MS = 5 * 60_000;

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(full, base);
      return entry.isFile() ? [path.relative(base, full)] : [];
    })
    .sort();
}

/** What a variant is built from: mfe-login's build output (its sources' identity), its config and its routes. */
function sourceKey(): string {
  const dist = path.join(MFE_LOGIN, 'dist');
  if (!existsSync(path.join(dist, 'remoteEntry.js')))
    throw new Error(`${dist} is missing: build first (npm run build)`);
  // The cache's layout (`<variant>/dist` and `<variant>/package.json`), so a change of it is a new key.
  const hash = createHash('sha256').update('layout 2\0');
  for (const file of filesUnder(dist))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(dist, file)));
  for (const file of ['rspack.config.mjs', 'src/routes.tsx'])
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(MFE_LOGIN, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Runs node with `args` in `cwd`; rejects with its output when it fails. */
function run(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

/**
 * Builds `variant` into `<folder>/dist`: rspack with the flag, the first paint of the dist, the precompressed
 * siblings; and mfe-login's package.json beside it, where the releases CLI reads the version's package version.
 */
async function build(variant: MfeLoginVariant, folder: string): Promise<void> {
  const out = path.join(folder, 'dist');
  mkdirSync(folder, { recursive: true });
  cpSync(path.join(MFE_LOGIN, 'package.json'), path.join(folder, 'package.json'));
  const rspack = path.join(REPO, 'node_modules', '@rspack', 'cli', 'bin', 'rspack.js');
  await run(
    [
      rspack,
      'build',
      '--config',
      'rspack.config.mjs',
      '--env',
      `e2eVariant=${variant}`,
      '--output-path',
      out,
    ],
    MFE_LOGIN,
  );
  cpSync(path.join(MFE_LOGIN, 'dist', 'first-paint'), path.join(out, 'first-paint'), { recursive: true });
  await run([path.join(REPO, 'shared-contracts', 'build', 'precompress.mjs'), out], MFE_LOGIN);
}

/** The builds being made by this process, so two specs of one worker never build the same variant twice. */
const building = new Map<string, Promise<string>>();

/**
 * The dist folder of mfe-login's `variant` build, built now unless this mfe-login's was built before (by this run, another
 * worker or an earlier run). Workers building at the same moment take turns (a lock folder beside the build).
 */
export async function variantBuild(variant: MfeLoginVariant): Promise<string> {
  const key = sourceKey();
  const dir = path.join(CACHE, key, variant);
  const pending = building.get(dir) ?? buildOnce(variant, key, dir);
  building.set(dir, pending);
  return path.join(await pending, 'dist');
}

async function buildOnce(variant: MfeLoginVariant, key: string, dir: string): Promise<string> {
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    if (existsSync(dir)) return dir;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds it: wait for its result, or take over a lock its dead owner left.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (existsSync(dir)) return dir;
    // Builds of an earlier mfe-login are of no use any more.
    for (const other of readdirSync(CACHE))
      if (other !== key) rmSync(path.join(CACHE, other), { recursive: true, force: true });
    const partial = `${dir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    await build(variant, partial);
    renameSync(partial, dir);
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Publishes mfe-login's `variant` build with the releases CLI, without activating it, into this worker's system, or
 * the store of `dataDir`, or of a gateway's environment (`env`: a replica's DATABASE_URL and DATA_DIR); returns its
 * version. Publishing it again answers the same version.
 */
export async function publishVariant(
  variant: MfeLoginVariant,
  target: { dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const dir = await variantBuild(variant);
  const output = target.env
    ? releasesWithEnv(['publish', 'mfe-login', dir], target.env)
    : runReleases(['publish', 'mfe-login', dir], target.dataDir ?? systemUnderTest().dataDir);
  const version = /mfe-login (\S+)/.exec(output)?.[1];
  if (!version) throw new Error(`could not read the published version from: ${output}`);
  return version;
}

/** Runs the releases CLI with a gateway's whole environment (its store may be PostgreSQL). */
function releasesWithEnv(args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, [path.join(GATEWAY_DIST, 'cli', 'releases.js'), ...args], {
    env,
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`releases ${args.join(' ')} failed (${String(result.status)}):\n${output}`);
  return output;
}
