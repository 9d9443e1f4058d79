import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import type { ImportCustomersRequest } from 'shared-contracts/console';

/** The bulk import's call (issue 52, ADR 0063): confirmed in place when the sign-in is not recent. */
export const importApi = baseApi.enhanceEndpoints({ addTagTypes: ['ConsoleAudit'] }).injectEndpoints({
  endpoints: (build) => ({
    importCustomers: build.mutation<unknown, ImportCustomersRequest>({
      queryFn: confirmedChange<
        ImportCustomersRequest,
        { url: string; method: 'POST'; body: ImportCustomersRequest }
      >((body) => ({ url: 'ImportCustomers', method: 'POST', body })),
      // The import is audited: the audit page's list is asked again.
      invalidatesTags: ['ConsoleAudit'],
    }),
  }),
});

/** Hooks of the import page. */
export const { useImportCustomersMutation } = importApi;
