import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import {
  applicationSchema,
  applicationWithSecretSchema,
  consoleApplicationsSchema,
  consoleUpstreamsSchema,
  upstreamSchema,
  type Application,
  type ApplicationWithSecret,
  type ConsoleApplications,
  type ConsoleUpstreams,
  type CreateApplicationRequest,
  type CreateUpstreamRequest,
  type DisableApplicationRequest,
  type DisableUpstreamRequest,
  type RotateApplicationSecretRequest,
  type UpdateApplicationRequest,
  type UpdateUpstreamRequest,
  type Upstream,
} from 'shared-contracts/console';

/** A change of the page: POSTed, confirmed in place when the sign-in is not recent (ADR 0045). */
const change = <Request, Data>(url: string, parse: (body: unknown) => Data) =>
  confirmedChange<Request, { url: string; method: 'POST'; body: Request }, Data>(
    (body) => ({ url, method: 'POST', body }),
    parse,
  );

/**
 * The Applications page's calls (issue 52, ADR 0062): OIDC clients and upstream providers. Tag `Applications`:
 * every change asks both lists again, so nothing stale stays on the page. A client secret is only in the answer of
 * CreateApplication and RotateApplicationSecret, shown once and never cached in a list.
 */
export const applicationsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Applications'] }).injectEndpoints({
  endpoints: (build) => ({
    consoleApplications: build.query<ConsoleApplications, void>({
      query: () => ({ url: 'ConsoleApplications', method: 'GET' }),
      transformResponse: (body: unknown) => consoleApplicationsSchema.parse(body),
      providesTags: ['Applications'],
    }),
    consoleUpstreams: build.query<ConsoleUpstreams, void>({
      query: () => ({ url: 'ConsoleUpstreams', method: 'GET' }),
      transformResponse: (body: unknown) => consoleUpstreamsSchema.parse(body),
      providesTags: ['Applications'],
    }),
    createApplication: build.mutation<ApplicationWithSecret, CreateApplicationRequest>({
      queryFn: change<CreateApplicationRequest, ApplicationWithSecret>('CreateApplication', (body) =>
        applicationWithSecretSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
    updateApplication: build.mutation<Application, UpdateApplicationRequest>({
      queryFn: change<UpdateApplicationRequest, Application>('UpdateApplication', (body) =>
        applicationSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
    rotateApplicationSecret: build.mutation<ApplicationWithSecret, RotateApplicationSecretRequest>({
      queryFn: change<RotateApplicationSecretRequest, ApplicationWithSecret>(
        'RotateApplicationSecret',
        (body) => applicationWithSecretSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
    disableApplication: build.mutation<Application, DisableApplicationRequest>({
      queryFn: change<DisableApplicationRequest, Application>('DisableApplication', (body) =>
        applicationSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
    createUpstream: build.mutation<Upstream, CreateUpstreamRequest>({
      queryFn: change<CreateUpstreamRequest, Upstream>('CreateUpstream', (body) =>
        upstreamSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
    updateUpstream: build.mutation<Upstream, UpdateUpstreamRequest>({
      queryFn: change<UpdateUpstreamRequest, Upstream>('UpdateUpstream', (body) =>
        upstreamSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
    disableUpstream: build.mutation<Upstream, DisableUpstreamRequest>({
      queryFn: change<DisableUpstreamRequest, Upstream>('DisableUpstream', (body) =>
        upstreamSchema.parse(body),
      ),
      invalidatesTags: ['Applications'],
    }),
  }),
});

/** Hooks of the Applications page. */
export const {
  useConsoleApplicationsQuery,
  useConsoleUpstreamsQuery,
  useCreateApplicationMutation,
  useUpdateApplicationMutation,
  useRotateApplicationSecretMutation,
  useDisableApplicationMutation,
  useCreateUpstreamMutation,
  useUpdateUpstreamMutation,
  useDisableUpstreamMutation,
} = applicationsApi;
