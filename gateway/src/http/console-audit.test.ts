/**
 * The console's audit search and export (issue 52, ADR 0063) against the real gateway on SQLite and (when
 * TEST_DATABASE_URL is set) PostgreSQL: every filter, pages newest first, support held to its partner, bad input a
 * 400 on its field, and a CSV download that a spreadsheet cannot turn into formulas.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_PAGE_SIZE,
  auditRetentionSchema,
  consoleAuditSchema,
  type ConsoleAudit,
} from 'shared-contracts/console';
import { purgeExpiredAuditEvents } from '../identity/ops/audit-retention.js';
import { BACKENDS } from '../testing/test-gateway.js';
import { buildConsoleWorld, type ConsoleWorld, type Operator } from '../testing/console-samples/types.js';

const day = (d: number) => Date.UTC(2026, 0, d, 12);

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's audit search (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let world: ConsoleWorld;
      /** A unique actor per test file run, so the gateway's own events never mix in. */
      const actor = `auditor-${randomBytes(3).toString('hex')}`;

      async function event(
        at: number,
        fields: {
          kind?: string;
          subject?: string;
          partnerId?: string | null;
          customerId?: string;
          who?: string;
        },
      ) {
        await world.gw.store.audit.record({
          at,
          kind: fields.kind ?? 'console.people.disabled',
          userId: null,
          ip: '192.0.2.1',
          partnerId: fields.partnerId === undefined ? 'demo' : fields.partnerId,
          data: {
            actor: fields.who ?? actor,
            subject: fields.subject ?? 'someone',
            reason: 'seeded',
            ...(fields.customerId ? { customerId: fields.customerId } : {}),
          },
        });
      }

      beforeAll(async () => {
        world = await buildConsoleWorld(backend.name);
        await event(day(1), { subject: 'first', kind: 'console.grant.added' });
        await event(day(2), { subject: 'second', customerId: 'acme-retail' });
        await event(day(3), { subject: 'third', partnerId: 'other' });
        await event(day(4), {
          subject: '=HYPERLINK("http://evil.test","x")',
          kind: 'console.people.enabled',
        });
        await event(day(5), { subject: 'fifth', partnerId: null });
      }, 60_000);
      afterAll(async () => {
        await world?.gw.close();
      });

      const search = async (who: Operator, query: Record<string, string>): Promise<ConsoleAudit> =>
        consoleAuditSchema.parse(
          (await who.b.agent.get('/api/Account/ConsoleAudit').query(query).expect(200)).body,
        );
      const admin = () => world.operators.platformAdmin;
      const subjects = (page: ConsoleAudit) => page.events.map((e) => e.subject);

      it("finds an actor's events newest first, with who, what, on what, from where and why", async () => {
        const page = await search(admin(), { actor });
        expect(subjects(page)).toEqual([
          'fifth',
          '=HYPERLINK("http://evil.test","x")',
          'third',
          'second',
          'first',
        ]);
        expect(page.events[1]).toMatchObject({ actor, reason: 'seeded', ip: '192.0.2.1', partnerId: 'demo' });
        expect(page.hasMore).toBe(false);
      });

      it('narrows by date range (days inclusive), kind prefix, subject, partner and customer', async () => {
        expect(subjects(await search(admin(), { actor, from: '2026-01-02', to: '2026-01-03' }))).toEqual([
          'third',
          'second',
        ]);
        expect(subjects(await search(admin(), { actor, to: '2026-01-01' }))).toEqual(['first']);
        expect(subjects(await search(admin(), { actor, kind: 'console.grant' }))).toEqual(['first']);
        expect(subjects(await search(admin(), { subject: 'third' }))).toEqual(['third']);
        expect(subjects(await search(admin(), { actor, partnerId: 'other' }))).toEqual(['third']);
        expect(subjects(await search(admin(), { actor, customerId: 'acme-retail' }))).toEqual(['second']);
        // An empty value is no filter.
        expect(subjects(await search(admin(), { actor, subject: '' }))).toHaveLength(5);
      });

      it('pages by fifty', async () => {
        const many = `pager-${randomBytes(3).toString('hex')}`;
        for (let i = 0; i < AUDIT_PAGE_SIZE + 3; i++)
          await event(day(10) + i, { who: many, subject: `n${i}` });
        const first = await search(admin(), { actor: many });
        expect(first.events).toHaveLength(AUDIT_PAGE_SIZE);
        expect(first.events[0]?.subject).toBe(`n${AUDIT_PAGE_SIZE + 2}`);
        expect(first.hasMore).toBe(true);
        const second = await search(admin(), { actor: many, page: '2' });
        expect(subjects(second)).toEqual(['n2', 'n1', 'n0']);
        expect(second.hasMore).toBe(false);
      });

      it("shows support its own partner's events only, and refuses another partner's (403, no data)", async () => {
        const supportA = world.operators.supportA;
        expect(subjects(await search(supportA, { actor }))).toEqual([
          '=HYPERLINK("http://evil.test","x")',
          'second',
          'first',
        ]);
        const other = await supportA.b.agent
          .get('/api/Account/ConsoleAudit')
          .query({ actor, partnerId: 'other' });
        expect(other.status).toBe(403);
        expect(JSON.stringify(other.body)).not.toContain('third');
        expect(subjects(await search(world.operators.supportB, { actor }))).toEqual(['third']);
        const exported = await supportA.b.agent
          .get('/api/Account/ConsoleAuditExport')
          .query({ actor, partnerId: 'other' });
        expect(exported.status).toBe(403);
        expect(exported.text).not.toContain('third');
        const own = await supportA.b.agent.get('/api/Account/ConsoleAuditExport').query({ actor });
        expect(own.text).toContain('"second"');
        expect(own.text).not.toContain('"third"');
        expect(own.text).not.toContain('"fifth"');
      });

      it('refuses anyone without the audit (customer administrators, release managers): 403', async () => {
        for (const name of ['customerAdminRetail', 'releaseManager'] as const) {
          for (const call of ['ConsoleAudit', 'ConsoleAuditExport']) {
            const res = await world.operators[name].b.agent.get(`/api/Account/${call}`).query({ actor });
            expect(res.status).toBe(403);
            expect(res.text).not.toContain('seeded');
          }
        }
      });

      it.each([
        [{ from: '2026-13-01' }, 'from'],
        [{ from: '2026-02-30' }, 'from'],
        [{ from: '2026-01-05', to: '2026-01-04' }, 'to'],
        [{ page: '0' }, 'page'],
        [{ kind: "x' or 1=1" }, 'kind'],
        [{ actor: 'a'.repeat(300) }, 'actor'],
      ])('refuses %o with a 400 on %s', async (query, field) => {
        const res = await admin().b.agent.get('/api/Account/ConsoleAudit').query(query);
        expect(res.status).toBe(400);
        expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors)).toEqual([field]);
      });

      it('exports the filter as a CSV download, formulas escaped', async () => {
        const res = await admin()
          .b.agent.get('/api/Account/ConsoleAuditExport')
          .query({ actor, from: '2026-01-01', to: '2026-01-04' });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/csv/);
        expect(res.headers['content-disposition']).toBe(
          'attachment; filename="audit-2026-01-01-2026-01-04.csv"',
        );
        const lines = res.text.trimEnd().split('\r\n');
        expect(lines[0]).toBe(
          '"at","kind","outcome","actor","subject","reason","userId","ip","userAgent","requestId","partnerId","customerId","data"',
        );
        expect(lines).toHaveLength(5);
        // The formula is text: a leading apostrophe, quotes doubled.
        expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
        expect(res.text).not.toContain(',"=HYPERLINK');
        expect(lines[1]).toContain(`"${actor}"`);
      });

      // Last: a retention of 30 days purges the events seeded in January.
      it('keeps events as long as the retention says: the default, then the stored setting, on every run', async () => {
        const read = async (who: Operator) =>
          auditRetentionSchema.parse((await who.b.agent.get('/api/Account/AuditRetention').expect(200)).body);
        expect(await read(admin())).toEqual({ days: 180, stored: false });
        // Support reads it (it reads the audit), but only a platform administrator sets it.
        expect(await read(world.operators.supportA)).toEqual({ days: 180, stored: false });
        const refused = await world.operators.supportA.b.post('/api/Account/SetAuditRetention', { days: 1 });
        expect(refused.status).toBe(403);
        for (const days of [0, 3651, 1.5, '30'])
          expect(
            (await admin().b.post('/api/Account/SetAuditRetention', { days })).body.errors,
          ).toHaveProperty('days');

        const set = await admin().b.post('/api/Account/SetAuditRetention', { days: 30, reason: 'policy' });
        expect(set.status).toBe(200);
        expect(set.body).toEqual({ days: 30, stored: true });
        expect(await read(admin())).toEqual({ days: 30, stored: true });
        expect(
          (await world.gw.store.audit.list({ kinds: ['console.audit.retention.changed'] }))[0],
        ).toMatchObject({
          userId: admin().id,
          data: {
            actor: admin().username,
            subject: 'audit retention',
            reason: 'policy',
            days: 30,
            previousDays: 180,
          },
        });

        const now = world.gw.clock.now();
        const keeper = `keeper-${randomBytes(3).toString('hex')}`;
        await event(now - 40 * 24 * 3_600_000, { who: keeper, subject: 'old' });
        await event(now - 10 * 24 * 3_600_000, { who: keeper, subject: 'recent' });
        // The purge every replica runs hourly: the configured default (365) yields to the stored 30 days.
        await purgeExpiredAuditEvents({ audit: world.gw.store.audit, retentionDays: 365, now: () => now });
        expect(subjects(await search(admin(), { actor: keeper }))).toEqual(['recent']);
        expect(subjects(await search(admin(), { actor }))).toEqual([]);
      });
    },
  );
}
