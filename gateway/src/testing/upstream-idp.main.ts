/**
 * The tests' upstream OpenID Connect provider as a process of its own, for the e2e specs and the optional demo
 * upstream (README "External identity providers"): `node --import tsx gateway/src/testing/upstream-idp.main.ts`.
 * Configuration as JSON in UPSTREAM_IDP_CONFIG ({@link UpstreamIdpOptions}: users, clients, host, port, title);
 * prints `upstream-idp listening at <issuer>` once it answers; SIGTERM stops it.
 */
import { startUpstreamIdp, type UpstreamIdpOptions } from './upstream-idp.js';

const options = JSON.parse(process.env.UPSTREAM_IDP_CONFIG ?? '{}') as UpstreamIdpOptions;
const upstream = await startUpstreamIdp(options);
console.log(`upstream-idp listening at ${upstream.issuer}`);
const stop = () => {
  void upstream.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
