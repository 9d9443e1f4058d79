/**
 * Samples of the releases calls (issue 51) for the access matrix. Releases have no object a grant is scoped to (rows
 * of scope 'all'): no out-of-scope requests. A let-through change on a remote without published versions answers
 * the call's own 400/409 (unknown version, no canary, nothing to roll back to), which is enough to show the guard let
 * it through without changing what other tries see.
 */
import type { ConsoleAreaSamples } from './types.js';

const remote = 'mfe-login';

export const samples = {
  Releases: { inScope: () => ({ method: 'GET' }) },
  ReleaseHealth: { inScope: () => ({ method: 'GET', query: { remote, window: '1h' } }) },
  ReleaseHistory: { inScope: () => ({ method: 'GET', query: { remote } }) },
  StartCanary: {
    inScope: () => ({
      method: 'POST',
      body: { remote, version: '9.9.9-none', percent: 10, reason: 'access matrix' },
    }),
    allowed: [400],
  },
  EndCanary: {
    inScope: () => ({ method: 'POST', body: { remote, reason: 'access matrix' } }),
    allowed: [409],
  },
  PromoteRelease: {
    inScope: () => ({ method: 'POST', body: { remote, version: '9.9.9-none', reason: 'access matrix' } }),
    allowed: [400],
  },
  RollBackRelease: {
    inScope: () => ({ method: 'POST', body: { remote, reason: 'access matrix' } }),
    allowed: [409],
  },
  SetCanaryGuard: {
    inScope: () => ({
      method: 'POST',
      body: { remote, minPageLoads: 100, minFailureRate: 0.02, ratio: 2, reason: 'access matrix' },
    }),
  },
} satisfies ConsoleAreaSamples;
