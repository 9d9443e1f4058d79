/**
 * Global setup of the browser suites: a temporary DATA_DIR, the freshly built remotes published into it with the
 * gateway's releases CLI, and the built gateway on the port the config picked. Returns the teardown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_ENV, runReleases, startGateway } from './system.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env[E2E_ENV.port]);
  if (!port) throw new Error(`${E2E_ENV.port} is not set (playwright.config.ts picks it)`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hr-identity-e2e-'));
  runReleases(['publish-all'], dataDir);
  const gateway = await startGateway(dataDir, port);
  process.env[E2E_ENV.baseUrl] = gateway.url;
  process.env[E2E_ENV.dataDir] = dataDir;
  return async () => {
    await gateway.stop();
    if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
}
