import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  customersPageSchema,
  selectCustomerViewSchema,
  type CustomersPage,
  type SelectCustomerRequest,
  type SelectCustomerView,
} from 'shared-contracts';

/** Query of the `Customers` call as the page sends it. */
export interface CustomersArgs {
  filter: string;
  page: number;
  size: number;
  returnUrl: string;
}

/** Calls of customer selection, injected into the one shared API (SPEC.md §7 "Customers"; ADR 0009). */
export const selectCustomerApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `GET SelectCustomerView` (query returnUrl, cid): the preselected customer, the total and the returnUrl. */
    selectCustomerView: build.query<SelectCustomerView, { returnUrl: string; cid?: string }>({
      query: ({ returnUrl, cid }) => ({
        url: 'SelectCustomerView',
        method: 'GET',
        params: { returnUrl, cid: cid || undefined },
      }),
      transformResponse: (body: unknown) => selectCustomerViewSchema.parse(body),
    }),
    /** `GET Customers` (query filter, page, size, returnUrl): one page of the user's customers. */
    customers: build.query<CustomersPage, CustomersArgs>({
      query: ({ filter, page, size, returnUrl }) => ({
        url: 'Customers',
        method: 'GET',
        params: { filter: filter || undefined, page, size, returnUrl },
      }),
      transformResponse: (body: unknown) => customersPageSchema.parse(body),
    }),
    /** `SelectCustomer` (body): 209 to the next step or the returnUrl; 400 for a customer not the user's. */
    selectCustomer: build.mutation<RedirectFollowed | null, SelectCustomerRequest>({
      query: (body) => ({ url: 'SelectCustomer', method: 'POST', body }),
      invalidatesTags: ['User', 'Account'],
    }),
  }),
});

/** Hooks of the customer-selection calls. */
export const { useSelectCustomerViewQuery, useCustomersQuery, useSelectCustomerMutation } = selectCustomerApi;
