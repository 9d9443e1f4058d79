import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import {
  consoleGrantsSchema,
  type ConsoleGrantChangeRequest,
  type ConsoleGrants,
} from 'shared-contracts/console';

/** A change of the grants page: POSTed, confirmed in place when the sign-in is not recent (ADR 0045). */
const change = (url: string) =>
  confirmedChange<
    ConsoleGrantChangeRequest,
    { url: string; method: 'POST'; body: ConsoleGrantChangeRequest }
  >((body) => ({ url, method: 'POST', body }));

/**
 * The grants page's calls (issue 52, ADR 0063). Tag `ConsoleGrants`: a grant or a withdrawal invalidates it, and
 * `ConsoleAccess` too (an operator may change their own grants), so no list is stale.
 */
export const grantsApi = baseApi.enhanceEndpoints({ addTagTypes: ['ConsoleGrants'] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET ConsoleGrants`: every console grant. */
    consoleGrants: build.query<ConsoleGrants, void>({
      query: () => ({ url: 'ConsoleGrants', method: 'GET' }),
      transformResponse: (body: unknown) => consoleGrantsSchema.parse(body),
      providesTags: ['ConsoleGrants'],
    }),
    grantConsoleRole: build.mutation<unknown, ConsoleGrantChangeRequest>({
      queryFn: change('GrantConsoleRole'),
      invalidatesTags: ['ConsoleGrants'],
    }),
    withdrawConsoleRole: build.mutation<unknown, ConsoleGrantChangeRequest>({
      queryFn: change('WithdrawConsoleRole'),
      invalidatesTags: ['ConsoleGrants'],
    }),
  }),
});

/** Hooks of the grants page. */
export const { useConsoleGrantsQuery, useGrantConsoleRoleMutation, useWithdrawConsoleRoleMutation } =
  grantsApi;
