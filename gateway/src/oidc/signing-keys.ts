/**
 * Token signing keys: an RS256 and an ES256 key pair, generated once and persisted in the store (one row of
 * `oidc_payloads`, kind `SigningKeySet`), so every replica signs with the same keys and a restart changes nothing.
 *
 * RS256 and ES256 only (ARCHITECTURE.md: several widely deployed relying parties cannot verify EdDSA). Rotation
 * adds a new generation in front: oidc-provider signs with the first key matching the algorithm, while the older
 * keys stay in the published JWKS so tokens signed before the rotation still verify (S41). Old generations are
 * retired only when more than `keepGenerations` exist.
 *
 * Several replicas: a rotation may delay when the new generation starts signing (`activateAfterMs`). Until then it is
 * published in every replica's JWKS (each re-reads the key set every `keyPollIntervalMs`, see oidc-provider.ts) but
 * sorted after the active keys, so nothing is signed with a key that another replica does not publish yet. The
 * admin CLI's `keys rotate` delays by twice the poll interval: no relying party or replica sees an unknown kid.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { JWK } from 'oidc-provider';
import type { OidcDatabase } from './types.js';

const KIND = 'SigningKeySet';

/** Default interval at which every replica re-reads the signing keys; `keys rotate` delays activation by twice it. */
export const DEFAULT_KEY_POLL_INTERVAL_MS = 30_000;
const ID = 'default';

/** Keys of one generation: private JWKs with kid, alg and use set. */
export function generateSigningKeyGeneration(): JWK[] {
  const stamp = new Date().toISOString().slice(0, 10);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return [
    { ...rsa, kid: `rs256-${stamp}-${randomUUID().slice(0, 8)}`, alg: 'RS256', use: 'sig' },
    { ...ec, kid: `es256-${stamp}-${randomUUID().slice(0, 8)}`, alg: 'ES256', use: 'sig' },
  ];
}

interface StoredKeySet {
  /** Generations, newest first; each holds one RS256 and one ES256 key. */
  generations: JWK[][];
  /** Epoch ms from which generation `i` signs; absent or past = it signs now. */
  activatesAt?: (number | null)[];
}

async function readKeySet(db: Kysely<OidcDatabase>): Promise<StoredKeySet | undefined> {
  const row = await db
    .selectFrom('oidc_payloads')
    .select('payload')
    .where('kind', '=', KIND)
    .where('id', '=', ID)
    .executeTakeFirst();
  return row ? (JSON.parse(row.payload) as StoredKeySet) : undefined;
}

/** Active generations first (newest first), then pending ones: published for verification, not signing yet. */
function flatten(set: StoredKeySet, now = Date.now()): JWK[] {
  const pending = (i: number) => (set.activatesAt?.[i] ?? 0) > now;
  const active = set.generations.filter((_, i) => !pending(i));
  const waiting = set.generations.filter((_, i) => pending(i));
  return [...active, ...waiting].flat();
}

/** When the newest pending generation starts signing (epoch ms), or undefined when every generation is active. */
export async function nextKeyActivation(
  db: Kysely<OidcDatabase>,
  now = Date.now(),
): Promise<number | undefined> {
  const set = await readKeySet(db);
  const times = (set?.activatesAt ?? []).filter((t): t is number => typeof t === 'number' && t > now);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/**
 * The persisted signing keys (newest generation first); generates and stores the first generation when none
 * exists. Safe when several replicas start at once: the first insert wins and everyone reads it back.
 */
export async function loadSigningKeys(db: Kysely<OidcDatabase>, now = Date.now()): Promise<JWK[]> {
  const existing = await readKeySet(db);
  if (existing) return flatten(existing, now);
  const fresh: StoredKeySet = { generations: [generateSigningKeyGeneration()] };
  await db
    .insertInto('oidc_payloads')
    .values({
      id: ID,
      kind: KIND,
      payload: JSON.stringify(fresh),
      grant_id: null,
      user_code: null,
      uid: null,
      expires_at: null,
      consumed_at: null,
    })
    .onConflict((conflict) => conflict.columns(['kind', 'id']).doNothing())
    .execute();
  const stored = await readKeySet(db);
  if (!stored) throw new Error('signing keys could not be stored');
  return flatten(stored, now);
}

/** Options of {@link rotateSigningKeys}. */
export interface RotateOptions {
  /** Generations kept for verification, the new one included (default 3). */
  keepGenerations?: number;
  /** The new generation signs only this long after the rotation (default 0: from the next reload on). */
  activateAfterMs?: number;
  now?: number;
}

/**
 * Adds a new key generation in front (it signs from the next provider reload on, or once `activateAfterMs` has
 * passed) and keeps at most `keepGenerations` generations for verification. Returns the new key list.
 */
export async function rotateSigningKeys(
  db: Kysely<OidcDatabase>,
  options: number | RotateOptions = {},
): Promise<JWK[]> {
  const {
    keepGenerations = 3,
    activateAfterMs = 0,
    now = Date.now(),
  } = typeof options === 'number' ? { keepGenerations: options } : options;
  await loadSigningKeys(db, now);
  return db.transaction().execute(async (trx) => {
    const current = await readKeySet(trx);
    const generations = current?.generations ?? [];
    const next: StoredKeySet = {
      generations: [generateSigningKeyGeneration(), ...generations].slice(0, keepGenerations),
      activatesAt: [
        activateAfterMs > 0 ? now + activateAfterMs : null,
        ...generations.map((_, i) => current?.activatesAt?.[i] ?? null),
      ].slice(0, keepGenerations),
    };
    await trx
      .updateTable('oidc_payloads')
      .set({ payload: JSON.stringify(next) })
      .where('kind', '=', KIND)
      .where('id', '=', ID)
      .execute();
    return flatten(next, now);
  });
}

/** Public halves of the keys, as published at the JWKS endpoint (for tests and tools). */
export function publicJwks(keys: readonly JWK[]): JWK[] {
  return keys.map(({ kid, kty, alg, use, crv, x, y, n, e }) =>
    Object.fromEntries(
      Object.entries({ kid, kty, alg, use, crv, x, y, n, e }).filter(([, v]) => v !== undefined),
    ),
  );
}
