// Build of a remote: the shared preset of shared-contracts (federated remote by default, `--env standalone` for
// the dev host). See shared-contracts/build/federation.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteRspackConfig } from 'shared-contracts/build/federation';

export default (env) => remoteRspackConfig(path.dirname(fileURLToPath(import.meta.url)), env);
