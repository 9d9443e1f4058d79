import { baseApi } from 'shared-contracts/api';
import { consolePartnersSchema, type ConsolePartners } from 'shared-contracts/console';

/**
 * The list of partners (`ConsolePartners`), for the Partners page and the partner choice of an upstream provider.
 * Tag `Partners`: the Partners page's changes ask it again.
 */
export const partnersListApi = baseApi.enhanceEndpoints({ addTagTypes: ['Partners'] }).injectEndpoints({
  endpoints: (build) => ({
    consolePartners: build.query<ConsolePartners, void>({
      query: () => ({ url: 'ConsolePartners', method: 'GET' }),
      transformResponse: (body: unknown) => consolePartnersSchema.parse(body),
      providesTags: ['Partners'],
    }),
  }),
});

/** The partners, by name. */
export const { useConsolePartnersQuery } = partnersListApi;
