import { baseApi } from 'shared-contracts/api';
import {
  recoveryCodeSetSchema,
  redeemStateSchema,
  type RecoveryCodeSet,
  type RedeemState,
} from 'shared-contracts';

/** Calls that show a set of recovery codes, for the redeem page and the set-up wizard's codes step (SPEC.md §7). */
export const recoveryCodesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `RedeemRecoveryCode` (query id): the new set, this once; without an id, a new set on demand. */
    redeemRecoveryCode: build.mutation<RecoveryCodeSet, { id?: string }>({
      query: ({ id }) => ({ url: 'RedeemRecoveryCode', method: 'POST', ...(id ? { params: { id } } : {}) }),
      transformResponse: (body: unknown) => recoveryCodeSetSchema.parse(body),
      invalidatesTags: ['Account'],
    }),
    /** `RedeemState` (query state): whether a set can still be shown. */
    redeemState: build.query<RedeemState, { state: string }>({
      query: ({ state }) => ({ url: 'RedeemState', method: 'POST', params: { state } }),
      transformResponse: (body: unknown) => redeemStateSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
  }),
});

/** Hooks of the recovery-code set calls. */
export const { useRedeemRecoveryCodeMutation } = recoveryCodesApi;
