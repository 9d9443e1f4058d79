/**
 * The admin CLI's tests run its commands as an operator would: against a migrated store on a SQLite file in a
 * temporary folder, reading the lines printed and the rows stored.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Store } from '../store/store.js';
import { openTestBackends } from './backends.js';
import { runAdminCommand } from '../cli/admin.js';
import { UsageError } from '../cli/cli-support.js';

/** A temporary store with the admin CLI pointed at it. */
export interface AdminHarness {
  store: Store;
  /** The temporary folder (DATA_DIR) holding the SQLite file. */
  dir: string;
  /** Runs `admin …args`; resolves to the lines printed, joined with newlines. */
  run(...args: string[]): Promise<string>;
  /**
   * Runs `admin …args`, which must be refused as an operator's mistake; resolves to the one line printed for it
   * (`error: …`, as `runCli` prints a {@link UsageError}).
   */
  refused(...args: string[]): Promise<string>;
  close(): Promise<void>;
}

/** Opens a fresh store in a temporary folder; `close` removes it. */
export async function openAdminHarness(): Promise<AdminHarness> {
  const backends = await openTestBackends({ sql: 'sqlite', tempPrefix: 'admin-cli-test-' });
  const { store, dir } = backends;
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    await runAdminCommand(store, args, (line) => lines.push(line));
    return lines.join('\n');
  };
  return {
    store,
    dir,
    run,
    async refused(...args) {
      let error: unknown;
      try {
        await run(...args);
      } catch (e) {
        error = e;
      }
      if (!(error instanceof UsageError))
        throw new Error(`admin ${args.join(' ')} was not refused as a mistake: ${String(error)}`);
      if (error.message.includes('\n'))
        throw new Error(`admin ${args.join(' ')} printed more than one line:\n${error.message}`);
      return `error: ${error.message}`;
    },
    close: () => backends.close(),
  };
}

const GATEWAY_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** What the admin process printed and its exit code. */
export interface AdminProcessResult {
  status: number | null;
  stdout: string;
  /** Standard error without the runtime's own warnings (see below). */
  stderr: string;
}

/** Runs the admin CLI as a process (its source, through tsx), the way `npm run admin -- …args` does. */
export function runAdminProcess(args: string[], env: NodeJS.ProcessEnv): Promise<AdminProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
      cwd: GATEWAY_DIR,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      // oidc-provider warns on stderr when Node.js is older than it supports; that is the runtime, not the CLI.
      const own = stderr
        .split('\n')
        .filter((line) => !line.startsWith('oidc-provider WARNING'))
        .join('\n');
      resolve({ status, stdout, stderr: own });
    });
  });
}
