/**
 * An optional demo upstream for `npm start` (README "Vendor and external sign-in"): the tests' upstream OpenID
 * Connect provider on http://localhost:8090 with two accounts, registered with the running demo gateway's store
 * through the admin CLI as a vendor provider (`contoso`) and a login provider of the demo partner (`social`), whose
 * sign-in page then shows login providers. `npm run demo-upstream -w gateway`; Ctrl-C stops it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startUpstreamIdp } from './upstream-idp.js';

const port = Number(process.env.DEMO_UPSTREAM_PORT ?? 8090);
const publicUrl = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const secret = 'demo-upstream-client-secret';
const admin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'admin.js');

function run(args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(process.execPath, [admin, ...args], { encoding: 'utf8', env: process.env });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

const upstream = await startUpstreamIdp({
  port,
  host: 'localhost',
  title: 'Contoso ID',
  clients: [
    {
      clientId: 'hr-identity',
      clientSecret: secret,
      redirectUris: ['contoso', 'social'].map((id) => `${publicUrl}/signin/${id}/callback`),
      postLogoutRedirectUris: [`${publicUrl}/account/loggedout`],
    },
  ],
  users: [
    {
      username: 'vera',
      password: 'vera-pw',
      sub: 'demo-vera',
      name: 'Vera Vendor',
      email: 'vera@contoso.example',
    },
    { username: 'lee', password: 'lee-pw', sub: 'demo-lee', name: 'Lee Linker', email: 'lee@social.example' },
  ],
});
const common = ['--issuer', upstream.issuer, '--client-id', 'hr-identity', '--client-secret', secret];
const providers = [
  ['--id', 'contoso', '--name', 'Contoso Support', ...common, '--roles', 'VENDOR_SUPPORT,VENDOR_OPERATIONS'],
  ['--id', 'social', '--name', 'Social ID', ...common, '--partner', 'demo'],
];
for (const [index, options] of providers.entries()) {
  const added = run(['idps', 'add', ...options, ...(index === 0 ? ['--vendor'] : [])]);
  if (!added.ok) {
    const updated = run(['idps', 'update', ...options]);
    if (!updated.ok) console.error(added.output, updated.output);
  }
}
const partner = run(['partners', 'update', '--id', 'demo', '--show-login-providers', 'true']);
if (!partner.ok) console.error(partner.output);
console.log(`demo upstream at ${upstream.issuer} (accounts vera / vera-pw and lee / lee-pw)
  vendor sign-in:  ${publicUrl}/account/login/vendor?vendorId=contoso
  login provider:  ${publicUrl}/account/login → "Sign in with Social ID" (link lee to a demo user once)`);
const stop = () => void upstream.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
