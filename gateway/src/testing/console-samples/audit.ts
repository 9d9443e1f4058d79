import { randomBytes } from 'node:crypto';
import type { ConsoleAreaSamples, ConsoleRequest, ConsoleWorld, Operator } from './types.js';

/**
 * Samples of the audit search's calls (issue 52, ADR 0063) for the access matrix: scope 'partner' (support reads
 * its partner's events); out of reach is a filter naming another partner, which is refused, never answered, and a
 * search by actor or subject for another partner's event, answered without it.
 */
async function outside(world: ConsoleWorld, operator: Operator): Promise<ConsoleRequest[]> {
  if (operator.grant.partnerId === null && operator.grant.customerId === null) return [];
  const other =
    operator.grant.partnerId === world.partners.other.id ? world.partners.demo : world.partners.other;
  // An event of the other partner only this try knows: searched for by its actor and subject, the answer (let
  // through: a search) must leave it out.
  const marker = `matrix-${randomBytes(4).toString('hex')}`;
  await world.gw.store.audit.record({
    at: world.gw.clock.now(),
    kind: 'console.matrix.probe',
    userId: null,
    ip: null,
    data: { actor: `${marker}-actor`, subject: `${marker}-subject`, reason: null },
    partnerId: other.id,
  });
  return [
    { method: 'GET', query: { partnerId: other.id }, mustNotShow: [other.name, marker] },
    { method: 'GET', query: { actor: `${marker}-actor` }, mustNotShow: [marker], filtered: true },
    { method: 'GET', query: { subject: `${marker}-subject` }, mustNotShow: [marker], filtered: true },
  ];
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
    noObject: 'the retention is one setting of the whole service, the same for every reader',
  },
  SetAuditRetention: {
    // The default retention: a try that gets through changes nothing another try sees.
    inScope: () => ({ method: 'POST', body: { days: 180, reason: 'matrix' } }),
  },
} satisfies ConsoleAreaSamples;
