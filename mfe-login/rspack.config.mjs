// Build of a remote: the shared preset of shared-contracts (federated remote by default, `--env standalone` for
// the dev host). See shared-contracts/build/federation.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { remoteRspackConfig } from 'shared-contracts/build/federation';

/**
 * Build variants for the browser proofs of the canary and its guard (e2e/helpers/variant-builds.ts), chosen with
 * `--env e2eVariant=<name>` and written elsewhere with `--output-path`; never published by `npm run build`:
 * - `new`: this build with other content hashes in its file names (so another release version), healthy;
 * - `broken`: every page throws while rendering (src/routes.tsx), the remote itself loads and starts normally.
 * Without the flag `__MFE_LOGIN_E2E_VARIANT__` is '' and the variant code is dead (the minifier drops it).
 */
const E2E_VARIANTS = ['', 'new', 'broken'];

export default (env = {}) => {
  const config = remoteRspackConfig(path.dirname(fileURLToPath(import.meta.url)), env);
  const variant = env.e2eVariant ?? '';
  if (!E2E_VARIANTS.includes(variant))
    throw new Error(`unknown e2eVariant "${variant}" (one of: ${E2E_VARIANTS.filter(Boolean).join(', ')})`);
  config.plugins.push(new rspack.DefinePlugin({ __MFE_LOGIN_E2E_VARIANT__: JSON.stringify(variant) }));
  // Another salt, other content hashes in every file name: another release version, the same code otherwise.
  if (variant) config.output.hashSalt = `e2e-${variant}`;
  return config;
};
