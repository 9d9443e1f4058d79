import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import { purgeExpiredAuditEvents } from '../identity/ops/audit-retention.js';
import { ClientErrorCountRepository } from '../store/client-error-count.repository.js';
import { storeReleases } from '../testing/releases.js';
import { BACKENDS, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `client-error reports per remote version (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, config: { metricsToken: METRICS_TOKEN } });
        // mfe-login 1.0.0 for everyone, 1.1.0 as a canary for buckets 0–19.
        await storeReleases(
          gw.store,
          gw.releases,
          'mfe-login',
          { active: '1.0.0', previous: [], canary: { version: '1.1.0', percent: 20 } },
          ['1.0.0', '1.1.0'],
        );
      });
      afterAll(async () => {
        await gw?.close();
      });

      function report(bucket: number, ip: string) {
        return request(gw.app)
          .post('/api/ops/client-errors')
          .set('X-Forwarded-For', ip)
          .set('Cookie', `idp.bucket=${bucket}`)
          .send({
            message: 'boom',
            url: 'http://localhost/account/login',
            kind: 'remote-load',
            origin: 'mfe-login',
          })
          .expect(202);
      }

      it('counts each report under the version its browser was given, on /metrics and in admin errors', async () => {
        await report(5, '10.1.0.1'); // canary bucket
        await report(5, '10.1.0.2');
        await report(70, '10.1.0.3'); // active version
        const metrics = await request(gw.app)
          .get('/metrics')
          .set('Authorization', `Bearer ${METRICS_TOKEN}`)
          .expect(200);
        expect(metrics.text).toContain(
          'client_error_reports_by_version_total{remote="mfe-login",version="1.1.0",kind="remote-load"} 2',
        );
        expect(metrics.text).toContain(
          'client_error_reports_by_version_total{remote="mfe-login",version="1.0.0",kind="remote-load"} 1',
        );

        // Counted in memory, then in the store with the next flush (every few seconds, ADR 0059).
        await gw.healthCounts.flush();
        const lines: string[] = [];
        await runAdminCommand(gw.store, ['errors', '--since', '1h'], (line) => lines.push(line));
        expect(lines).toEqual(['mfe-login\t1.1.0\t2\tremote-load=2', 'mfe-login\t1.0.0\t1\tremote-load=1']);
        const json: string[] = [];
        await runAdminCommand(gw.store, ['errors', '--json'], (line) => json.push(line));
        expect(json.map((l) => JSON.parse(l) as unknown)).toContainEqual({
          remote: 'mfe-login',
          version: '1.0.0',
          total: 1,
          kinds: { 'remote-load': 1 },
        });

        // Kept as long as the audit trail: the retention purge takes them with it.
        const counts = new ClientErrorCountRepository(gw.store.database.db);
        await purgeExpiredAuditEvents({
          audit: gw.store.audit,
          retentionDays: 1,
          now: () => Date.now() + 2 * 24 * 3_600_000,
          alsoPurge: (before) => counts.purgeBefore(before),
        });
        const after: string[] = [];
        await runAdminCommand(gw.store, ['errors', '--since', '7d'], (line) => after.push(line));
        expect(after).toEqual(['no client-error reports']);
      });
    },
  );
}
