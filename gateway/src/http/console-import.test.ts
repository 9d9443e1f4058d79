/**
 * The console's bulk import of customers and memberships (issue 52, ADR 0063) against the real gateway on SQLite
 * and (when TEST_DATABASE_URL is set) PostgreSQL: the CLI's all-or-nothing rule (every bad row listed with its
 * number, nothing stored), a good file stored and audited, and nobody but a platform administrator.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from 'shared-contracts';
import { importCustomersSchema } from 'shared-contracts/console';
import { BACKENDS } from '../testing/test-gateway.js';
import { buildConsoleWorld, type ConsoleWorld } from '../testing/console-samples/types.js';

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's bulk import (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let world: ConsoleWorld;
      beforeAll(async () => {
        world = await buildConsoleWorld(backend.name);
      }, 60_000);
      afterAll(async () => {
        await world?.gw.close();
      });
      const tag = () => randomBytes(3).toString('hex');

      it('lists every bad row with its number and stores nothing', async () => {
        const t = tag();
        const csv = [
          'id,name,partner,username,roles',
          `good-${t},Good ${t},demo,${world.people.retail.username},EMPLOYEE`,
          `bad-partner-${t},Bad,nowhere,,`,
          `bad-user-${t},Bad user,demo,no-such-user-${t},`,
          `bad-role-${t},Bad role,demo,${world.people.retail.username},KING`,
          ',,demo,,',
        ].join('\n');
        const res = await world.operators.platformAdmin.b.post('/api/Account/ImportCustomers', {
          csv,
          reason: 'onboarding',
        });
        expect(res.status).toBe(400);
        const rows = (res.body as { errors: { csv: string[] } }).errors.csv;
        // Codes of the errors map with the row and what was wrong (SPEC.md §4), shown by the page in five locales.
        expect(rows).toEqual([
          'importUnknownPartner|{"row":3,"partner":"nowhere"}',
          `importUnknownUser|{"row":4,"username":"no-such-user-${t}"}`,
          'importUnknownRole|{"row":5,"role":"KING"}',
          // A row with two faults: both, each with the row.
          'importIdEmpty|{"row":6}',
          'importNameEmpty|{"row":6}',
        ]);
        for (const row of rows) expect(isErrorCode(row.slice(0, row.indexOf('|')))).toBe(true);
        expect(await world.gw.store.customers.findById(`good-${t}`)).toBeUndefined();
      });

      it('stores a good file, its memberships, and audits who imported what and why', async () => {
        const t = tag();
        const csv = [
          'id,name,partner,username,roles',
          `shop-${t},Shop ${t},demo,${world.people.logistics.username},MANAGER`,
          `shop-${t},Shop ${t},demo,${world.people.retail.username},`,
          `depot-${t},Depot ${t},other,,`,
        ].join('\r\n');
        const admin = world.operators.platformAdmin;
        const res = await admin.b.post('/api/Account/ImportCustomers', { csv, reason: 'new customers' });
        expect(res.status).toBe(200);
        expect(importCustomersSchema.parse(res.body)).toEqual({ customers: 2, memberships: 2 });
        expect(await world.gw.store.customers.findById(`depot-${t}`)).toMatchObject({ partnerId: 'other' });
        const audited = (await world.gw.store.audit.list({ kinds: ['console.import.customers'] }))[0];
        expect(audited).toMatchObject({
          userId: admin.id,
          data: { actor: admin.username, reason: 'new customers', customerIds: [`shop-${t}`, `depot-${t}`] },
        });
        // The same file again: every customer exists now, so every row is bad and nothing changes.
        const again = await admin.b.post('/api/Account/ImportCustomers', { csv, reason: 'twice' });
        expect(again.status).toBe(400);
        expect((again.body as { errors: { csv: string[] } }).errors.csv).toHaveLength(3);
      });

      it('refuses an empty or oversized file with a 400 on csv', async () => {
        for (const csv of ['', 'x'.repeat(60_001)]) {
          const res = await world.operators.platformAdmin.b.post('/api/Account/ImportCustomers', { csv });
          expect(res.status).toBe(400);
          expect(Object.keys((res.body as { errors: Record<string, unknown> }).errors)).toEqual(['csv']);
        }
      });

      it('lets nobody but a platform administrator import (403), storing nothing', async () => {
        const t = tag();
        for (const name of ['supportA', 'supportB', 'customerAdminRetail', 'releaseManager'] as const) {
          const res = await world.operators[name].b.post('/api/Account/ImportCustomers', {
            csv: `id,name,partner\nsneak-${t}-${name},Sneak,demo`,
          });
          expect(res.status).toBe(403);
          expect(await world.gw.store.customers.findById(`sneak-${t}-${name}`)).toBeUndefined();
        }
      });
    },
  );
}
