import { AUDIT_RETENTION_LIMITS } from 'shared-contracts/console';
import { createConsoleAuditService } from '../../identity/console/audit-search.js';
import { cliActor } from '../../identity/console/console-actor.js';
import { systemClock } from '../../infra/clock.js';
import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';

const KIND = /^[a-z0-9][a-z0-9.-]{0,63}$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since 24h` / `30m` / `7d` → milliseconds. */
export function parseSince(text: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(text.trim());
  if (!match)
    throw new UsageError(
      `--since must be a number of minutes, hours or days such as 30m, 24h or 7d, not "${text}"`,
    );
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

export const auditCommands = [
  defineCommand({
    area: 'audit',
    name: '',
    options: {
      user: { type: 'string', value: 'U' },
      since: { type: 'string', value: '24h' },
      kind: { type: 'string', value: 'KIND', multiple: true },
      json: { type: 'boolean' },
    },
    summary: [
      'the audit trail, newest first (the last 24 h unless --since 30m / 24h / 7d): time, outcome, kind,',
      'user, source address, partner, request id, details; --kind sign-in matches every sign-in.* event;',
      '--json prints one JSON object a line',
    ],
    async run({ store, out }, values) {
      const since = Date.now() - parseSince(values.since ?? '24h');
      const kinds = values.kind ?? [];
      for (const kind of kinds)
        if (!KIND.test(kind))
          throw new UsageError(`--kind must be an event kind such as sign-in.failed, not "${kind}"`);
      let userId: string | undefined;
      if (values.user !== undefined) {
        const user =
          (await store.users.findByLogin(values.user)) ?? (await store.users.findById(values.user));
        if (!user) throw new UsageError(`no user "${values.user}"`);
        userId = user.id;
      }
      const events = await store.audit.list({ since, kinds, userId, limit: 10_000 });
      if (values.json) {
        for (const event of events) out(JSON.stringify({ ...event, at: new Date(event.at).toISOString() }));
        return;
      }
      if (events.length === 0) {
        out('no audit events');
        return;
      }
      for (const e of events) {
        const details = Object.keys(e.data).length > 0 ? JSON.stringify(e.data) : '';
        out(
          [
            new Date(e.at).toISOString(),
            e.outcome,
            e.kind,
            e.userId ?? '-',
            e.ip ?? '-',
            e.partnerId ?? '-',
            e.requestId ?? '-',
            details,
          ].join('\t'),
        );
      }
    },
  }),
  defineCommand({
    area: 'audit',
    name: 'retention',
    options: { days: { type: 'string', value: 'N' }, reason: { type: 'string', value: 'TEXT' } },
    summary: [
      "how many days audit events are kept (the console's setting, else AUDIT_RETENTION_DAYS); --days N sets it",
      'for every replica (ADR 0063), audited as the console audits it',
    ],
    async run({ store, out }, values) {
      const envDays = Number(process.env.AUDIT_RETENTION_DAYS);
      const audit = createConsoleAuditService({
        store,
        clock: systemClock,
        defaultRetentionDays: Number.isInteger(envDays) && envDays > 0 ? envDays : undefined,
      });
      if (values.days === undefined) {
        const { days, stored } = await audit.retention();
        out(`${days} days${stored ? '' : ' (AUDIT_RETENTION_DAYS: none set in the console)'}`);
        return;
      }
      const days = Number(values.days);
      if (!Number.isInteger(days) || days < AUDIT_RETENTION_LIMITS.min || days > AUDIT_RETENTION_LIMITS.max)
        throw new UsageError(
          `--days must be a whole number from ${AUDIT_RETENTION_LIMITS.min} to ${AUDIT_RETENTION_LIMITS.max}, not "${values.days}"`,
        );
      await audit.setRetention(days, cliActor(), values.reason?.trim() || null);
      out(`audit events are now kept ${days} days`);
    },
  }),
];
