import type { Application } from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';

/** `Applications` (ADR 0017): where a signed-in person can go on to; empty for anyone else. */
export const applicationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    applications: build.query<Application[], void>({
      query: () => ({ url: 'Applications', method: 'GET' }),
    }),
  }),
});

export const { useApplicationsQuery } = applicationsApi;
