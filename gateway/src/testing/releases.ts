/** Release fixtures: versions of a remote stored with a file of their own, and a release state, for suites. */
import { createHash } from 'node:crypto';
import type { ReleaseRegistry } from '../releases/release-registry.js';
import type { ReleaseState, StoredReleaseFile } from '../store/release.repository.js';
import type { Store } from '../store/store.js';

/** A stored file with these bytes (no precompressed encodings). */
export function releaseFile(
  path: string,
  text: string,
  contentType = 'text/javascript; charset=utf-8',
): StoredReleaseFile {
  const body = Buffer.from(text);
  return {
    path,
    contentType,
    sha256: createHash('sha256').update(body).digest('hex'),
    body,
    br: undefined,
    gzip: undefined,
  };
}

/**
 * Stores each version of `remote` (a `remoteEntry.js` naming it), sets the remote's state, and waits until
 * `registry` serves it.
 */
export async function storeReleases(
  store: Store,
  registry: ReleaseRegistry,
  remote: string,
  state: ReleaseState,
  versions: string[],
): Promise<void> {
  for (const version of versions)
    await store.releases.publish(remote, version, {
      contentHash: createHash('sha256').update(version).digest('hex'),
      files: [releaseFile('remoteEntry.js', `/* ${remote} ${version} */`)],
      publishedAt: Date.parse('2026-01-01T00:00:00.000Z'),
    });
  await store.releases.update(remote, () => state);
  await registry.refresh();
}
