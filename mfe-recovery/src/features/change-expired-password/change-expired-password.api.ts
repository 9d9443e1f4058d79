import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import type { ChangeExpiredPasswordRequest } from 'shared-contracts';

/** Calls of the expired-password step (SPEC.md §7 "Recovery and passwords"). */
export const changeExpiredPasswordApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `ChangeExpiredPassword` (body): the expired-password step; the 209 continues the sign-in. */
    changeExpiredPassword: build.mutation<RedirectFollowed | null, ChangeExpiredPasswordRequest>({
      query: (body) => ({ url: 'ChangeExpiredPassword', method: 'POST', body }),
      invalidatesTags: ['User', 'Account'],
    }),
  }),
});

/** Hooks of the expired-password step's calls. */
export const { useChangeExpiredPasswordMutation } = changeExpiredPasswordApi;
