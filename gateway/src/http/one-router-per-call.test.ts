import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** An Express router or route as its stack shows it (Express 5 keeps no public types for these). */
interface Layer {
  route?: { path: string };
  handle?: { stack?: Layer[] };
}

/** Every route path below a router, however deeply its routers nest. */
function routePaths(stack: Layer[]): string[] {
  return stack.flatMap((layer) =>
    layer.route ? [layer.route.path] : layer.handle?.stack ? routePaths(layer.handle.stack) : [],
  );
}

describe('the account API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ backend: 'sqlite' });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers each call from exactly one router (issue 42: no call left to mount order)', () => {
    const appStack = (gw.app as unknown as { router: { stack: Layer[] } }).router.stack;
    // The account API is the router whose area routers serve Login.
    const accountApi = appStack
      .map((layer) => layer.handle?.stack)
      .find((stack) => stack?.some((child) => child.handle?.stack && routePaths([child]).includes('/Login')));
    expect(accountApi).toBeDefined();
    const owners = new Map<string, number>();
    const areas = accountApi!.filter((layer) => layer.handle?.stack);
    expect(areas.length).toBeGreaterThan(8);
    areas.forEach((area, index) => {
      for (const path of new Set(routePaths([area]).map((p) => p.toLowerCase()))) {
        const owner = owners.get(path);
        expect({ path, routers: owner === undefined ? [index] : [owner, index] }).toEqual({
          path,
          routers: [index],
        });
        owners.set(path, index);
      }
    });
    for (const call of [
      '/sendotp',
      '/loginwith2fa',
      '/generatepin',
      '/changeexpiredpassword',
      '/selectcustomer',
    ])
      expect(owners.has(call)).toBe(true);
  });
});
