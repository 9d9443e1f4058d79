import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { ACCOUNT_CALL_ACCESS } from './account-access.js';

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
      // The security centre is one of the account API's routers (issue 50), under its gate and guard.
      '/securitycentreview',
      '/signinagain',
      '/confirmitsyou',
    ])
      expect(owners.has(call)).toBe(true);
    // Every routed call declares who may call it, and every declared call is routed (ADR 0052).
    const declared = Object.keys(ACCOUNT_CALL_ACCESS).map((call) => `/${call.toLowerCase()}`);
    expect([...owners.keys()].filter((path) => !declared.includes(path))).toEqual([]);
    // partner.router.ts answers its two calls from one middleware (by call name), not from route layers.
    const servedByMiddleware = ['/getpartnermetadata', '/getpartnerlogo'];
    expect(declared.filter((path) => !owners.has(path) && !servedByMiddleware.includes(path))).toEqual([]);
  });
});
