// The hash bound: how many argon2id verifies per second this machine does with the gateway's exact parameters.
// A password sign-in can never be faster than one verify, so sign-ins/s ÷ verifies/s says how much of the
// machine the rest of the sign-in (HTTP, session, store, CSRF) takes.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const GATEWAY_PKG = fileURLToPath(new URL('../../gateway/package.json', import.meta.url));

/** The very @node-rs/argon2 the gateway resolves (same binary, same thread pool behaviour). */
export async function loadGatewayArgon2() {
  const require = createRequire(GATEWAY_PKG);
  return import(require.resolve('@node-rs/argon2'));
}

/**
 * Verifies as fast as possible with `concurrency` verifies in flight for `durationMs`.
 * @param {{hash: string, password: string, concurrency: number, durationMs: number, verifyOptions?: object}} o
 * @returns {Promise<{perSecond: number, count: number, meanMs: number}>}
 */
export async function measureVerifies({ hash, password, concurrency, durationMs, verifyOptions }) {
  const argon2 = await loadGatewayArgon2();
  const end = performance.now() + durationMs;
  let count = 0;
  let busyMs = 0;
  async function lane() {
    while (performance.now() < end) {
      const t = performance.now();
      const ok = await argon2.verify(hash, password, verifyOptions);
      busyMs += performance.now() - t;
      if (!ok) throw new Error('argon2 verify returned false for the right password');
      count += 1;
    }
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = performance.now() - t0;
  return { perSecond: count / (elapsed / 1000), count, meanMs: busyMs / count };
}

/** Hashes `password` with the gateway's options (and returns the PHC string whose parameters verify will use). */
export async function hashWith(options, password) {
  const argon2 = await loadGatewayArgon2();
  return argon2.hash(password, options);
}
