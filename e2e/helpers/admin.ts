/** The gateway's admin CLI against this worker's harness store, for specs that need users of their own. */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEMO_PASSWORD, type DemoUser } from './demo-users.js';
import { GATEWAY_DIST, gatewayEnv, systemUnderTest } from './system.js';

/**
 * Runs `admin <args>` on the harness's DATA_DIR, or on another gateway's store when `env` is given (a suite's own
 * identity service: `IdentityService.env`); throws with its output when it fails.
 */
export function runAdmin(args: string[], env?: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, [path.join(GATEWAY_DIST, 'cli', 'admin.js'), ...args], {
    env: env ?? harnessEnv(),
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`admin ${args.join(' ')} failed (${String(result.status)}):\n${output}`);
  return output;
}

function harnessEnv(): NodeJS.ProcessEnv {
  const { baseUrl, dataDir } = systemUnderTest();
  return gatewayEnv(dataDir, Number(new URL(baseUrl).port));
}

/**
 * Adds a user of the spec's own (a fresh name, the demo password), with extra `users add` flags; on the harness's
 * store unless `env` names another gateway's.
 */
export function addUser(prefix: string, flags: string[] = [], env?: NodeJS.ProcessEnv): DemoUser {
  const username = `${prefix}-${randomBytes(4).toString('hex')}`;
  const email = `${username}@e2e.test`;
  runAdmin(
    ['users', 'add', '--username', username, '--email', email, '--password', DEMO_PASSWORD, ...flags],
    env,
  );
  return { username, email, password: DEMO_PASSWORD };
}
