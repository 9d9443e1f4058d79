import { randomInt } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { FEDERATION_MANIFEST_FILE, type RemoteId, type RemotesManifest } from 'shared-contracts';
import type { GatewayConfig } from '../config.js';
import type { ReleaseRegistry, ServedReleaseFile } from '../releases/release-registry.js';
import { isRemoteId } from '../releases/release-registry.js';
import { cookieNames, readCookie, setCookie } from './cookies.js';
import { acceptedEncodings, PRECOMPRESSED_SIBLING } from './precompressed.js';

const YEAR_MS = 365 * 24 * 3_600_000;
/** Release files never change under their URL (the version names the build). */
const RELEASE_CACHE_CONTROL = `public, max-age=${YEAR_MS / 1000}, immutable`;

/** A bucket cookie's value as a bucket (0–99), or undefined when it is none. */
function bucketOf(value: string | undefined): number | undefined {
  const bucket = Number(value);
  return value !== undefined && Number.isInteger(bucket) && bucket >= 0 && bucket <= 99 ? bucket : undefined;
}

/**
 * The browser's canary bucket (0–99): its cookie's, or, for a browser without one, a new random bucket set as its
 * cookie with this answer and seen by everything else that reads this request (the first paint, the page load's
 * count, ADR 0059), so the page, its count and the manifest it asks for next agree on the versions it gets.
 */
export function browserBucket(req: Request, res: Response, config: Pick<GatewayConfig, 'secure'>): number {
  const name = cookieNames(config).bucket;
  const known = bucketOf(readCookie(req, name));
  if (known !== undefined) return known;
  const bucket = randomInt(100);
  setCookie(res, config, name, String(bucket), { httpOnly: true, maxAgeMs: YEAR_MS });
  const others = (req.headers.cookie ?? '')
    .split(';')
    .filter((part) => part.trim() !== '' && part.split('=')[0]!.trim() !== name);
  req.headers.cookie = [...others.map((p) => p.trim()), `${name}=${bucket}`].join('; ');
  return bucket;
}

/**
 * `/remotes/manifest.json` per browser (stable bucket cookie decides canary; never cached) and the immutable
 * release files `/remotes/<id>/<version>/…`, both from this replica's view of the registry in the store: its memory
 * holds every file of each version the manifest names (ADR 0033).
 */
export function remotesRouter(config: Pick<GatewayConfig, 'secure'>, registry: ReleaseRegistry): Router {
  const router = Router();

  router.get('/manifest.json', async (req, res) => {
    await registry.ready;
    // The bucket lives in the browser's cookie, chosen once: every replica reads the same number from it and
    // compares it with the same percentages, so a browser gets the same versions whichever replica answers.
    const bucket = browserBucket(req, res, config);
    res.set('Cache-Control', 'no-store');
    res.json(federationManifests(registry, registry.manifest(bucket)));
  });

  // Each request is answered from its own version's files only, and only when that version is published: the path
  // is taken apart here and looked up by remote, version and file, so no encoding of `%2f`/`%2e` reaches anything
  // else.
  router.get('/*splat', async (req, res, next) => {
    const target = releaseFile(req.path);
    if (target === 'invalid') {
      res.status(400).type('text/plain').send('Bad Request');
      return;
    }
    // A build's precompressed siblings are how its files travel, never files of their own (ADR 0026).
    if (!target || PRECOMPRESSED_SIBLING.test(target.path)) {
      next();
      return;
    }
    await registry.ready;
    const file = await registry.fileOfPublished(target.id, target.version, target.path);
    if (!file) {
      next();
      return;
    }
    sendReleaseFile(req, res, file);
  });
  router.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  return router;
}

/**
 * Sends a release file in the smallest encoding the browser accepts that the store holds (brotli, then gzip; ADR
 * 0026), else its bytes (which the compression middleware may still compress). Each encoding has its own strong
 * ETag, so a conditional request gets 304 only for the bytes it holds.
 */
function sendReleaseFile(req: Request, res: Response, file: ServedReleaseFile): void {
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const tag = file.sha256.slice(0, 32);
  res.type(file.contentType);
  res.set('Cache-Control', RELEASE_CACHE_CONTROL);
  if (file.br || file.gzip) res.vary('Accept-Encoding');
  if (file.br && accepted.has('br')) {
    res.set('Content-Encoding', 'br').set('ETag', `"${tag}-br"`).send(file.br);
  } else if (file.gzip && accepted.has('gzip')) {
    res.set('Content-Encoding', 'gzip').set('ETag', `"${tag}-gz"`).send(file.gzip);
  } else {
    res.set('ETag', `"${tag}"`).send(file.body);
  }
}

/**
 * Each remote's entry in the browser's manifest is its version's federation manifest (`mf-manifest.json`, which
 * every remote build writes beside its `remoteEntry.js`): the shell's federation runtime loads the remote through it
 * (docs/adr/0034-react-and-module-federation-2.md). A version published without one (built before it) keeps its
 * `remoteEntry.js`, which the runtime loads as well.
 */
function federationManifests(registry: ReleaseRegistry, manifest: RemotesManifest): RemotesManifest {
  const remotes: RemotesManifest['remotes'] = {};
  for (const [id, remote] of Object.entries(manifest.remotes)) {
    if (!remote || !isRemoteId(id)) continue;
    // The announced versions are loaded in this replica's memory (releases in the store, ADR 0033).
    const withManifest = registry.file(id, remote.version, FEDERATION_MANIFEST_FILE) !== undefined;
    remotes[id] = withManifest
      ? { ...remote, entry: `/remotes/${id}/${remote.version}/${FEDERATION_MANIFEST_FILE}` }
      : remote;
  }
  return { ...manifest, remotes };
}

// One path segment of a release file after decoding: what a build writes (names, hashes, dots inside), never a
// dot segment, a dotfile, a separator, a backslash, a `%` left over from double encoding or a control character.
const FILE_SEGMENT = /^[A-Za-z0-9_@+~=,-][A-Za-z0-9_.@+~=,-]*$/;

/**
 * Which file `/<remote-id>/<version>/<file…>` names: `{id, version, path: <file inside the build>}`; undefined
 * when it names no remote (404); `invalid` when a segment tries to leave its place or is not decodable (400).
 */
function releaseFile(
  rawPath: string,
): { id: RemoteId; version: string; path: string } | 'invalid' | undefined {
  const [empty, rawId, rawVersion, ...rawFile] = rawPath.split('/');
  if (empty !== '' || rawId === undefined || rawVersion === undefined || rawFile.length === 0)
    return undefined;
  const segments: string[] = [];
  for (const raw of [rawId, rawVersion, ...rawFile]) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return 'invalid';
    }
    if (!FILE_SEGMENT.test(decoded)) return 'invalid';
    segments.push(decoded);
  }
  const [id, version, ...file] = segments as [string, string, ...string[]];
  if (!isRemoteId(id)) return undefined;
  return { id, version, path: file.join('/') };
}
