import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { StoredReleaseFile } from '../store/release.repository.js';

// The rule of the build's precompression (shared-contracts/build/precompress.mjs, ADR 0026), kept in step with it:
// what a browser fetches as text, from 1 KiB up, gets a brotli and a gzip encoding when they are smaller.
const PRECOMPRESSED_TYPES = /\.(?:js|mjs|css|svg|json|webmanifest)$/;
const PRECOMPRESS_MIN_BYTES = 1024;
/** A build's precompressed siblings: stored as encodings of their file, never as files of their own. */
const SIBLING = /\.(?:br|gz)$/;

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Content types of the files a remote's build writes, by extension (what `res.type` would say); anything else is
 * sent as bytes. Stored with each file, so every replica answers the same type whatever its own tables hold.
 */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/vnd.microsoft.icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.xml': 'application/xml; charset=utf-8',
};

/** The content type a release file is served with. */
export function releaseContentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
export function listBuildFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listBuildFiles(full, base));
    else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** SHA-256 over every file's relative path and bytes (siblings included): the identity of a build. */
export function contentHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of listBuildFiles(dir)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(dir, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

function decodes(sibling: Buffer, bytes: Buffer, decode: (b: Buffer) => Buffer): boolean {
  try {
    return decode(sibling).equals(bytes);
  } catch {
    return false;
  }
}

/**
 * The files of a build folder as the store keeps them: every file (no list is assumed: `remoteEntry.js`,
 * `mf-manifest.json`, chunks, first-paint pages…) with its type and hash, and for the compressed types its brotli
 * and gzip encodings: the build's own siblings when they decode to the file's bytes (a file edited after its build
 * keeps no stale sibling), else made here with the build's settings.
 */
export async function readBuild(dir: string): Promise<StoredReleaseFile[]> {
  const all = listBuildFiles(dir);
  const present = new Set(all);
  const files: StoredReleaseFile[] = [];
  for (const file of all) {
    // A sibling travels with its file; one without its file is nothing a page can ask for (a 404 either way).
    if (SIBLING.test(file)) continue;
    const body = readFileSync(path.join(dir, file));
    let br: Buffer | undefined;
    let gz: Buffer | undefined;
    if (PRECOMPRESSED_TYPES.test(file) && body.length >= PRECOMPRESS_MIN_BYTES) {
      if (present.has(`${file}.br`)) {
        const sibling = readFileSync(path.join(dir, `${file}.br`));
        if (decodes(sibling, body, zlib.brotliDecompressSync)) br = sibling;
      }
      if (present.has(`${file}.gz`)) {
        const sibling = readFileSync(path.join(dir, `${file}.gz`));
        if (decodes(sibling, body, zlib.gunzipSync)) gz = sibling;
      }
      br ??= await brotliCompress(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      });
      gz ??= await gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION });
      if (br.length >= body.length) br = undefined;
      if (gz.length >= body.length) gz = undefined;
    }
    files.push({
      path: file,
      contentType: releaseContentType(file),
      sha256: createHash('sha256').update(body).digest('hex'),
      body,
      br,
      gzip: gz,
    });
  }
  return files;
}
