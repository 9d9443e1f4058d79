import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:net';
import * as oidc from 'openid-client';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import { startTokenEndpoint, type TokenEndpointStub } from '../../testing/token-endpoint-stub.js';
import { startUpstreamIdp, type UpstreamIdp } from '../../testing/upstream-idp.js';
import { chooseTokenAuthMethod, probeUpstream, Upstreams } from './upstreams.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Upstreams (discovery of the external identity providers)', () => {
  let backends: TestBackends | undefined;
  let upstream: UpstreamIdp | undefined;
  let upstreams: Upstreams | undefined;
  afterEach(async () => {
    upstreams?.close();
    await upstream?.close();
    await backends?.close();
  });

  it('a provider that does not answer is logged, not fatal; once it answers it is discovered; a change is re-read', async () => {
    backends = await openTestBackends({ sql: 'sqlite', tempPrefix: 'upstreams-test-' });
    const port = await freePort();
    const issuer = `http://localhost:${port}`;
    await backends.store.identityProviders.create({
      id: 'late',
      name: 'Late',
      issuer,
      clientId: 'c',
      clientSecret: 's',
    });
    const warnings: unknown[] = [];
    upstreams = new Upstreams({
      providers: backends.store.identityProviders,
      logger: { warn: (...args: unknown[]) => warnings.push(args), info: () => undefined },
      timeoutSeconds: 2,
    });
    upstreams.start();
    expect(await upstreams.get('late')).toBeUndefined();
    expect(warnings.length).toBeGreaterThan(0);

    upstream = await startUpstreamIdp({ port });
    const found = await upstreams.get('late');
    expect(found?.config.serverMetadata().issuer).toBe(issuer);
    expect(found?.config.serverMetadata().end_session_endpoint).toBe(`${issuer}/session/end`);

    // Another issuer (the admin CLI changed it): discovered again, not served from the cache.
    await backends.store.identityProviders.update('late', { issuer: 'http://localhost:9' });
    expect(await upstreams.get('late')).toBeUndefined();
    expect(await upstreams.get('nobody')).toBeUndefined();
  });
});

// A client id and secret with each character RFC 6749 §2.3.1's form encoding changes and a provider may not decode.
const CLIENT_ID = 'hr-identity.v2_x~y';
const CLIENT_SECRET = 's3cr-et_with.every~one';

describe('the token endpoint request per authentication method (ADR 0064)', () => {
  let backends: TestBackends | undefined;
  let provider: TokenEndpointStub | undefined;
  let upstreams: Upstreams | undefined;
  afterEach(async () => {
    upstreams?.close();
    await provider?.close();
    await backends?.close();
  });

  /** Redeems a code through openid-client as the callback does: the token endpoint's one request. */
  async function tokenRequest(
    methods: string[] | undefined,
    tokenAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt',
  ) {
    backends = await openTestBackends({ sql: 'sqlite', tempPrefix: 'upstreams-auth-test-' });
    provider = await startTokenEndpoint(methods);
    await backends.store.identityProviders.create({
      id: 'hr',
      name: 'HR',
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      ...(tokenAuthMethod ? { tokenAuthMethod } : {}),
    });
    upstreams = new Upstreams({ providers: backends.store.identityProviders, timeoutSeconds: 2 });
    const found = (await upstreams.get('hr'))!;
    const refused = await oidc
      .authorizationCodeGrant(found.config, new URL('http://localhost/cb?code=the-code&state=st'), {
        expectedState: 'st',
        pkceCodeVerifier: 'a-verifier-of-enough-length-for-pkce-0123456789',
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(oidc.ResponseBodyError);
    expect(provider.requests).toHaveLength(1);
    const stored = await backends.store.identityProviders.findById('hr');
    return { found, request: provider.requests[0]!, stored: stored! };
  }

  it('client_secret_basic: the Authorization header carries the id and secret form-encoded (RFC 6749 §2.3.1)', async () => {
    const { found, request, stored } = await tokenRequest(['client_secret_basic']);
    expect(found.tokenAuthMethod).toBe('client_secret_basic');
    expect(stored.tokenAuthMethodInUse).toBe('client_secret_basic');
    const [scheme, credentials] = request.authorization!.split(' ');
    expect(scheme).toBe('Basic');
    expect(Buffer.from(credentials!, 'base64').toString()).toBe(
      'hr%2Didentity%2Ev2%5Fx%7Ey:s3cr%2Det%5Fwith%2Eevery%7Eone',
    );
    expect(request.form.get('client_secret')).toBeNull();
    expect(request.form.get('code')).toBe('the-code');
  });

  it('client_secret_post: id and secret as form fields, exactly as given, and no Authorization header', async () => {
    const { found, request } = await tokenRequest(['client_secret_basic', 'client_secret_post']);
    expect(found.tokenAuthMethod).toBe('client_secret_post');
    expect(request.authorization).toBeUndefined();
    expect(request.form.get('client_id')).toBe(CLIENT_ID);
    expect(request.form.get('client_secret')).toBe(CLIENT_SECRET);
  });

  it('private_key_jwt: a client assertion signed with the stored key, iss = sub = client id, aud the token endpoint', async () => {
    const { found, request } = await tokenRequest(['private_key_jwt', 'client_secret_basic']);
    expect(found.tokenAuthMethod).toBe('private_key_jwt');
    expect(request.authorization).toBeUndefined();
    expect(request.form.get('client_secret')).toBeNull();
    expect(request.form.get('client_id')).toBe(CLIENT_ID);
    expect(request.form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    const assertion = request.form.get('client_assertion')!;
    const [header, payload, signature] = assertion.split('.');
    const { publicJwk } = (await backends!.store.identityProviders.signingKey('hr'))!;
    const verified = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      createPublicKey({ key: publicJwk, format: 'jwk' }),
      Buffer.from(signature!, 'base64url'),
    );
    expect(verified).toBe(true);
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
      alg: 'RS256',
      kid: publicJwk.kid,
    });
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    expect(claims).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID, aud: `${provider!.issuer}/token` });
    expect(typeof claims.jti).toBe('string');
    expect((claims.jti as string).length).toBeGreaterThanOrEqual(16);
    expect(claims.exp as number).toBeGreaterThan(now);
    expect(claims.exp as number).toBeLessThanOrEqual(now + 120);
  });

  it("the operator's choice wins over the discovery order", async () => {
    const { found, request } = await tokenRequest(
      ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      'client_secret_basic',
    );
    expect(found.tokenAuthMethod).toBe('client_secret_basic');
    expect(request.authorization).toMatch(/^Basic /);
  });

  it("a provider that lists no methods gets RFC 8414's default, client_secret_basic", async () => {
    const { found } = await tokenRequest(undefined);
    expect(found.tokenAuthMethod).toBe('client_secret_basic');
  });
});

describe('chooseTokenAuthMethod and probeUpstream (discovery choice, ADR 0064)', () => {
  it('answers the first of post, private_key_jwt, basic that the provider lists; basic last', () => {
    expect(chooseTokenAuthMethod(undefined, ['client_secret_basic', 'private_key_jwt'])).toEqual({
      method: 'private_key_jwt',
    });
    expect(
      chooseTokenAuthMethod(undefined, ['client_secret_basic', 'private_key_jwt', 'client_secret_post']),
    ).toEqual({ method: 'client_secret_post' });
    expect(chooseTokenAuthMethod(undefined, ['client_secret_jwt', 'client_secret_basic'])).toEqual({
      method: 'client_secret_basic',
    });
    expect(chooseTokenAuthMethod(undefined, undefined)).toEqual({ method: 'client_secret_basic' });
  });

  it('an explicit choice wins when listed; one the provider does not list is refused', () => {
    expect(
      chooseTokenAuthMethod('client_secret_basic', ['client_secret_post', 'client_secret_basic']),
    ).toEqual({ method: 'client_secret_basic' });
    expect(chooseTokenAuthMethod('private_key_jwt', ['client_secret_post'])).toEqual({
      unsupported: 'private_key_jwt',
    });
    expect(chooseTokenAuthMethod('client_secret_post', undefined)).toEqual({
      unsupported: 'client_secret_post',
    });
  });

  it('probeUpstream reads the discovery: the method, or the field that is wrong', async () => {
    const provider = await startTokenEndpoint(['client_secret_post', 'client_secret_basic']);
    try {
      const settings = { issuer: provider.issuer, clientId: 'c', clientSecret: 's' };
      expect(await probeUpstream({ ...settings, tokenAuthMethod: undefined })).toEqual({
        ok: true,
        tokenAuthMethod: 'client_secret_post',
        supported: ['client_secret_post', 'client_secret_basic'],
      });
      expect(await probeUpstream({ ...settings, tokenAuthMethod: 'private_key_jwt' })).toEqual({
        ok: false,
        field: 'tokenAuthMethod',
        method: 'private_key_jwt',
        supported: ['client_secret_post', 'client_secret_basic'],
      });
      const gone = await probeUpstream(
        { ...settings, issuer: 'http://localhost:9', tokenAuthMethod: undefined },
        2,
      );
      expect(gone).toMatchObject({ ok: false, field: 'issuer' });
    } finally {
      await provider.close();
    }
  });
});
