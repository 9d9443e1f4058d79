/**
 * The console's grants page calls (issue 52, ADR 0063) against the real gateway on SQLite and (when
 * TEST_DATABASE_URL is set) PostgreSQL: a platform administrator grants and withdraws, each audited with the
 * console's shape; the last platform administrator stays; bad input is a 400 on its field; nobody else gets in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleGrantsSchema } from 'shared-contracts/console';
import { BACKENDS } from '../testing/test-gateway.js';
import { buildConsoleWorld, type ConsoleWorld } from '../testing/console-samples/types.js';

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's grants (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let world: ConsoleWorld;
      beforeAll(async () => {
        world = await buildConsoleWorld(backend.name);
      }, 60_000);
      afterAll(async () => {
        await world?.gw.close();
      });

      const admin = () => world.operators.platformAdmin;
      const list = async () =>
        consoleGrantsSchema.parse((await admin().b.agent.get('/api/Account/ConsoleGrants').expect(200)).body)
          .grants;

      it('lists every grant with whom, where, by whom and when', async () => {
        const grants = await list();
        expect(grants).toContainEqual(
          expect.objectContaining({
            username: world.operators.supportA.username,
            role: 'support',
            partnerId: 'demo',
            customerId: null,
            grantedBy: 'cli:test',
          }),
        );
      });

      it('grants support of the demo partner and withdraws it, each audited with actor, subject and reason', async () => {
        const person = await world.addPerson({ partnerId: 'demo' });
        const body = {
          username: person.username,
          role: 'support',
          partnerId: 'demo',
          reason: 'new help desk',
        };
        const granted = await admin().b.post('/api/Account/GrantConsoleRole', body);
        expect(granted.status).toBe(200);
        expect(consoleGrantsSchema.parse(granted.body).grants).toContainEqual(
          expect.objectContaining({ username: person.username, role: 'support', partnerId: 'demo' }),
        );
        expect(await world.gw.store.consoleGrants.listOf(person.id)).toHaveLength(1);
        const added = (await world.gw.store.audit.list({ kinds: ['console.grant.added'] })).find(
          (e) => e.data.subject === person.username,
        );
        expect(added).toMatchObject({
          userId: admin().id,
          data: {
            actor: admin().username,
            subject: person.username,
            reason: 'new help desk',
            role: 'support',
          },
        });
        expect(added?.ip).toBeTruthy();

        const withdrawn = await admin().b.post('/api/Account/WithdrawConsoleRole', {
          ...body,
          reason: 'left',
        });
        expect(withdrawn.status).toBe(200);
        expect(consoleGrantsSchema.parse(withdrawn.body).grants.map((g) => g.username)).not.toContain(
          person.username,
        );
        expect(await world.gw.store.consoleGrants.listOf(person.id)).toEqual([]);
        expect(
          (await world.gw.store.audit.list({ kinds: ['console.grant.withdrawn'] })).find(
            (e) => e.data.subject === person.username,
          ),
        ).toMatchObject({ userId: admin().id, data: { actor: admin().username, reason: 'left' } });
      });

      it.each([
        [{ role: 'root' }, 'role'],
        [{ role: 'support' }, 'partnerId'],
        [{ role: 'support', partnerId: 'nowhere' }, 'partnerId'],
        [{ role: 'support', partnerId: 'demo', customerId: 'acme-retail' }, 'customerId'],
        [{ role: 'customerAdmin', customerId: 'acme-retail', partnerId: 'other' }, 'customerId'],
        [{ role: 'platformAdmin', partnerId: 'demo' }, 'role'],
        [{ role: 'support', partnerId: 'demo', username: 'no-such-person' }, 'username'],
        [{ role: 'support', partnerId: 'demo', username: '' }, 'username'],
      ])('refuses %o with a 400 on %s, storing nothing', async (fields, field) => {
        const person = await world.addPerson({ partnerId: 'demo' });
        const res = await admin().b.post('/api/Account/GrantConsoleRole', {
          username: person.username,
          ...fields,
        });
        expect(res.status).toBe(400);
        expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors)).toEqual([field]);
        expect(await world.gw.store.consoleGrants.listOf(person.id)).toEqual([]);
      });

      it('refuses a grant held already and a withdrawal of one not held (409)', async () => {
        const body = { username: world.operators.supportA.username, role: 'support', partnerId: 'demo' };
        const twice = await admin().b.post('/api/Account/GrantConsoleRole', body);
        expect(twice.status).toBe(409);
        expect(twice.body.errors.role).toEqual(['grantAlreadyGranted']);
        expect(twice.body.detail).toBe('This account already holds this grant.');
        const none = await admin().b.post('/api/Account/WithdrawConsoleRole', {
          ...body,
          partnerId: 'other',
        });
        expect(none.status).toBe(409);
      });

      it('keeps the last platform administrator, with a clear error', async () => {
        // The world's other platform administrator goes first; then the operator is the last one.
        const other = await admin().b.post('/api/Account/WithdrawConsoleRole', {
          username: world.people.platformAdmin.username,
          role: 'platformAdmin',
          reason: 'moved on',
        });
        expect(other.status).toBe(200);
        const last = await admin().b.post('/api/Account/WithdrawConsoleRole', {
          username: admin().username,
          role: 'platformAdmin',
          reason: 'leaving',
        });
        expect(last.status).toBe(409);
        expect(last.body.errors.role).toEqual(['grantLastPlatformAdmin']);
        expect(last.body.detail).toBe('This is the last platform administrator: grant another one first.');
        expect((await list()).filter((g) => g.role === 'platformAdmin').map((g) => g.username)).toEqual([
          admin().username,
        ]);
      });

      it('lets no one else list, grant or withdraw (403), and changes nothing', async () => {
        const person = await world.addPerson({ partnerId: 'demo' });
        for (const name of ['supportA', 'supportB', 'customerAdminRetail', 'releaseManager'] as const) {
          const { b } = world.operators[name];
          const listed = await b.agent.get('/api/Account/ConsoleGrants');
          expect(listed.status).toBe(403);
          expect(JSON.stringify(listed.body)).not.toContain(admin().username);
          for (const call of ['GrantConsoleRole', 'WithdrawConsoleRole'])
            expect(
              (
                await b.post(`/api/Account/${call}`, {
                  username: person.username,
                  role: 'support',
                  partnerId: 'demo',
                })
              ).status,
            ).toBe(403);
        }
        expect(await world.gw.store.consoleGrants.listOf(person.id)).toEqual([]);
      });
    },
  );
}
