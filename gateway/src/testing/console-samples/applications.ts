/**
 * Samples of the Applications page's calls (issue 52, ADR 0062) for the access matrix. Only platform administrators
 * reach them (rows of scope 'all'): no out-of-scope requests. Each change acts on a client or provider made for that
 * try, so a let-through change never alters what another try sees. The matrix has no upstream to discover: a
 * let-through CreateUpstream answers the issuer's discovery error (400), enough to show the guard let it through.
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

/** A fresh login provider (stored directly: no discovery needed to store it). */
async function provider(world: ConsoleWorld): Promise<{ id: string; name: string }> {
  serial += 1;
  const id = `matrix-idp-${serial}`;
  const name = `Matrix Provider ${serial}`;
  await world.gw.store.identityProviders.create({
    id,
    name,
    issuer: 'http://127.0.0.1:9/matrix',
    clientId: 'matrix-client',
    clientSecret: 'matrix-secret',
  });
  return { id, name };
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
  ConsoleUpstreams: {
    inScope: async (world) => ({ method: 'GET', mustNotShow: [(await provider(world)).name] }),
  },
  CreateUpstream: {
    inScope: () => {
      serial += 1;
      return {
        method: 'POST',
        body: {
          id: `matrix-new-idp-${serial}`,
          name: `Matrix New Provider ${serial}`,
          issuer: 'http://127.0.0.1:9/matrix',
          clientId: 'matrix-client',
          clientSecret: 'matrix-secret',
          reason: 'access matrix',
        },
      };
    },
    allowed: [400],
  },
  UpdateUpstream: {
    inScope: async (world) => {
      const { id, name } = await provider(world);
      return {
        method: 'POST',
        body: { id, name: `${name} renamed`, reason: 'access matrix' },
        mustNotShow: [name],
      };
    },
  },
  DisableUpstream: {
    inScope: async (world) => {
      const { id, name } = await provider(world);
      return { method: 'POST', body: { id, reason: 'access matrix' }, mustNotShow: [name] };
    },
  },
} satisfies ConsoleAreaSamples;
