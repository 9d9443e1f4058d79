/** Release helpers: publish deliberately broken remote versions through the gateway's releases CLI. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO, runReleases, systemUnderTest } from './system.js';

/**
 * How a published copy of a remote is broken. `incompatible-contracts` and `incompatible-react`: the copy says it was
 * built against shared-contracts 2.x, or React 20 (the versions it provides and the ranges it requires, in its
 * remoteEntry.js and mf-manifest.json, as such a build writes them), so the page's singletons do not satisfy it.
 */
export type Breakage =
  | 'missing-chunks'
  | 'throws-at-import'
  | 'throws-in-render'
  | 'incompatible-contracts'
  | 'incompatible-react';

/** What an incompatible copy rewrites: the shared modules' provided versions and required ranges. */
const INCOMPATIBLE: Record<'incompatible-contracts' | 'incompatible-react', [RegExp, string][]> = {
  'incompatible-contracts': [
    [/(name:"shared-contracts(?:\/\w+)?",version:")1\.0\.0"/g, '$12.0.0"'],
    [/requiredVersion:"\^1\.0\.0"/g, 'requiredVersion:"^2.0.0"'],
    [/("name": "shared-contracts(?:\/\w+)?",\s*"version": ")1\.0\.0"/g, '$12.0.0"'],
    [/"requiredVersion": "\^1\.0\.0"/g, '"requiredVersion": "^2.0.0"'],
  ],
  'incompatible-react': [
    [/(name:"react(?:-dom)?(?:\/[\w-]+)?",version:")19\.\d+\.\d+"/g, '$120.0.0"'],
    [/requiredVersion:"\^19\.\d+\.\d+"/g, 'requiredVersion:"^20.0.0"'],
    [/("name": "react(?:-dom)?(?:\/[\w-]+)?",\s*"version": ")19\.\d+\.\d+"/g, '$120.0.0"'],
    [/"requiredVersion": "\^19\.\d+\.\d+"/g, '"requiredVersion": "^20.0.0"'],
  ],
};

/**
 * The one line `releases publish` refuses an incompatible copy with (issue 51: compatibility is checked at publish,
 * naming what the build requires and what the shell provides).
 */
const REFUSAL: Record<keyof typeof INCOMPATIBLE, RegExp> = {
  'incompatible-contracts':
    /requires shared-contracts \^2\.0\.0; the shell provides shared-contracts 1\.\d+\.\d+/,
  'incompatible-react': /requires react \^20\.0\.0; the shell provides react 19\.\d+\.\d+/,
};

/**
 * Publishes and promotes an incompatible copy as a version that got into the store without the check (published
 * before it existed, or against a shell since replaced) would be there: the releases CLI's plain publish must refuse
 * it with its one line (else this throws), then the copy is published and promoted with `SHELL_DIST` naming no shell
 * build, so nothing is known to check against. The browser's own refusal at load is what the specs then prove.
 */
function publishPastTheCheck(
  remoteId: string,
  copy: string,
  dataDir: string,
  breakage: keyof typeof INCOMPATIBLE,
) {
  let refusal = '';
  try {
    runReleases(['publish', remoteId, copy], dataDir);
  } catch (error) {
    refusal = String(error);
  }
  if (!REFUSAL[breakage].test(refusal))
    throw new Error(
      `releases publish did not refuse the ${breakage} copy with its line:\n${refusal || 'accepted'}`,
    );
  const noShell = { SHELL_DIST: path.join(copy, 'no-shell-build') };
  const output = runReleases(['publish', remoteId, copy], dataDir, noShell);
  const version = new RegExp(`${remoteId} (\\S+)`).exec(output)?.[1];
  if (!version) throw new Error(`could not read the published version from: ${output}`);
  runReleases(['promote', remoteId, version], dataDir, noShell);
  return version;
}

/** Rewrites a copy's entry and federation manifest as a build against other shared versions would have them. */
function makeIncompatible(dir: string, breakage: keyof typeof INCOMPATIBLE): void {
  for (const file of ['remoteEntry.js', 'mf-manifest.json']) {
    const original = readFileSync(path.join(dir, file), 'utf8');
    let changed = original;
    for (const [pattern, replacement] of INCOMPATIBLE[breakage])
      changed = changed.replace(pattern, replacement);
    if (changed === original)
      throw new Error(`${file} of ${dir}: no shared version to rewrite (the build changed shape)`);
    writeFileSync(path.join(dir, file), changed);
    // The precompressed siblings would be served instead of the rewritten file (ADR 0026).
    for (const sibling of [`${file}.br`, `${file}.gz`]) rmSync(path.join(dir, sibling), { force: true });
  }
}

/** What a page of a `throws-in-render` copy throws while rendering. */
export const RENDER_ERROR_MESSAGE = 'deliberately broken page (e2e render)';

/**
 * Makes every page component of a built remote throw while rendering: each chunk's export getter of a
 * `…Page` component (`SelectCustomerPage:()=>l`) returns a component that throws instead. The remote itself
 * loads and starts normally, so only the error boundary can catch it.
 */
function breakPageRendering(dir: string): void {
  let replaced = 0;
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.js') || file === 'remoteEntry.js') continue;
    const source = readFileSync(path.join(dir, file), 'utf8');
    const broken = source.replace(
      /\b([A-Z][A-Za-z0-9]*Page):\(\)=>[A-Za-z_$][\w$]*/g,
      (_match, name: string) => {
        replaced += 1;
        return `${name}:()=>function(){throw new Error(${JSON.stringify(RENDER_ERROR_MESSAGE)})}`;
      },
    );
    if (broken !== source) writeFileSync(path.join(dir, file), broken);
  }
  if (replaced === 0)
    throw new Error(`no page component export found in ${dir}: the build output changed shape`);
}

/**
 * Resolves once the gateway's manifest names `version` for `remoteId` (no canary: every bucket gets it). The CLI
 * writes the registry in the store; the gateway follows it within a second or two (ADR 0033).
 */
export async function servedVersion(remoteId: string, version: string, baseUrl?: string): Promise<void> {
  const url = `${baseUrl ?? systemUnderTest().baseUrl}/remotes/manifest.json`;
  const until = Date.now() + 5000;
  for (;;) {
    // A pooled connection the gateway closed while idle fails once: asked again on the next turn.
    const manifest = (await fetch(url)
      .then((res) => res.json())
      .catch(() => undefined)) as { remotes: Record<string, { version: string }> } | undefined;
    if (manifest?.remotes[remoteId]?.version === version) return;
    if (Date.now() > until) throw new Error(`the gateway did not serve ${remoteId} ${version} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Publishes a broken copy of a remote's build and makes it active (promote); resolves once the gateway serves it.
 * Returns the version; call {@link rollbackRemote} to go back to the good one.
 */
export async function publishBrokenRemote(remoteId: string, breakage: Breakage): Promise<string> {
  const { dataDir } = systemUnderTest();
  const copy = mkdtempSync(path.join(tmpdir(), `${remoteId}-broken-`));
  try {
    cpSync(path.join(REPO, remoteId, 'dist'), copy, { recursive: true });
    const entry = path.join(copy, 'remoteEntry.js');
    if (breakage === 'throws-at-import') {
      writeFileSync(entry, `throw new Error('deliberately broken ${remoteId} (e2e)');\n`);
    } else if (breakage === 'throws-in-render') {
      breakPageRendering(copy);
    } else if (breakage === 'incompatible-contracts' || breakage === 'incompatible-react') {
      makeIncompatible(copy, breakage);
      const version = publishPastTheCheck(remoteId, copy, dataDir, breakage);
      await servedVersion(remoteId, version);
      return version;
    } else {
      // The entry is intact but every chunk it loads is gone (a half-copied release).
      for (const file of readdirSync(copy))
        if (file !== 'remoteEntry.js' && file !== 'mf-manifest.json')
          rmSync(path.join(copy, file), { recursive: true });
    }
    const output = runReleases(['publish', remoteId, copy], dataDir);
    const version = new RegExp(`${remoteId} (\\S+)`).exec(output)?.[1];
    if (!version) throw new Error(`could not read the published version from: ${output}`);
    runReleases(['promote', remoteId, version], dataDir);
    await servedVersion(remoteId, version);
    return version;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Returns a remote to its previously active version; resolves once the gateway serves it. */
export async function rollbackRemote(remoteId: string): Promise<void> {
  const output = runReleases(['rollback', remoteId], systemUnderTest().dataDir);
  const version = / rolled back to (\S+)/.exec(output)?.[1];
  if (!version) throw new Error(`could not read the version rolled back to from: ${output}`);
  await servedVersion(remoteId, version);
}
