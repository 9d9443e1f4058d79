import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import { createCustomersService } from '../identity/customers/customers.service.js';
import { purgeExpiredAuditEvents } from '../identity/ops/audit-retention.js';
import {
  BACKENDS,
  browser,
  startTestGateway,
  TEST_PASSWORD,
  type TestGateway,
} from '../testing/test-gateway.js';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the audit trail (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({
          backend: backend.name,
          realClock: true,
          throttleLimits: { freeFailures: 2, perAccountSource: 2 },
        });
      });
      afterAll(async () => {
        await gw?.close();
      });

      async function admin(...args: string[]): Promise<string[]> {
        const lines: string[] = [];
        await runAdminCommand(gw.store, args, (line) => lines.push(line));
        return lines;
      }

      async function eventsOf(userId: string) {
        return (await gw.store.audit.list({ userId })).reverse();
      }

      it('records a sign-in failure by reason and a success, with source, user agent, request id and outcome', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, '203.0.113.7');
        await b.agent
          .post('/api/Account/Login')
          .set('x-csrf-token-value', b.token)
          .set('user-agent', 'AuditTest/1.0')
          .set('x-request-id', 'req-audit-1')
          .send({ username: user.username, password: 'wrong-password-1', rememberMe: false })
          .expect(400);
        await b.signIn(user.username, TEST_PASSWORD);
        const events = await eventsOf(user.id);
        expect(events.map((e) => [e.kind, e.outcome])).toEqual([
          ['sign-in.failed', 'failure'],
          ['sign-in.password', 'success'],
          ['sign-in.completed', 'success'],
        ]);
        expect(events[0]).toMatchObject({
          data: { reason: 'password' },
          ip: '203.0.113.7',
          userAgent: 'AuditTest/1.0',
          requestId: 'req-audit-1',
        });
        expect(JSON.stringify(events)).not.toContain('wrong-password-1');
      });

      it('records the lockout of an account and a sign-out', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, '203.0.113.8');
        for (let i = 0; i < 4; i += 1) await b.signIn(user.username, `wrong-password-${i}`);
        const kinds = (await eventsOf(user.id)).map((e) => e.kind);
        expect(kinds).toContain('sign-in.locked');
        expect((await gw.store.audit.list({ userId: user.id, kinds: ['sign-in.locked'] }))[0]?.outcome).toBe(
          'failure',
        );

        const other = await gw.addUser();
        const c = await browser(gw.app);
        await c.signIn(other.username);
        await c.post('/api/Account/Logout', {}).expect((res) => expect(res.status).toBeLessThan(500));
        expect((await eventsOf(other.id)).map((e) => e.kind)).toContain('sign-out');
      });

      it('records admin CLI actions with option names but never their values, and reads the trail back', async () => {
        await admin(
          'users',
          'add',
          '--username',
          'audit-admin-user',
          '--email',
          'audit-admin@example.test',
          '--password',
          'Very-Secret-Pass-9!',
        );
        const lines = await admin('audit', '--since', '1h', '--kind', 'admin', '--json');
        const events = lines.map((l) => JSON.parse(l) as { kind: string; outcome: string; data: unknown });
        const added = events.find((e) => e.kind === 'admin.users.add');
        expect(added).toMatchObject({ outcome: 'success', data: { username: 'audit-admin-user' } });
        expect(lines.join('\n')).not.toContain('Very-Secret-Pass-9!');
        expect(lines.join('\n')).not.toContain('audit-admin@example.test');

        // --user and --kind narrow the list; the table form names time, outcome and kind.
        const user = await gw.addUser();
        const b = await browser(gw.app);
        await b.signIn(user.username, 'not-the-password');
        const table = await admin('audit', '--user', user.username, '--kind', 'sign-in');
        expect(table).toHaveLength(1);
        expect(table[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+\tfailure\tsign-in\.failed\t/);
        await expect(admin('audit', '--since', 'yesterday')).rejects.toThrow(/--since/);
        await expect(admin('audit', '--kind', "x' or 1=1")).rejects.toThrow(/--kind/);
      });

      it('records the second factor refused at sign-in and a customer chosen or refused', async () => {
        const user = await gw.addUser();
        await gw.store.database.db
          .insertInto('second_factors')
          .values({
            user_id: user.id,
            totp_secret_enc: null,
            totp_last_step: null,
            enabled: 1,
            preferred_method: 'pin',
            updated_at: 0,
          })
          .execute();
        const b = await browser(gw.app);
        await b.signIn(user.username);
        await b.post('/api/Account/LoginWith2FA', { method: 'pin', code: '123456' });
        const failed = await gw.store.audit.list({ userId: user.id, kinds: ['two-factor.failed'] });
        expect(failed[0]).toMatchObject({ outcome: 'failure', data: { method: 'pin' } });
        expect(JSON.stringify(failed)).not.toContain('123456');

        const customers = createCustomersService(gw.store);
        await gw.store.customers.create({
          id: `audit-c-${backend.name}`,
          partnerId: null,
          name: 'Audit customer',
        });
        await gw.store.customers.addMembership({
          userId: user.id,
          customerId: `audit-c-${backend.name}`,
          roles: ['EMPLOYEE'],
        });
        await customers.choose(user.id, 'someone-elses-customer');
        await customers.choose(user.id, `audit-c-${backend.name}`);
        const kinds = (await eventsOf(user.id)).map((e) => [e.kind, e.outcome]);
        expect(kinds).toContainEqual(['customer.select.refused', 'failure']);
        expect(kinds).toContainEqual(['customer.selected', 'success']);
      });

      it('purges events older than the retention and keeps the rest', async () => {
        const now = Date.now();
        const user = await gw.addUser();
        for (const age of [400, 181, 179, 1])
          await gw.store.audit.record({
            at: now - age * DAY_MS,
            kind: 'test.aged',
            userId: user.id,
            ip: null,
            data: { age },
          });
        const purged = await purgeExpiredAuditEvents({
          audit: gw.store.audit,
          retentionDays: 180,
          now: () => now,
        });
        expect(purged).toBeGreaterThanOrEqual(2);
        const left = await gw.store.audit.list({ userId: user.id, kinds: ['test.aged'] });
        expect(left.map((e) => e.data.age).sort()).toEqual([1, 179]);
      });
    },
  );
}
