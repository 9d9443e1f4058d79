import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** A window shorter than the default ten minutes, so a refusal within them can only come from the setting. */
const WINDOW_MS = 60_000;

/**
 * RECENT_SIGN_IN_SECONDS (S21, ADR 0036) is one window for every change of how one signs in: the security centre,
 * the 2FA set-up wizard and passkey registration from the account all allow a change within it and refuse it with
 * the same 403 `recentSignInRequired` once it has passed.
 */
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `recent sign-in window (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, config: { recentSignInMs: WINDOW_MS } });
      });
      afterAll(async () => {
        await gw.close();
      });

      /** The answers of a change in each place that asks for a recent sign-in. */
      async function answers(b: Awaited<ReturnType<typeof browser>>) {
        const profile = await b.post('/api/Account/UpdateProfile', { displayName: 'Ada' });
        const setup = await b.agent.get('/api/Account/Setup2FAView');
        const passkey = await b.post('/api/Account/CredentialOptions?displayName=Laptop');
        return [profile, setup, passkey].map((res) => ({
          status: res.status,
          refused: (res.body as { errors?: unknown }).errors,
        }));
      }

      it('allows changes within the configured window and refuses them all once it has passed', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        expect((await b.signIn(user.username)).status).toBe(209);
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        // The page is told when the window ends: the sign-in (whole seconds) plus the configured window.
        const left = Number(view.body.recentSignInUntil) - gw.clock.now();
        expect(left).toBeGreaterThan(WINDOW_MS - 1_000);
        expect(left).toBeLessThanOrEqual(WINDOW_MS);

        gw.clock.advance(WINDOW_MS - 5_000);
        expect(await answers(b)).toEqual([
          { status: 200, refused: undefined },
          { status: 200, refused: undefined },
          { status: 200, refused: undefined },
        ]);

        // Past the window, well within the default ten minutes.
        gw.clock.advance(6_000);
        const stale = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(stale.body.recentSignInUntil).toBe(0);
        const refused = { status: 403, refused: { '': ['recentSignInRequired'] } };
        expect(await answers(b)).toEqual([refused, refused, refused]);

        // A new full sign-in opens the window again.
        const again = await browser(gw.app);
        expect((await again.signIn(user.username)).status).toBe(209);
        expect((await answers(again)).map((a) => a.status)).toEqual([200, 200, 200]);
      });
    },
  );
}
