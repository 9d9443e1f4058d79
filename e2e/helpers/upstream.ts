/**
 * A second OpenID Connect provider for the external sign-in specs: the gateway's test upstream
 * (gateway/src/testing/upstream-idp.ts, oidc-provider with its own users and sign-in form) in a process of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { endsWithThisProcess, REPO } from './system.js';

const MAIN = path.join(REPO, 'gateway', 'src', 'testing', 'upstream-idp.main.ts');

/** An account of the upstream. */
export interface UpstreamUser {
  username: string;
  password: string;
  sub: string;
  name?: string;
  email?: string;
  amr?: string[];
}

/** A running upstream provider. */
export interface Upstream {
  issuer: string;
  stop(): Promise<void>;
}

/** Starts the upstream with its users and one client (the gateway) and resolves once it listens. */
export function startUpstream(options: {
  title: string;
  users: UpstreamUser[];
  clients: {
    clientId: string;
    clientSecret: string;
    redirectUris: string[];
    postLogoutRedirectUris: string[];
  }[];
}): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: path.join(REPO, 'gateway'),
      env: { ...process.env, UPSTREAM_IDP_CONFIG: JSON.stringify({ ...options, host: '127.0.0.1' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    endsWithThisProcess(child);
    let output = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the upstream did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const issuer = /upstream-idp listening at (\S+)/.exec(output)?.[1];
      if (issuer) {
        clearTimeout(timer);
        resolve({
          issuer,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the upstream exited with ${String(code)}:\n${output}`));
    });
  });
}
