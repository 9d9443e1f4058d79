// Finds the argon2id parameters the gateway really uses, from its built modules, so the hash bound can never drift
// from the server (the brief forbids copying the numbers). Any export of gateway/dist that is an object with
// memoryCost and timeCost (an @node-rs/argon2 Options object) counts; the module and export name are reported.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GATEWAY_DIST } from './gateway.mjs';

function* jsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(full);
    else if (entry.name.endsWith('.js') && !entry.name.endsWith('.test.js')) yield full;
  }
}

/**
 * The options, where they were found, and the module's `verifyPassword` when it exports one (the gateway's verify
 * with its queue of hashes in flight, for the hash-alone latency of section 1).
 * @returns {Promise<{options: Record<string, unknown>, source: string,
 *   verifyPassword?: (hash: string, password: string) => Promise<boolean>}>}
 */
export async function loadGatewayArgon2Options() {
  const found = [];
  for (const file of jsFiles(GATEWAY_DIST)) {
    const rel = path.relative(GATEWAY_DIST, file);
    // Entry points start servers or CLIs when imported; the parameters live in a library module.
    if (rel === 'server.js' || rel.startsWith(`cli${path.sep}`)) continue;
    const text = readFileSync(file, 'utf8');
    if (!text.includes('memoryCost') || !/export\s/.test(text)) continue;
    const mod = await import(pathToFileURL(file).href);
    for (const [name, value] of Object.entries(mod)) {
      if (value && typeof value === 'object' && 'memoryCost' in value && 'timeCost' in value) {
        found.push({
          options: /** @type {Record<string, unknown>} */ (value),
          source: `gateway/dist/${rel.split(path.sep).join('/')}#${name}`,
          ...(typeof mod.verifyPassword === 'function' ? { verifyPassword: mod.verifyPassword } : {}),
        });
      }
    }
  }
  if (found.length === 0) {
    throw new Error(
      'no exported argon2 options object (with memoryCost and timeCost) found in gateway/dist; export it from the password module',
    );
  }
  return found[0];
}
