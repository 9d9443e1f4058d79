import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import { startUpstreamIdp, type UpstreamIdp } from '../../testing/upstream-idp.js';
import { Upstreams } from './upstreams.js';

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
