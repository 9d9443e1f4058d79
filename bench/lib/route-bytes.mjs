// What /account/login needs, read from the build output alone (deterministic: no browser, no server), for the
// byte budget test. rspack/webpack write the chunk graph into the bundles: `__webpack_require__.e("<id>")` loads a
// chunk, the runtime's `.u` (JS) and `.k` (CSS) functions map ids to file names through {id: "contenthash"} maps.
// Ids without a file are the federation's share-consume stubs (react & co. come from the shell's scope).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** All files under `dir`, relative, with forward slashes. */
function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** The chunk ids a piece of bundle code loads (`x.e("id")` or `x.e(id)`). */
export function chunkIdsIn(code) {
  return [...code.matchAll(/\b[\w$]+\.e\(\s*"?([\w-]+)"?\s*\)/g)].map((m) => m[1]);
}

/** The object literal {id: "hex"} that follows `.<fn>=` in a webpack runtime (the filename function's hash map). */
function hashMapOf(runtime, fn) {
  const at = runtime.search(new RegExp(`\\.${fn}=\\s*(?:function\\s*\\(\\s*[\\w$]+\\s*\\)|[\\w$]+\\s*=>)`));
  if (at < 0) return undefined;
  const body = runtime.slice(at, at + 20_000);
  const end = body.search(/\.(?:js|css)"/);
  const head = end > 0 ? body.slice(0, end) : body.slice(0, 4000);
  const map = new Map();
  for (const m of head.matchAll(/(?:"([^"]+)"|([\w$]+)):"([0-9a-f]{8,})"/g)) map.set(m[1] ?? m[2], m[3]);
  return map;
}

/**
 * Maps chunk ids to their JS and CSS files in a dist folder, from the runtime found in `runtimeFile`.
 * @returns {(id: string) => string[]} files (relative to dist) of that chunk, none for a share-consume stub
 */
export function chunkFiles(dist, runtimeFile) {
  const runtime = readFileSync(path.join(dist, runtimeFile), 'utf8');
  const files = listFiles(dist);
  const jsHashes = hashMapOf(runtime, 'u') ?? new Map();
  const cssHashes = hashMapOf(runtime, 'k') ?? new Map();
  return (id) => {
    const out = [];
    const js = jsHashes.get(id);
    if (js) out.push(...files.filter((f) => f.endsWith('.js') && f.includes(`.${js}.`)));
    const css = cssHashes.get(id);
    if (css) out.push(...files.filter((f) => f.endsWith('.css') && f.includes(`.${css}.`)));
    else out.push(...files.filter((f) => f.endsWith('.css') && path.basename(f).split('.')[0] === id));
    return out;
  };
}

/** Text after `marker` up to the first `.then(`: the chunk loads of one import() expression. */
function importSegment(code, marker) {
  const at = code.indexOf(marker);
  if (at < 0) return undefined;
  const rest = code.slice(at + marker.length, at + marker.length + 4000);
  const end = rest.indexOf('.then(');
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * mfe-login's files for /account/login: remoteEntry.js, the chunks of the exposed `./remote`, the chunks of the
 * `/account/login` route's lazy page and the en-GB locale chunk.
 */
export function remoteRouteFiles(dist, route, { exposed = './remote', locale = 'en-GB' } = {}) {
  const entry = 'remoteEntry.js';
  const entryCode = readFileSync(path.join(dist, entry), 'utf8');
  const filesOf = chunkFiles(dist, entry);
  const exposedSeg = importSegment(entryCode, `"${exposed}":`);
  if (!exposedSeg) throw new Error(`${dist}/${entry}: exposed module ${exposed} not found`);
  const remoteFiles = chunkIdsIn(exposedSeg).flatMap(filesOf);
  const remoteCode = remoteFiles
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(dist, f), 'utf8'))
    .join('\n');
  const routeSeg =
    importSegment(remoteCode, `"${route}",lazy:`) ?? importSegment(remoteCode, `path:"${route}",lazy:`);
  if (!routeSeg) throw new Error(`${dist}: no lazy route ${route} in the exposed module's chunks`);
  const localeSeg = importSegment(remoteCode, `"${locale}":`);
  const pageFiles = chunkIdsIn(routeSeg).flatMap(filesOf);
  const localeFiles = localeSeg ? chunkIdsIn(localeSeg).flatMap(filesOf) : [];
  return unique([entry, ...remoteFiles, ...pageFiles, ...localeFiles]);
}

/**
 * Components a page loads only when the person meets them, never on a first load (the captcha challenge shows after
 * failed sign-ins, docs/adr/0014-captcha.md; the security centre (with the
 * signed-in pages' own styles, account-ui.css) and the header's account menu are drawn for a signed-in person only,
 * issue 49; the shell's page for a crashed page, issue 54; the partner's idle sign-out and its warning, for a signed-in
 * person whose partner sets a limit, ADR 0020). Their loaders — `()=>…import()…then(m=>({default:m.<Name>}))` in the minified shell — are cut like
 * route pages. The toaster is not listed: it is counted on purpose (budget.json note).
 */
const ON_DEMAND_COMPONENTS = [
  'CaptchaDialog',
  'SecurityCentre',
  'AccountMenu',
  'UnexpectedErrorPage',
  'IdleSignOut',
];
const ON_DEMAND_LOADERS = new RegExp(
  `\\(\\)\\s*=>(?:(?!\\(\\)\\s*=>)[^])*?default:\\s*[\\w$]+\\.(?:${ON_DEMAND_COMPONENTS.join('|')})\\b`,
  'g',
);

/**
 * The loaders of the shared modules the shell provides lazily (`eager: false`, shell/rspack.config.mjs
 * `LAZY_SHARED`: the signed-in pages' kit, shared-contracts/account-ui): `factory:()=>x.e("id").then(` in the share
 * scope's data and `fallback:()=>x.e("id").then(` in the consume data. An eager module's factory loads no chunk
 * (it is in the entry), so every such loader belongs to a lazily provided module, fetched only when a page imports
 * it. e2e/tests/federation.spec.ts checks in Chromium that the sign-in page never fetches it.
 */
const LAZY_SHARED_LOADERS =
  /\b(factory|fallback):\s*\(\)\s*=>\s*(?:Promise\.all\(\[[^\]]*\]\)|[\w$]+\.e\(\s*"?[\w-]+"?\s*\))\.then\(/g;

/**
 * The shell's files for a first load: the scripts and stylesheets index.html references, and every chunk their
 * code loads eagerly (the async bootstrap and the shared libraries it consumes). Route pages (`lazy:` in route
 * objects) are not eager and are skipped, which is why the walk cuts every `lazy:` segment out first.
 */
export function shellInitialFiles(dist) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [
    ...[...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]),
    ...[
      ...html.matchAll(
        /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+)"[^>]*rel="stylesheet"/g,
      ),
    ].map((m) => m[1] ?? m[2]),
  ]
    .map((u) => u.replace(/^\//, '').split('?')[0])
    .filter((u) => !/^[a-z]+:/i.test(u) && existsSync(path.join(dist, u)));
  // The file with the bundler runtime: its `.u` maps chunk ids to hashes (a library's minified code may assign a
  // property `u` too, so the map itself is what is looked for).
  const runtimeFile = refs.find(
    (f) => f.endsWith('.js') && (hashMapOf(readFileSync(path.join(dist, f), 'utf8'), 'u')?.size ?? 0) > 0,
  );
  if (!runtimeFile) return unique(refs);
  const files = chunkFiles(dist, runtimeFile);
  // The shell's translations come one chunk per locale (`common-<locale>.<hash>.js`, shell/src/i18n/i18n.ts); a
  // load fetches its locale's only, so the walk counts en-GB's like mfe-login's locale chunk.
  const filesOf = (id) =>
    files(id).filter((f) => !/(^|\/)common-[\w-]+\./.test(f) || /(^|\/)common-en-GB\./.test(f));
  const seen = new Set(refs);
  const queue = refs.filter((f) => f.endsWith('.js'));
  while (queue.length) {
    const file = queue.shift();
    const code = readFileSync(path.join(dist, file), 'utf8')
      .replace(/lazy:\s*(?:async\s*)?\(\)\s*=>[^]*?\.then\(/g, 'lazy:(')
      .replace(ON_DEMAND_LOADERS, '()=>null')
      .replace(LAZY_SHARED_LOADERS, '$1:()=>null.then(');
    for (const id of chunkIdsIn(code)) {
      for (const f of filesOf(id)) {
        if (seen.has(f)) continue;
        seen.add(f);
        if (f.endsWith('.js')) queue.push(f);
      }
    }
  }
  return [...seen];
}

/**
 * The files a component loaded on demand (one of {@link ON_DEMAND_COMPONENTS}) brings in the shell's build: the
 * chunks its loader fetches and every chunk their code loads in turn. None when the loader loads no chunk of its
 * own (the component was bundled into a chunk something else loads).
 */
export function onDemandFiles(dist, component) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="\/?([^"?]+)/g)].map((m) => m[1]);
  const runtimeFile = scripts.find(
    (f) =>
      existsSync(path.join(dist, f)) &&
      (hashMapOf(readFileSync(path.join(dist, f), 'utf8'), 'u')?.size ?? 0) > 0,
  );
  if (!runtimeFile) return [];
  const filesOf = chunkFiles(dist, runtimeFile);
  const loader = new RegExp(
    `\\(\\)\\s*=>(?:(?!\\(\\)\\s*=>)[^])*?default:\\s*[\\w$]+\\.${component}\\b`,
    'g',
  );
  const ids = listFiles(dist)
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) =>
      [...readFileSync(path.join(dist, f), 'utf8').matchAll(loader)].flatMap((m) => chunkIdsIn(m[0])),
    );
  const seen = new Set(ids.flatMap(filesOf));
  const queue = [...seen].filter((f) => f.endsWith('.js'));
  while (queue.length) {
    for (const f of chunkIdsIn(readFileSync(path.join(dist, queue.shift()), 'utf8')).flatMap(filesOf)) {
      if (seen.has(f)) continue;
      seen.add(f);
      if (f.endsWith('.js')) queue.push(f);
    }
  }
  return [...seen];
}

function unique(list) {
  return [...new Set(list)];
}

/** gzip -9 size of a file: a deterministic stand-in for "on the wire" (servers may use brotli, which is smaller). */
export function gzipBytes(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/**
 * Bytes of a file as the gateway serves it to a browser that accepts brotli: its build-time `.br` sibling
 * (shared-contracts/build/precompress.mjs writes one only where it is smaller), else the file itself.
 */
export function servedBrotliBytes(file) {
  return existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : readFileSync(file).length;
}

/**
 * The /account/login bill from the build output: files, raw, gzip -9 and served brotli bytes of JS and CSS.
 * @param {string} repo repository root
 */
export function signInRouteBytes(repo) {
  const shellDist = path.join(repo, 'shell', 'dist');
  const loginDist = path.join(repo, 'mfe-login', 'dist');
  const files = [
    ...shellInitialFiles(shellDist).map((f) => ({ pkg: 'shell', file: f, abs: path.join(shellDist, f) })),
    ...remoteRouteFiles(loginDist, '/account/login').map((f) => ({
      pkg: 'mfe-login',
      file: f,
      abs: path.join(loginDist, f),
    })),
  ].map((f) => ({
    ...f,
    raw: readFileSync(f.abs).length,
    gzip: gzipBytes(f.abs),
    brotli: servedBrotliBytes(f.abs),
  }));
  const sum = (ext, key) => files.filter((f) => f.file.endsWith(ext)).reduce((n, f) => n + f[key], 0);
  return {
    files: files.map((f) => ({ pkg: f.pkg, file: f.file, raw: f.raw, gzip: f.gzip, brotli: f.brotli })),
    jsGzip: sum('.js', 'gzip'),
    jsBrotli: sum('.js', 'brotli'),
    cssGzip: sum('.css', 'gzip'),
    jsRaw: sum('.js', 'raw'),
    cssRaw: sum('.css', 'raw'),
  };
}
