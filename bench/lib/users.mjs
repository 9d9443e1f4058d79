// Bench users, made through the gateway's admin CLI (STYLE.md: fixtures create users through the admin CLI or the
// store, never hard-coded rows). Many accounts, rotated, so the per-account throttle (10 per account+source, 100 per
// account per hour) never sees one account hammered: the sign-in figure measures sign-ins, not the throttle.
import { mapLimit } from './account-client.mjs';
import { runGatewayCli } from './gateway.mjs';

/** Password of every bench user (passes the password rules; never used outside the throw-away DATA_DIR). */
export const BENCH_PASSWORD = 'Bench-Password-1!';

const made = new WeakMap();

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
  // Two CLIs at a time: each is a node start + one argon2 hash; more would only fight over the 2 cores.
  await mapLimit(usernames, 2, (username) =>
    runGatewayCli(gw, 'admin', ['users', 'add', '--username', username, '--email', `${username}@bench.test`, '--password', BENCH_PASSWORD, '--name', username]),
  );
  const out = { usernames, how: `admin CLI "users add" ×${count}`, seconds: (performance.now() - t0) / 1000 };
  made.set(gw, out);
  return out;
}
