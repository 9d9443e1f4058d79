import type { ConsoleAreaSamples, ConsoleRequest, ConsoleWorld, Operator } from './types.js';

/**
 * Samples of the audit search's calls (issue 52, ADR 0063) for the access matrix: scope 'partner' (support reads
 * its partner's events); out of reach is a filter naming another partner, which is refused, never answered.
 */
function outside(world: ConsoleWorld, operator: Operator): ConsoleRequest[] {
  if (operator.grant.partnerId === null && operator.grant.customerId === null) return [];
  const other =
    operator.grant.partnerId === world.partners.other.id ? world.partners.demo : world.partners.other;
  return [{ method: 'GET', query: { partnerId: other.id }, mustNotShow: [other.name] }];
}

export const samples = {
  ConsoleAudit: {
    inScope: () => ({ method: 'GET', query: { kind: 'console' } }),
    outOfScope: outside,
  },
  ConsoleAuditExport: {
    inScope: () => ({ method: 'GET', query: { kind: 'console' } }),
    outOfScope: outside,
  },
  AuditRetention: {
    inScope: () => ({ method: 'GET' }),
  },
  SetAuditRetention: {
    // The default retention: a try that gets through changes nothing another try sees.
    inScope: () => ({ method: 'POST', body: { days: 180, reason: 'matrix' } }),
  },
} satisfies ConsoleAreaSamples;
