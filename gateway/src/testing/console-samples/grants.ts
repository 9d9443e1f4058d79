import type { ConsoleAreaSamples, ConsoleWorld, Operator } from './types.js';

/**
 * Samples of the grants page's calls (issue 52, ADR 0063) for the access matrix. Only platform administrators
 * reach them (scope 'all'); out of reach for anyone else is a grant over another partner or customer, or of the
 * platform administrator's role.
 */
async function grantee(world: ConsoleWorld): Promise<string> {
  return (await world.addPerson({ partnerId: world.partners.demo.id })).username;
}

function everywhere(operator: Operator): boolean {
  return operator.grant.partnerId === null && operator.grant.customerId === null;
}

/** Grants an operator could not give: over the other partner, another customer, or everywhere. */
async function beyond(world: ConsoleWorld, operator: Operator) {
  if (everywhere(operator)) return [];
  const username = await grantee(world);
  const other =
    operator.grant.partnerId === world.partners.other.id ? world.partners.demo : world.partners.other;
  return [
    { role: 'support', partnerId: other.id },
    { role: 'customerAdmin', customerId: world.customers.otherFoods.id },
    { role: 'customerAdmin', customerId: world.customers.acmeLogistics.id },
    { role: 'platformAdmin' },
  ].map((fields) => ({
    method: 'POST' as const,
    body: { username, ...fields, reason: 'matrix' },
    mustNotShow: [world.operators.platformAdmin.username],
  }));
}

export const samples = {
  ConsoleGrants: {
    inScope: () => ({ method: 'GET' }),
  },
  GrantConsoleRole: {
    inScope: async (world) => ({
      method: 'POST',
      body: {
        username: await grantee(world),
        role: 'support',
        partnerId: world.partners.demo.id,
        reason: 'matrix',
      },
    }),
    outOfScope: beyond,
  },
  WithdrawConsoleRole: {
    inScope: async (world) => {
      const person = await world.addPerson({ partnerId: world.partners.demo.id });
      await world.gw.store.consoleGrants.add({
        userId: person.id,
        role: 'support',
        partnerId: world.partners.demo.id,
        customerId: null,
        grantedBy: 'cli:test',
      });
      return {
        method: 'POST',
        body: {
          username: person.username,
          role: 'support',
          partnerId: world.partners.demo.id,
          reason: 'matrix',
        },
      };
    },
    outOfScope: beyond,
    // A grant out of reach that the person does not hold: the platform administrator still reaches the call.
    allowed: [409],
  },
} satisfies ConsoleAreaSamples;
