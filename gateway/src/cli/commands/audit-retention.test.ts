import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

/**
 * `admin audit retention [--days N]` (issue 52, ADR 0063): the same setting and service as the console's
 * SetAuditRetention, audited alike with the actor `cli:<os user>`.
 */
describe('admin audit retention', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
  });
  afterAll(async () => {
    await admin.close();
  });

  it('shows the default, sets a retention the console then shows, and audits it', async () => {
    expect(await admin.run('audit', 'retention')).toMatch(/^180 days \(AUDIT_RETENTION_DAYS/);
    expect(await admin.run('audit', 'retention', '--days', '30', '--reason', 'policy')).toBe(
      'audit events are now kept 30 days',
    );
    expect(await admin.store.audit.retentionDays()).toBe(30);
    expect(await admin.run('audit', 'retention')).toBe('30 days');
    const [event] = await admin.store.audit.list({ kinds: ['console.audit.retention.changed'] });
    expect(event).toMatchObject({
      userId: null,
      data: { actor: `cli:${userInfo().username}`, reason: 'policy', days: 30, previousDays: 180 },
    });
  });

  it('refuses a retention out of bounds, changing nothing', async () => {
    for (const days of ['0', '3651', '1.5', 'x'])
      await expect(admin.run('audit', 'retention', '--days', days)).rejects.toThrow(
        /--days must be a whole number/,
      );
    expect(await admin.store.audit.retentionDays()).toBe(30);
  });
});
