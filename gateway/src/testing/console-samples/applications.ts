/**
 * Samples of the Applications page's calls (issue 52, ADR 0062) for the access matrix. Only platform administrators
 * reach them (rows of scope 'all'): no out-of-scope requests. Each change acts on a client made for that try, so a
 * let-through change never alters what another try sees.
 */
import type { ConsoleAreaSamples, ConsoleWorld } from './types.js';

let serial = 0;

/** A fresh confidential client (its name is what a refusal must not show). */
async function client(world: ConsoleWorld): Promise<{ clientId: string; name: string }> {
  serial += 1;
  const clientId = `matrix-app-${serial}`;
  const name = `Matrix Application ${serial}`;
  await world.gw.store.clients.create({
    clientId,
    name,
    redirectUris: ['https://matrix.example/callback'],
    clientSecret: 'matrix-client-secret-0123456789',
  });
  return { clientId, name };
}

export const samples = {
  ConsoleApplications: {
    inScope: async (world) => ({ method: 'GET', mustNotShow: [(await client(world)).name] }),
  },
  CreateApplication: {
    inScope: () => {
      serial += 1;
      return {
        method: 'POST',
        body: {
          clientId: `matrix-new-${serial}`,
          name: `Matrix New ${serial}`,
          confidential: true,
          redirectUris: ['https://matrix.example/callback'],
          reason: 'access matrix',
        },
      };
    },
  },
  UpdateApplication: {
    inScope: async (world) => {
      const { clientId, name } = await client(world);
      return {
        method: 'POST',
        body: { clientId, name: `${name} renamed`, reason: 'access matrix' },
        mustNotShow: [name],
      };
    },
  },
  DisableApplication: {
    inScope: async (world) => {
      const { clientId, name } = await client(world);
      return { method: 'POST', body: { clientId, reason: 'access matrix' }, mustNotShow: [name] };
    },
  },
  RotateApplicationSecret: {
    inScope: async (world) => {
      const { clientId, name } = await client(world);
      return { method: 'POST', body: { clientId, reason: 'access matrix' }, mustNotShow: [name] };
    },
  },
} satisfies ConsoleAreaSamples;
