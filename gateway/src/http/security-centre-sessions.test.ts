/**
 * The security centre's "Where you are signed in" (issue 49, ADR 0049): sessions people can tell apart — browser,
 * system and device type from the user agent, a coarse network from the address the service saw behind its trusted
 * proxy, first and last seen — this browser's first, the rest newest first, and ended or expired sessions never
 * listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeUserAgent, type AccountSession } from 'shared-contracts';
import type { User } from '../store/user.repository.js';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const MINUTE = 60_000;
const IDLE_MS = 30 * MINUTE;
const ABSOLUTE_MS = 12 * 60 * MINUTE;

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `security centre sessions (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({
          backend: backend.name,
          config: { sessionIdleMs: IDLE_MS, sessionAbsoluteMs: ABSOLUTE_MS },
        });
      });
      afterAll(async () => {
        await gw.close();
      });

      /** A browser signed in as `user`, from `ip` (as the trusted loopback proxy forwards it) with `userAgent`. */
      async function signedIn(
        user: User,
        { ip, userAgent, rememberMe = false }: { ip?: string; userAgent?: string; rememberMe?: boolean } = {},
      ) {
        const b = await browser(gw.app, ip);
        if (userAgent) b.agent.set('User-Agent', userAgent);
        const res = await b.signIn(user.username, undefined, { rememberMe });
        expect(res.status).toBe(209);
        return b;
      }

      async function sessionsSeenBy(b: Awaited<ReturnType<typeof signedIn>>): Promise<AccountSession[]> {
        return (await b.agent.get('/api/Account/SecurityCentreView').expect(200)).body
          .sessions as AccountSession[];
      }

      it('tells the sessions apart: browser, system and device type, a coarse network per address family, never the full address', async () => {
        const user = await gw.addUser();
        const windows = await signedIn(user, { ip: '203.0.113.57', userAgent: FIREFOX_WINDOWS });
        await signedIn(user, { ip: '203.0.113.200', userAgent: SAFARI_IPHONE });
        await signedIn(user, { ip: '2001:db8:1:2::99', userAgent: CHROME_ANDROID_TABLET });
        await signedIn(user, { ip: '192.168.1.23' });
        await signedIn(user, { ip: 'fd12:3456:789a::1' });
        await signedIn(user, { ip: 'fe80::1' });
        await signedIn(user, { ip: '198.51.100.9' });
        await signedIn(user, { ip: '::ffff:198.51.100.10' });
        await signedIn(user);
        const sessions = await sessionsSeenBy(windows);
        expect(sessions).toHaveLength(9);
        const current = sessions[0]!;
        expect(current.current).toBe(true);
        expect(describeUserAgent(current.userAgent)).toEqual({
          browser: 'Firefox',
          os: 'Windows',
          deviceType: 'desktop',
        });
        const devices = sessions.map((s) => describeUserAgent(s.userAgent)?.deviceType);
        expect(devices).toEqual(expect.arrayContaining(['desktop', 'phone', 'tablet']));
        // IPv4 as its /24, IPv6 as its /48; private, unique-local and link-local as "local network"; loopback (the
        // supertest client, no forwarded address) as the service's own machine; an IPv4-mapped address as IPv4.
        expect(sessions.map((s) => s.network)).toEqual(
          expect.arrayContaining([
            { kind: 'network', prefix: '203.0.113.x' },
            { kind: 'network', prefix: '2001:db8:1::/48' },
            { kind: 'localNetwork' },
            { kind: 'network', prefix: '198.51.100.x' },
            { kind: 'thisDevice' },
          ]),
        );
        expect(sessions.filter((s) => s.network?.kind === 'localNetwork')).toHaveLength(3);
        expect(sessions.filter((s) => s.network?.prefix === '198.51.100.x')).toHaveLength(2);
        expect(current.network).toEqual({ kind: 'network', prefix: '203.0.113.x' });
        // The iPhone on the same /24 is marked as this browser's network; nothing else is, nor this browser itself.
        const same = sessions.filter((s) => s.sameNetworkAsCurrent);
        expect(same.map((s) => describeUserAgent(s.userAgent)?.deviceType)).toEqual(['phone']);
        // No full address anywhere in what the page is sent.
        const body = JSON.stringify(sessions);
        for (const full of [
          '203.0.113.57',
          '203.0.113.200',
          '2001:db8:1:2::99',
          '192.168.1.23',
          'fe80::1',
          '127.0.0.1',
        ])
          expect(body).not.toContain(full);
      });

      it('lists this browser first, then the others by last activity, newest first, with first and last seen', async () => {
        const user = await gw.addUser();
        const first = await signedIn(user, { userAgent: FIREFOX_WINDOWS });
        gw.clock.advance(MINUTE);
        const second = await signedIn(user, { userAgent: SAFARI_IPHONE });
        gw.clock.advance(MINUTE);
        const third = await signedIn(user, { userAgent: CHROME_ANDROID_TABLET });
        gw.clock.advance(MINUTE);
        // The first browser is used again: it is now the most recently active.
        await first.agent.get('/api/Account/SecurityCentreView').expect(200);
        gw.clock.advance(MINUTE);

        const seenBySecond = await sessionsSeenBy(second);
        expect(seenBySecond.map((s) => describeUserAgent(s.userAgent)?.browser)).toEqual([
          'Safari',
          'Firefox',
          'Chrome',
        ]);
        expect(seenBySecond.map((s) => s.current)).toEqual([true, false, false]);
        const firefox = seenBySecond[1]!;
        // First seen at its sign-in, last seen at its latest request.
        expect(firefox.lastSeenAt - firefox.createdAt).toBe(3 * MINUTE);
        expect(seenBySecond[2]!.lastSeenAt).toBe(seenBySecond[2]!.createdAt);

        const seenByThird = await sessionsSeenBy(third);
        expect(seenByThird.map((s) => describeUserAgent(s.userAgent)?.browser)).toEqual([
          'Chrome',
          'Safari',
          'Firefox',
        ]);
      });

      it('never lists a signed-out, revoked, idle-expired or absolutely expired session', async () => {
        const user = await gw.addUser();
        const keeper = await signedIn(user, { rememberMe: true, userAgent: FIREFOX_WINDOWS });
        const signedOut = await signedIn(user, { userAgent: SAFARI_IPHONE });
        await signedIn(user, { userAgent: CHROME_ANDROID_TABLET });
        expect(await sessionsSeenBy(keeper)).toHaveLength(3);

        // Signed out: gone at once.
        await signedOut.post('/api/Account/SilentLogout').expect(209);
        const afterSignOut = await sessionsSeenBy(keeper);
        expect(afterSignOut).toHaveLength(2);
        expect(afterSignOut.map((s) => describeUserAgent(s.userAgent)?.browser)).not.toContain('Safari');

        // Idle: the tablet is never used again; one minute past its idle timeout it is gone, though the keeper
        // (remember-me: a longer idle timeout) asks within it.
        gw.clock.advance(IDLE_MS - MINUTE);
        expect(await sessionsSeenBy(keeper)).toHaveLength(2);
        gw.clock.advance(2 * MINUTE);
        const afterIdle = await sessionsSeenBy(keeper);
        expect(afterIdle.map((s) => describeUserAgent(s.userAgent)?.browser)).toEqual(['Firefox']);

        // Absolute: a session used every twenty minutes still ends twelve hours after its sign-in.
        const busy = await signedIn(user, { userAgent: SAFARI_IPHONE });
        for (let elapsed = 0; elapsed + 20 * MINUTE < ABSOLUTE_MS; elapsed += 20 * MINUTE) {
          gw.clock.advance(20 * MINUTE);
          await busy.agent.get('/api/Account/SecurityCentreView').expect(200);
          await keeper.agent.get('/api/Account/SecurityCentreView').expect(200);
        }
        expect(await sessionsSeenBy(keeper)).toHaveLength(2);
        gw.clock.advance(20 * MINUTE);
        expect((await sessionsSeenBy(keeper)).map((s) => describeUserAgent(s.userAgent)?.browser)).toEqual([
          'Firefox',
        ]);

        // Revoked (`admin sessions revoke`: a new security stamp): every session of the account is gone, this one
        // included, and a fresh sign-in lists itself alone.
        await signedIn(user, { userAgent: SAFARI_IPHONE });
        await gw.store.users.rotateSecurityStamp(user.id);
        await keeper.agent.get('/api/Account/SecurityCentreView').expect(401);
        const fresh = await signedIn(user, { userAgent: CHROME_ANDROID_TABLET });
        const afterRevoke = await sessionsSeenBy(fresh);
        expect(afterRevoke).toHaveLength(1);
        expect(afterRevoke[0]!.current).toBe(true);
      });
    },
  );
}
