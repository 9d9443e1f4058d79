// Where the sign-in page's JavaScript bytes go, per library: each script the page fetched (Chromium's network log)
// is found again in a build of its package made with hidden source maps (lib/build-with-maps.mjs, same config, same
// chunk names), every minified byte is attributed through the map to the package or folder it came from, and the
// script's bytes on the wire are split in those proportions: its precompressed body (the `.br` sibling in dist/, as
// served) by library, the rest of its wire bytes as "HTTP headers". An approximation: brotli packs some code tighter
// than other code, and module wrappers without a mapping show as "unmapped".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const BUILD_WITH_MAPS = fileURLToPath(new URL('./build-with-maps.mjs', import.meta.url));

/** Packages reported as one row: what a reader would call one library. */
const LIBRARY_OF = [
  [/^@module-federation\//, 'Module Federation 2 runtime (@module-federation/*)'],
  [/^(?:react-dom|scheduler)$/, 'react-dom (with scheduler)'],
  [/^(?:react|use-sync-external-store)$/, 'react'],
  [/^(?:@reduxjs\/toolkit|immer|reselect|redux)$/, 'Redux Toolkit with RTK Query (immer, reselect, redux)'],
  [/^i18next$/, 'i18next'],
  [/^react-i18next$/, 'react-i18next'],
  // Only with react-i18next's `Trans`, which the shared react-i18next leaves out (issue 54): a row if it comes back.
  [/^(?:html-parse-stringify|void-elements)$/, "html-parse-stringify (react-i18next's Trans)"],
];

/**
 * The row a source file of a bundle belongs to: a library by its package, shared-contracts by entry point, the
 * bundler's own runtime, or the building package's own code.
 * @param {string} source a source map's source (`webpack://<name>/./src/x.tsx`, `…/node_modules/react/…`)
 * @param {string} pkg the package the bundle was built from
 */
export function libraryOf(source, pkg) {
  const s = source.replace(/^webpack:\/\/[^/]*\//, '');
  const module = s.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  if (module) return LIBRARY_OF.find(([test]) => test.test(module))?.[1] ?? module;
  if (/^webpack\/runtime\//.test(s) || s.startsWith('webpack/')) return 'bundler runtime (rspack)';
  const contracts = s.match(/shared-contracts\/(?:dist|src)\/(api|ui|account-ui|console|locales)\//)?.[1];
  if (contracts) return `shared-contracts/${contracts === 'locales' ? '(root)' : contracts}`;
  if (/shared-contracts\/(?:dist|src|build)\//.test(s)) return 'shared-contracts/(root)';
  return `${pkg} (own code)`;
}

/**
 * Raw bytes of a minified file by row, from its source map.
 * @returns {Map<string, number>}
 */
export function attributeFile(code, map, pkg) {
  const { SourceMapConsumer } = require('source-map-js');
  const lines = code.split('\n');
  const mappings = [];
  new SourceMapConsumer(map).eachMapping((m) => mappings.push(m));
  mappings.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
  const bytes = new Map();
  let counted = 0;
  mappings.forEach((m, i) => {
    const next = mappings[i + 1];
    const end =
      next && next.generatedLine === m.generatedLine
        ? next.generatedColumn
        : lines[m.generatedLine - 1].length;
    const length = Math.max(0, end - m.generatedColumn);
    const row = m.source ? libraryOf(m.source, pkg) : 'unmapped (module wrappers)';
    bytes.set(row, (bytes.get(row) ?? 0) + length);
    counted += length;
  });
  if (code.length > counted)
    bytes.set(
      'unmapped (module wrappers)',
      (bytes.get('unmapped (module wrappers)') ?? 0) + code.length - counted,
    );
  return bytes;
}

/** A script's name without its content hash: `main.3f9a….js` → `main`, `remoteEntry.js` → `remoteEntry`. */
export function chunkKey(file) {
  return path.basename(file).replace(/(?:\.[0-9a-f]{8,})?\.js$/, '');
}

function jsFiles(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) return jsFiles(dir, rel);
    return e.name.endsWith('.js') ? [rel] : [];
  });
}

/** Which package's dist a fetched script comes from: the shell's `/assets/…`, a remote's `/remotes/<id>/<v>/…`. */
function packageOf(url) {
  const remote = new URL(url, 'http://x').pathname.match(/^\/remotes\/([^/]+)\/[^/]+\/(.+)$/);
  if (remote) return { pkg: remote[1], file: remote[2] };
  return { pkg: 'shell', file: new URL(url, 'http://x').pathname.replace(/^\//, '') };
}

/**
 * The sign-in page's script bytes by library.
 * @param {string} repo repository root
 * @param {{url: string, type: string, bytes: number}[]} fetched the page's network log (page-weight.mjs `files`)
 * @returns {{rows: {library: string, kib: number}[], totalKiB: number, unmatched: string[]}}
 */
export function librarySharesOf(repo, fetched) {
  const scripts = fetched.filter((f) => f.type === 'Script');
  const pkgs = [...new Set(scripts.map((s) => packageOf(s.url).pkg))];
  const work = mkdtempSync(path.join(tmpdir(), 'bench-bytes-share-'));
  const totals = new Map();
  const unmatched = [];
  const add = (row, bytes) => totals.set(row, (totals.get(row) ?? 0) + bytes);
  try {
    const builds = new Map();
    for (const pkg of pkgs) {
      const out = path.join(work, pkg);
      execFileSync(process.execPath, [BUILD_WITH_MAPS, out], { cwd: path.join(repo, pkg), stdio: 'pipe' });
      builds.set(pkg, { out, files: jsFiles(out) });
    }
    for (const script of scripts) {
      const { pkg, file } = packageOf(script.url);
      const build = builds.get(pkg);
      const twin = build?.files.find(
        (f) => chunkKey(f) === chunkKey(file) && existsSync(path.join(build.out, `${f}.map`)),
      );
      if (!twin) {
        unmatched.push(script.url);
        add('unattributed (no twin in the mapped build)', script.bytes);
        continue;
      }
      const served = path.join(repo, pkg, 'dist', file);
      const body = existsSync(`${served}.br`)
        ? statSync(`${served}.br`).size
        : existsSync(served)
          ? statSync(served).size
          : script.bytes;
      const share = attributeFile(
        readFileSync(path.join(build.out, twin), 'utf8'),
        JSON.parse(readFileSync(path.join(build.out, `${twin}.map`), 'utf8')),
        pkg,
      );
      const raw = [...share.values()].reduce((a, b) => a + b, 0);
      const bodyOnWire = Math.min(body, script.bytes);
      for (const [row, n] of share) add(row, (n / raw) * bodyOnWire);
      add('HTTP headers of the scripts', script.bytes - bodyOnWire);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const rows = [...totals]
    .map(([library, bytes]) => ({ library, kib: bytes / 1024 }))
    .sort((a, b) => b.kib - a.kib);
  return { rows, totalKiB: rows.reduce((a, r) => a + r.kib, 0), unmatched };
}
