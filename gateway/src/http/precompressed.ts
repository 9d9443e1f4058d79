import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * Files built with precompressed siblings (shared-contracts/build/precompress.mjs, ADR 0026): `<file>.br` and
 * `<file>.gz`, written once at build time. Kept in step with that script's `PRECOMPRESSED_TYPES`.
 */
const PRECOMPRESSED_TYPES = /\.(?:js|mjs|css|svg|json|webmanifest)$/;
/** The siblings themselves: never served under their own name (a build's files are what a page asks for). */
export const PRECOMPRESSED_SIBLING = /\.(?:br|gz)$/;
/** Brotli first: for minified JS it is ≈ 15 % smaller than gzip at the same price to the browser. */
const ENCODINGS = [
  { name: 'br', suffix: '.br', decode: promisify(brotliDecompress) },
  { name: 'gzip', suffix: '.gz', decode: promisify(gunzip) },
] as const;

type Encoding = (typeof ENCODINGS)[number]['name'];

/**
 * The encodings an `Accept-Encoding` header allows (RFC 9110 §12.5.3): each coding listed with a q above 0, or
 * covered by `*` when not listed itself. No header at all allows none but identity.
 */
export function acceptedEncodings(header: string | undefined): Set<Encoding> {
  const accepted = new Set<Encoding>();
  if (!header) return accepted;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const parsed = Number(value?.trim());
        weight = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    q.set(name, Math.max(weight, q.get(name) ?? 0));
  }
  for (const { name } of ENCODINGS) {
    const weight = q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*');
    if (weight !== undefined && weight > 0) accepted.add(name);
  }
  return accepted;
}

/**
 * Whether a sibling decodes to its file's bytes, by the identity (inode, size, mtime) of both files: checked once
 * per pair, so a file rewritten after its build (even within the same clock tick as its siblings) is never sent
 * in the old bytes' encoding. Bounded: the oldest answers are forgotten first.
 */
const verified = new Map<string, boolean>();
const VERIFIED_MAX = 10_000;

async function decodesTo(
  file: string,
  sibling: string,
  decode: (buffer: Buffer) => Promise<Buffer>,
): Promise<boolean> {
  const [original, encoded] = await Promise.all([stat(file), stat(sibling)]);
  if (!original.isFile() || !encoded.isFile()) return false;
  const key = `${sibling}\0${original.ino}:${original.size}:${original.mtimeMs}\0${encoded.ino}:${encoded.size}:${encoded.mtimeMs}`;
  const known = verified.get(key);
  if (known !== undefined) return known;
  const [bytes, decoded] = await Promise.all([readFile(file), readFile(sibling).then(decode)]);
  const ok = bytes.equals(decoded);
  verified.set(key, ok);
  if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  return ok;
}

/**
 * The precompressed sibling to send for `file` (an absolute path the caller has already checked lies inside its
 * folder), or undefined: the type is not one the build compresses, the request accepts no encoding the build
 * wrote, or the sibling is missing or does not decode to the file's current bytes.
 */
export async function precompressedSibling(
  req: Request,
  file: string,
): Promise<{ path: string; encoding: Encoding } | undefined> {
  if (!PRECOMPRESSED_TYPES.test(file)) return undefined;
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  for (const { name, suffix, decode } of ENCODINGS) {
    if (!accepted.has(name)) continue;
    if (await decodesTo(file, file + suffix, decode).catch(() => false))
      return { path: file + suffix, encoding: name };
  }
  return undefined;
}

/**
 * Sends `file`'s precompressed sibling when there is one for this request (see {@link precompressedSibling}), with
 * the file's own type, `Content-Encoding`, `Vary: Accept-Encoding` and the caller's cache headers (the compression
 * middleware leaves an encoded answer alone); otherwise, or if the sibling cannot be read after all, calls
 * `sendFile` to send the file itself.
 */
export function sendPrecompressed(
  req: Request,
  res: Response,
  file: string,
  cacheControl: string,
  sendFile: () => void,
): void {
  if (!PRECOMPRESSED_TYPES.test(file)) return sendFile();
  res.vary('Accept-Encoding');
  precompressedSibling(req, file).then(
    (sibling) => {
      if (!sibling) return sendFile();
      res.type(path.extname(file));
      res.setHeader('Content-Encoding', sibling.encoding);
      res.setHeader('Cache-Control', cacheControl);
      // `root` makes send judge dot names only below the file's own folder (the caller has checked the path
      // inside the build folder): an installation under `~/.local/…` or `/srv/.releases/…` must not turn every
      // answer into the on-the-fly fallback (issue 54).
      res.sendFile(
        path.basename(sibling.path),
        { root: path.dirname(sibling.path), dotfiles: 'deny', cacheControl: false, acceptRanges: false },
        (error?: Error) => {
          if (!error || res.headersSent) return;
          res.removeHeader('Content-Encoding');
          res.removeHeader('Content-Type');
          sendFile();
        },
      );
    },
    () => sendFile(),
  );
}
