// Bench users. Many accounts, rotated, so the per-account throttle (10 per account+source, 100 per account per hour)
// never sees one account hammered: the sign-in figure measures sign-ins, not the throttle.
// Made through the gateway's admin CLI when it exists (STYLE.md: fixtures use the admin CLI or the store, never
// hard-coded rows); otherwise through the gateway's own store module on the same DATA_DIR.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mapLimit } from './account-client.mjs';
import { GATEWAY_DIST, runGatewayCli } from './gateway.mjs';

/** Password of every bench user (passes the password rules; lives only in the throw-away DATA_DIR). */
export const BENCH_PASSWORD = 'Bench-Password-1!';

const made = new WeakMap();
const dist = (rel) => pathToFileURL(path.join(GATEWAY_DIST, rel)).href;

async function viaCli(gw, usernames) {
  // Three CLIs at a time: each is a node start (mostly waiting on module loading) + one argon2 hash.
  await mapLimit(usernames, 3, (username) =>
    runGatewayCli(gw, 'admin', [
      'users',
      'add',
      '--username',
      username,
      '--email',
      `${username}@bench.test`,
      '--password',
      BENCH_PASSWORD,
      '--display-name',
      username,
      '--roles',
      'EMPLOYEE',
    ]),
  );
}

/**
 * Makes `usernames` through the gateway's own store module on its DATA_DIR (the deployed hash, computed once): for
 * tools that need users without the admin CLI's start-up per user (the sign-in profile).
 * @param {{env: Record<string,string>}} gw
 * @param {string[]} usernames
 */
export async function viaStore(gw, usernames) {
  const { loadConfig } = await import(dist('config.js'));
  const { openStore } = await import(dist('store/store.js'));
  const { hashPassword } = await import(dist('identity/passwords/passwords.service.js'));
  const config = loadConfig(gw.env);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'identity.db'),
    dataEncryptionKey: config.dataEncryptionKey,
  });
  try {
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    for (const username of usernames) {
      if (await store.users.findByLogin(username)) continue;
      await store.users.create({
        username,
        email: `${username}@bench.test`,
        displayName: username,
        passwordHash,
        roles: ['EMPLOYEE'],
      });
    }
  } finally {
    await store.database.close();
  }
}

/**
 * Creates `count` users bench-user-<n> once per gateway and returns their usernames.
 * @param {{env: Record<string,string>}} gw
 * @param {number} count
 */
export async function createBenchUsers(gw, count) {
  const cached = made.get(gw);
  if (cached && cached.usernames.length >= count) return cached;
  const usernames = Array.from({ length: count }, (_, i) => `bench-user-${String(i + 1).padStart(4, '0')}`);
  const t0 = performance.now();
  let how = `admin CLI ×${count}`;
  if (existsSync(path.join(GATEWAY_DIST, 'cli', 'admin.js'))) {
    try {
      await viaCli(gw, usernames);
    } catch (e) {
      // Keep measuring while the CLI is broken mid-change, but say so in the results.
      how = `gateway store module (admin CLI failed: ${(e instanceof Error ? e.message : String(e)).split('\n').find((l) => /Error/.test(l)) ?? 'see log'})`;
      await viaStore(gw, usernames);
    }
  } else {
    how = 'gateway store module (admin CLI not built)';
    await viaStore(gw, usernames);
  }
  const out = { usernames, how, seconds: (performance.now() - t0) / 1000 };
  made.set(gw, out);
  return out;
}
