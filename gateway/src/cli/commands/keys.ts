import type { Kysely } from 'kysely';
import { DEFAULT_KEY_POLL_INTERVAL_MS, loadSigningKeys, rotateSigningKeys } from '../../oidc/signing-keys.js';
import type { OidcDatabase } from '../../oidc/types.js';
import { defineCommand } from '../admin-command.js';

export const keysCommands = [
  defineCommand({
    area: 'keys',
    name: 'rotate',
    options: { now: { type: 'boolean' } },
    summary: [
      `new token signing keys: published at once, signing after ${(2 * DEFAULT_KEY_POLL_INTERVAL_MS) / 1000} s (running gateways`,
      `re-read the keys every ${DEFAULT_KEY_POLL_INTERVAL_MS / 1000} s); --now signs from the next key check (one replica only)`,
    ],
    async run({ store, out }, values) {
      const db = store.database.db as unknown as Kysely<OidcDatabase>;
      // Published everywhere before anything is signed with them (S41): two poll intervals of grace.
      const activateAfterMs = values.now ? 0 : 2 * DEFAULT_KEY_POLL_INTERVAL_MS;
      const before = new Set((await loadSigningKeys(db)).map((k) => k.kid));
      const keys = await rotateSigningKeys(db, { activateAfterMs });
      const fresh = keys.filter((k) => !before.has(k.kid)).map((k) => k.kid);
      out(
        `new signing keys ${fresh.join(', ')} published; they sign ${activateAfterMs > 0 ? `from ${new Date(Date.now() + activateAfterMs).toISOString()}` : 'from the next key check'}`,
      );
      out(
        `running gateways re-read the keys every ${DEFAULT_KEY_POLL_INTERVAL_MS / 1000} s; ${keys.length / 2} generations kept for verification`,
      );
    },
  }),
];
