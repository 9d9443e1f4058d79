/**
 * A third-party OpenID Connect provider for the upstream specs (issue 53): glewlwyd, a C implementation Debian
 * packages (`apt-get install glewlwyd`), built on none of the libraries the gateway uses. It runs on a free loopback
 * port with a configuration and an SQLite database of its own in a temporary folder; its OIDC plugin, users and
 * clients are made through its admin REST API, as its own administration pages make them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endsWithThisProcess, freePort } from './system.js';

const BINARY = '/usr/bin/glewlwyd';
/** Debian's schema and first rows (the `admin` account, password `password`) for SQLite. */
const SCHEMA = '/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3';
const MODULES = '/usr/lib/glewlwyd';
const WEBAPP = '/usr/share/glewlwyd/webapp';
/** The pages' settings; Debian ships them at a path its `webapp/config.json` link does not reach as a file. */
const WEBAPP_CONFIG = ['/etc/glewlwyd/config-2.7.json/config.json', '/etc/glewlwyd/config-2.7.json'];
const ADMIN = { username: 'admin', password: 'password' };

/** Why the specs that need glewlwyd cannot run here; undefined when they can. */
export function glewlwydMissing(): string | undefined {
  for (const file of [BINARY, SCHEMA, `${MODULES}/plugin/libprotocol_oidc.so`, WEBAPP])
    if (!existsSync(file))
      return `glewlwyd is not installed (${file} is missing; .ci/run installs Debian's package)`;
  try {
    execFileSync('sqlite3', ['-version'], { stdio: 'ignore' });
  } catch {
    return 'the sqlite3 command (a dependency of Debian’s glewlwyd package) is missing';
  }
  return undefined;
}

/** An account of the provider. */
export interface GlewlwydUser {
  username: string;
  password: string;
  name: string;
  email: string;
}

/** A client (the gateway, once per token endpoint method). */
export interface GlewlwydClient {
  clientId: string;
  /** Absent for a `private_key_jwt` client. */
  clientSecret?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** `private_key_jwt`: where glewlwyd reads the client's public keys. */
  jwksUri?: string;
}

/** A running glewlwyd. */
export interface Glewlwyd {
  /** The OIDC plugin's issuer (`<url>/api/oidc`). */
  issuer: string;
  /** Where the browser finds its pages (`login.html`). */
  url: string;
  addClient(client: GlewlwydClient): Promise<void>;
  /** What glewlwyd has logged (warnings and errors). */
  logs(): string;
  stop(): Promise<void>;
}

function configFile(port: number, folder: string): string {
  return `port=${port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:${port}"
login_url="login.html"
api_prefix="api"
static_files_path="${path.join(folder, 'webapp')}/"
allow_origin="*"
log_mode="console"
log_level="DEBUG"
cookie_secure=0
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="${MODULES}/user"
client_module_path="${MODULES}/client"
user_auth_scheme_module_path="${MODULES}/scheme"
plugin_module_path="${MODULES}/plugin"
use_secure_connection=false
secure_connection_key_file=""
secure_connection_pem_file=""
hash_algorithm="SHA512"
database = { type = "sqlite3" path = "${path.join(folder, 'glewlwyd.sqlite')}" };
static_files_mime_types = (
  { extension = ".html" mime_type = "text/html" },
  { extension = ".css" mime_type = "text/css" },
  { extension = ".js" mime_type = "application/javascript" },
  { extension = ".json" mime_type = "application/json" },
  { extension = ".png" mime_type = "image/png" },
  { extension = ".ico" mime_type = "image/x-icon" },
  { extension = ".woff" mime_type = "font/woff" },
  { extension = ".woff2" mime_type = "font/woff2" },
  { extension = ".ttf" mime_type = "font/ttf" }
);
`;
}

/** The pages (glewlwyd serves them itself here): Debian's files, and a `config.json` that is a file. */
function webapp(folder: string): void {
  const target = path.join(folder, 'webapp');
  mkdirSync(target);
  for (const entry of readdirSync(WEBAPP))
    if (entry !== 'config.json')
      cpSync(path.join(WEBAPP, entry), path.join(target, entry), { recursive: true, dereference: true });
  const config = WEBAPP_CONFIG.find((file) => existsSync(file) && statSync(file).isFile());
  if (!config) throw new Error(`glewlwyd's webapp config.json is missing (${WEBAPP_CONFIG.join(', ')})`);
  writeFileSync(path.join(target, 'config.json'), readFileSync(config));
}

/** The OIDC plugin: code flow with PKCE, session management (end_session), the three token endpoint methods. */
function oidcPlugin(issuer: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    module: 'oidc',
    name: 'oidc',
    display_name: 'OpenID Connect',
    enabled: true,
    parameters: {
      iss: issuer,
      'jwt-type': 'rsa',
      'jwt-key-size': '256',
      key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      cert: publicKey.export({ type: 'spki', format: 'pem' }),
      'access-token-duration': 3600,
      'refresh-token-duration': 1209600,
      'code-duration': 600,
      'refresh-token-rolling': true,
      'allow-non-oidc': false,
      'auth-type-code-enabled': true,
      'auth-type-token-enabled': false,
      'auth-type-id-token-enabled': true,
      'auth-type-none-enabled': true,
      'auth-type-password-enabled': false,
      'auth-type-client-enabled': false,
      'auth-type-refresh-enabled': true,
      scope: [],
      'additional-parameters': [],
      claims: [],
      'jwks-show': true,
      // Lists client_secret_jwt and private_key_jwt at the token endpoint (the client's jwks_uri).
      'request-parameter-allow': true,
      'request-uri-allow-https-non-secure': true,
      'request-maximum-exp': 3600,
      'secret-type': 'public',
      'name-claim': 'mandatory',
      'email-claim': 'mandatory',
      'scope-claim': 'no',
      'allowed-scope': ['openid', 'profile', 'email'],
      'pkce-allowed': true,
      'pkce-method-plain-allowed': false,
      'session-management-allowed': true,
      'session-cookie-name': 'GLEWLWYD2_OIDC_SID',
      'session-cookie-expiration': 3600,
      // Its end-session page reads the session's clients through the front-channel list: off, it answers 400.
      'front-channel-logout-allowed': true,
      'back-channel-logout-allowed': false,
      'client-pubkey-parameter': 'pubkey',
      'client-jwks-parameter': 'jwks',
      'client-jwks_uri-parameter': 'jwks_uri',
    },
  };
}

/** Starts glewlwyd with `users` (scopes openid, profile and email) and resolves once its OIDC plugin answers. */
export async function startGlewlwyd(options: { users: GlewlwydUser[] }): Promise<Glewlwyd> {
  const folder = mkdtempSync(path.join(tmpdir(), 'e2e-glewlwyd-'));
  execFileSync('sqlite3', [path.join(folder, 'glewlwyd.sqlite')], { input: readFileSync(SCHEMA) });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const issuer = `${url}/api/oidc`;
  writeFileSync(path.join(folder, 'glewlwyd.conf'), configFile(port, folder));
  webapp(folder);
  const child: ChildProcess = spawn(BINARY, ['-c', path.join(folder, 'glewlwyd.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endsWithThisProcess(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () =>
    new Promise<void>((done) => {
      const finish = () => {
        rmSync(folder, { recursive: true, force: true });
        done();
      };
      if (child.exitCode !== null || child.signalCode !== null) return finish();
      child.once('exit', finish);
      child.kill('SIGTERM');
    });

  let cookie = '';
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${url}/api${route}`, {
      method,
      headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`glewlwyd ${method} ${route}: ${response.status} ${text}\n${output}`);
    return { response, text };
  };
  try {
    // Started once the administrator can sign in.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await fetch(`${url}/api/auth/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      }).catch(() => undefined);
      if (answer?.ok) {
        cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
        break;
      }
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`glewlwyd did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The database client module keeps post_logout_redirect_uris (a list) too.
    const clients = JSON.parse((await api('GET', '/mod/client/database')).text) as {
      parameters: { 'data-format': Record<string, unknown> };
    };
    clients.parameters['data-format'].post_logout_redirect_uris = { multiple: true, read: true, write: true };
    await api('PUT', '/mod/client/database', clients);
    await api('PUT', '/mod/client/database/reset');
    // Debian's first rows have the openid scope only.
    for (const scope of ['profile', 'email'])
      await api('POST', '/scope/', {
        name: scope,
        display_name: scope,
        description: `OpenID Connect ${scope}`,
        password_required: false,
      });
    await api('POST', '/mod/plugin/', oidcPlugin(issuer));
    for (const user of options.users)
      await api('POST', '/user/', {
        username: user.username,
        password: user.password,
        name: user.name,
        email: user.email,
        scope: ['openid', 'profile', 'email'],
        enabled: true,
      });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    issuer,
    url,
    async addClient(client) {
      await api('POST', '/client/', {
        client_id: client.clientId,
        name: client.clientId,
        confidential: true,
        enabled: true,
        ...(client.clientSecret ? { password: client.clientSecret } : {}),
        redirect_uri: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        authorization_type: ['code', 'refresh_token'],
        token_endpoint_auth_method: [client.tokenEndpointAuthMethod],
        scope: ['openid', 'profile', 'email'],
        ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
      });
    },
    logs: () => output,
    stop,
  };
}
