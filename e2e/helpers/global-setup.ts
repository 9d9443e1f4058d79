/**
 * Global setup of the browser suites: one system per worker (playwright.config.ts `workers`), each with a temporary
 * DATA_DIR, the freshly built remotes published into it with the gateway's releases CLI, and the built gateway on the
 * port picked for that worker (demo data seeded). Specs in different workers share nothing: a release published, a
 * partner changed or a demo user locked out in one worker's system is not seen by the other. Returns the teardown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import {
  E2E_ENV,
  pickSystemPorts,
  runReleases,
  startGateway,
  systemEnv,
  type RunningGateway,
} from './system.js';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  // `--workers` on the command line may ask for more workers than the config picked ports for.
  await pickSystemPorts(config.workers);
  const dataDirs: string[] = [];
  const started = await Promise.allSettled(
    Array.from({ length: config.workers }, async (_, index) => {
      const port = Number(process.env[systemEnv(E2E_ENV.port, index)]);
      const dataDir = mkdtempSync(path.join(tmpdir(), `hr-identity-e2e-${index}-`));
      dataDirs.push(dataDir);
      runReleases(['publish-all'], dataDir);
      const gateway = await startGateway(dataDir, port);
      process.env[systemEnv(E2E_ENV.baseUrl, index)] = gateway.url;
      process.env[systemEnv(E2E_ENV.dataDir, index)] = dataDir;
      return gateway;
    }),
  );
  const gateways = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const teardown = async () => {
    await Promise.all(gateways.map((gateway: RunningGateway) => gateway.stop()));
    if (!process.env.E2E_KEEP_DATA)
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  return teardown;
}
