/**
 * SIGTERM behind a balancer (issue 41): /readyz turns 503 for the drain period while every other request is still
 * answered, and only then does the listener close.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { createAppServer } from './app-server.js';
import { Drain } from './drain.js';

const gateways: TestGateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gw) => gw.close()));
});

describe('drain', () => {
  it('answers /readyz 503 and still serves requests for the drain period, then stops listening', async () => {
    const gw = await startTestGateway();
    gateways.push(gw);
    const drain = new Drain({ drainMs: 800, closeTimeoutMs: 5000 });
    const server = createAppServer(gw.appWith({ draining: drain.draining }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const closed = drain.run(server);
    const during = await fetch(`${url}/readyz`);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ status: 'draining' });
    // The balancer may still send requests until its next check: they are answered, not refused.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/api/Account/User`)).status).toBe(200);

    expect(await closed).toBe('closed');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('with no drain period (DRAIN_SECONDS=0) closes at once', async () => {
    const gw = await startTestGateway();
    gateways.push(gw);
    const drain = new Drain({ drainMs: 0 });
    const server = createAppServer(gw.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const started = Date.now();
    expect(await drain.run(server)).toBe('closed');
    expect(Date.now() - started).toBeLessThan(500);
    expect(drain.draining()).toBe(true);
  });
});
