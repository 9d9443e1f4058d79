/**
 * The demo relying party for the OIDC suites: registers a client for it through the gateway's admin CLI (as an
 * operator would) and runs the built portal (`examples/payroll-portal/dist/server.js`) on a free port.
 *
 * `harnessIdentityService()` is this worker's harness gateway (what the OIDC spec uses); `startIdentityService` runs a
 * separate built gateway on a free port with a temporary DATA_DIR, for a suite that needs one of its own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAdmin } from './admin.js';
import { DEMO_LANGUAGES_WITH_ARABIC } from './partners.js';
import { endsWithThisProcess, freePort, gatewayEnv, systemUnderTest } from './system.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const GATEWAY_DIST = path.join(REPO, 'gateway', 'dist');
const PORTAL_SERVER = path.join(REPO, 'examples', 'payroll-portal', 'dist', 'server.js');

/** Starts a process and resolves when a line of its output matches `ready`; rejects when it exits first. */
function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  label: string,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    endsWithThisProcess(child);
    let output = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${label} did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${String(code)}:\n${output}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A running identity service (built gateway). */
export interface IdentityService {
  url: string;
  /** DATA_DIR and friends: what the admin CLI needs to reach the same store. */
  env: NodeJS.ProcessEnv;
  /** What the gateway has written since it started listening (`startIdentityService` only). */
  logs?(): string;
  stop(): Promise<void>;
}

/**
 * This worker's gateway of the harness (global-setup, `systemUnderTest()`) as an {@link IdentityService}; `stop`
 * does nothing, the harness owns it.
 */
export function harnessIdentityService(): IdentityService {
  const { baseUrl, dataDir } = systemUnderTest();
  return {
    url: baseUrl,
    env: gatewayEnv(dataDir, Number(new URL(baseUrl).port)),
    stop: () => Promise.resolve(),
  };
}

/**
 * Runs the built gateway on a free port with a fresh DATA_DIR (demo data seeded, remotes published); `extraEnv`
 * adds configuration (e.g. a one-minute idle timeout).
 */
export async function startIdentityService(extraEnv: Record<string, string> = {}): Promise<IdentityService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-identity-'));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    SEED_DEMO_DATA: 'true',
    // No load balancer waits on its /readyz: stopped at the end of a spec, it ends at once rather than after the
    // default drain's 10 s (issue 54: twenty such stops were three minutes of the browser suites).
    DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  // Suites must not inherit a developer's database settings.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const published = spawnSync(
    process.execPath,
    [path.join(GATEWAY_DIST, 'cli', 'releases.js'), 'publish-all'],
    {
      env,
      encoding: 'utf8',
    },
  );
  if (published.status !== 0) throw new Error(`publishing the remotes failed:\n${published.stderr}`);
  const child = await startProcess(
    process.execPath,
    [path.join(GATEWAY_DIST, 'server.js')],
    env,
    /Identity service at/,
    'gateway',
  );
  let logs = '';
  const keep = (chunk: Buffer) => {
    logs += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    url,
    env,
    logs: () => logs,
    async stop() {
      await stopProcess(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A running payroll portal registered as a client of the identity service. */
export interface Portal {
  url: string;
  clientId: string;
  stop(): Promise<void>;
}

/**
 * Registers a public PKCE client for a portal on a free port (exact redirect, post-logout and back-channel URIs)
 * with the admin CLI, then starts the portal against `issuer`.
 */
export async function startPortal(options: {
  issuer: string;
  gatewayEnv: NodeJS.ProcessEnv;
}): Promise<Portal> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const clientId = `portal-e2e-${randomBytes(4).toString('hex')}`;
  const added = spawnSync(
    process.execPath,
    [
      path.join(GATEWAY_DIST, 'cli', 'admin.js'),
      'clients',
      'add',
      '--id',
      clientId,
      '--name',
      'Payroll portal',
      '--public',
      '--redirect-uri',
      `${url}/callback`,
      '--post-logout-uri',
      `${url}/`,
      '--backchannel-logout-uri',
      `${url}/backchannel-logout`,
    ],
    { env: options.gatewayEnv, encoding: 'utf8' },
  );
  if (added.status !== 0)
    throw new Error(`registering the portal client failed:\n${added.stderr}${added.stdout}`);
  const child = await startProcess(
    process.execPath,
    [PORTAL_SERVER],
    {
      ...process.env,
      PORT: String(port),
      ISSUER: options.issuer,
      CLIENT_ID: clientId,
      REDIRECT_URI: `${url}/callback`,
      POST_LOGOUT_REDIRECT_URI: `${url}/`,
    },
    /payroll-portal listening/,
    'payroll-portal',
  );
  return { url, clientId, stop: () => stopProcess(child) };
}

/**
 * A gateway of a spec's own whose demo partner also offers Arabic, for right-to-left checks that must not change
 * the shared run's partner.
 */
export async function startIdentityServiceWithArabic(): Promise<IdentityService> {
  const identity = await startIdentityService();
  runAdmin(
    ['partners', 'update', '--id', 'demo', '--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'],
    identity.env,
  );
  return identity;
}
