import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { FEDERATION_MANIFEST_FILE, type RemotesManifest } from 'shared-contracts';
import type { GatewayConfig } from '../config.js';
import type { ReleaseRegistry } from '../releases/release-registry.js';
import { isRemoteId, isServableVersion } from '../releases/release-registry.js';
import { cookieNames, readCookie, setCookie } from './cookies.js';
import { PRECOMPRESSED_SIBLING, sendPrecompressed } from './precompressed.js';

const YEAR_MS = 365 * 24 * 3_600_000;
/** What `sendFile`'s `immutable` + `maxAge: YEAR_MS` write, for a release file sent precompressed. */
const RELEASE_CACHE_CONTROL = `public, max-age=${YEAR_MS / 1000}, immutable`;

/**
 * `/remotes/manifest.json` per browser (stable bucket cookie decides canary; never cached) and the immutable
 * release files `/remotes/<id>/<version>/…`.
 */
export function remotesRouter(config: Pick<GatewayConfig, 'secure'>, registry: ReleaseRegistry): Router {
  const router = Router();
  const bucketCookie = cookieNames(config).bucket;

  router.get('/manifest.json', (req, res) => {
    let bucket = Number(readCookie(req, bucketCookie));
    if (!Number.isInteger(bucket) || bucket < 0 || bucket > 99) {
      bucket = randomInt(100);
      setCookie(res, config, bucketCookie, String(bucket), { httpOnly: true, maxAgeMs: YEAR_MS });
    }
    res.set('Cache-Control', 'no-store');
    res.json(federationManifests(registry, registry.manifest(bucket)));
  });

  // Each request is served from its own version's folder only, and only when that version is published: the
  // path is taken apart here instead of being handed to a static server rooted at the whole release store, whose
  // decoding of `%2f`/`%2e` would otherwise reach the registry, other versions and staging folders.
  router.get('/*splat', (req, res, next) => {
    const file = releaseFile(registry, req.path);
    if (file === 'invalid') {
      res.status(400).type('text/plain').send('Bad Request');
      return;
    }
    // A build's precompressed siblings are how its files travel, never files of their own (ADR 0026).
    if (!file || PRECOMPRESSED_SIBLING.test(file.path)) {
      next();
      return;
    }
    const sendFile = () =>
      res.sendFile(
        file.path,
        { root: file.root, dotfiles: 'deny', immutable: true, maxAge: YEAR_MS, acceptRanges: false },
        (error?: Error) => {
          // Not found, a folder, a dotfile: the 404 below, without the cache header of a release file.
          if (error && !res.headersSent) next();
        },
      );
    // The smallest encoding the browser accepts, as the build wrote it; else the file (compressed on the fly).
    const absolute = path.join(file.root, file.path);
    sendPrecompressed(req, res, absolute, RELEASE_CACHE_CONTROL, sendFile);
  });
  router.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  return router;
}

/**
 * Each remote's entry in the browser's manifest is its version's federation manifest (`mf-manifest.json`, which
 * every remote build writes beside its `remoteEntry.js`): the shell's federation runtime loads the remote through it
 * (docs/adr/0033-react-and-module-federation-2.md). A version published without one (built before it) keeps its
 * `remoteEntry.js`, which the runtime loads as well.
 */
function federationManifests(registry: ReleaseRegistry, manifest: RemotesManifest): RemotesManifest {
  const remotes: RemotesManifest['remotes'] = {};
  for (const [id, remote] of Object.entries(manifest.remotes)) {
    if (!remote || !isRemoteId(id)) continue;
    const withManifest = existsSync(
      path.join(registry.versionDir(id, remote.version), FEDERATION_MANIFEST_FILE),
    );
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
 * Where `/<remote-id>/<version>/<file…>` lives: `{root: <the version's folder>, path: <file inside it>}`;
 * undefined when it names no published version (404); `invalid` when the path tries to leave the folder or is
 * not decodable (400).
 */
function releaseFile(
  registry: ReleaseRegistry,
  rawPath: string,
): { root: string; path: string } | 'invalid' | undefined {
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
  if (!isRemoteId(id) || !isServableVersion(registry, id, version)) return undefined;
  return { root: registry.versionDir(id, version), path: file.join('/') };
}
