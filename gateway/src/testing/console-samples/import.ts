import { randomBytes } from 'node:crypto';
import type { ConsoleAreaSamples } from './types.js';

/**
 * Samples of `ImportCustomers` (issue 52, ADR 0063) for the access matrix: scope 'all' (platform administrators);
 * each try a customer of its own, so a try that got through leaves nothing another one trips on.
 */
export const samples = {
  ImportCustomers: {
    inScope: (world) => ({
      method: 'POST',
      body: {
        csv: `id,name,partner\nmatrix-${randomBytes(4).toString('hex')},Matrix,${world.partners.demo.id}`,
        reason: 'matrix',
      },
    }),
  },
} satisfies ConsoleAreaSamples;
