// Precompressed siblings of a build's served files (docs/adr/0026-precompressed-static-files.md): every text file a
// browser fetches (.js, .css, .svg, .json, .webmanifest) of at least PRECOMPRESS_MIN_BYTES gets `<file>.br` (brotli,
// quality 11) and `<file>.gz` (gzip, level 9) beside it, written once at build time, so the gateway sends the
// smallest encoding the browser accepts without compressing anything per request. Run after the bundler:
// `node ../shared-contracts/build/precompress.mjs dist`. Brotli and gzip are deterministic for the same input and
// settings, so a build's content hash (the release version) stays the identity of its sources.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Files smaller than this are sent as they are (a compressed body plus its header would save nothing). */
export const PRECOMPRESS_MIN_BYTES = 1024;
/** What a browser fetches as text; HTML is left out (the gateway renders every page per request). */
export const PRECOMPRESSED_TYPES = /\.(?:js|mjs|css|svg|json|webmanifest)$/;
/** The siblings' endings, in the gateway's order of preference. */
export const ENCODINGS = /** @type {const} */ ([
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
]);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** The two encodings of one file's bytes. */
export async function compressBoth(bytes) {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

/**
 * Writes the siblings of every eligible file under `dir`; a sibling that would not be smaller than the file is not
 * written (the gateway then sends the file itself). Returns what was written, for the build log.
 * @param {string} dir
 * @returns {Promise<{files: number, bytes: number, br: number, gzip: number}>}
 */
export async function precompressDir(dir) {
  const files = listFiles(dir).filter(
    (file) => PRECOMPRESSED_TYPES.test(file) && statSync(file).size >= PRECOMPRESS_MIN_BYTES,
  );
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  // Two at a time: each call runs on libuv's pool, and the machines this builds on have two cores.
  for (let i = 0; i < files.length; i += 2) {
    await Promise.all(
      files.slice(i, i + 2).map(async (file) => {
        const bytes = readFileSync(file);
        const encoded = await compressBoth(bytes);
        totals.files += 1;
        totals.bytes += bytes.length;
        for (const { name, suffix } of ENCODINGS) {
          const body = encoded[name];
          if (body.length >= bytes.length) continue;
          writeFileSync(file + suffix, body);
          totals[name] += body.length;
        }
      }),
    );
  }
  return totals;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir || !statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error('usage: node precompress.mjs <build folder>  (the folder must exist: build first)');
    process.exit(2);
  }
  const t = await precompressDir(dir);
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `precompressed ${t.files} files in ${dir}: ${kb(t.bytes)} → br ${kb(t.br)}, gzip ${kb(t.gzip)}`,
  );
}
