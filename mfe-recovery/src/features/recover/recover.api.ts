import { baseApi } from 'shared-contracts/api';
import { recoverResultSchema, type RecoverRequest, type RecoverResult } from 'shared-contracts';

/** Calls of the recover page, injected into the one shared API (SPEC.md §7 "Recovery and passwords"). */
export const recoverApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `Recover` (body): always the same answer whether an account matched or not; 400 when throttled. */
    recover: build.mutation<RecoverResult, RecoverRequest>({
      query: (body) => ({ url: 'Recover', method: 'POST', body }),
      transformResponse: (body: unknown) => recoverResultSchema.parse(body),
    }),
  }),
});

/** Hooks of the recover page's calls. */
export const { useRecoverMutation } = recoverApi;
