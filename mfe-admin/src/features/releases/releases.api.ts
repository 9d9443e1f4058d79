import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import {
  releaseHealthSchema,
  releaseHistorySchema,
  releasesViewSchema,
  type EndCanaryRequest,
  type PromoteReleaseRequest,
  type ReleaseHealth,
  type ReleaseHealthRequest,
  type ReleaseHistory,
  type ReleaseHistoryRequest,
  type ReleasesView,
  type RollBackReleaseRequest,
  type SetCanaryGuardRequest,
  type StartCanaryRequest,
} from 'shared-contracts/console';

/** How often the health figures are asked again while the page is open (issue 51: "auto-refresh every ~10 s"). */
export const HEALTH_REFRESH_MS = 10_000;

/** A change of the releases page: POSTed, confirmed in place when the sign-in is not recent (ADR 0045). */
const change = <Request>(url: string) =>
  confirmedChange<Request, { url: string; method: 'POST'; body: Request }>((body) => ({
    url,
    method: 'POST',
    body,
  }));

/**
 * The releases page's calls (issue 51; schemas in `shared-contracts/console`, rows in the gateway's access table).
 * Tag `Releases`: every change invalidates it, so the cards, the health and the history are asked again at once and
 * nothing stale stays on the page.
 */
export const releasesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Releases'] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET Releases`: every remote's active version, canary, guard and published versions. */
    releases: build.query<ReleasesView, void>({
      query: () => ({ url: 'Releases', method: 'GET' }),
      transformResponse: (body: unknown) => releasesViewSchema.parse(body),
      providesTags: ['Releases'],
    }),
    /** `GET ReleaseHealth` (remote, window): each version's page loads, failures and rate, over every replica. */
    releaseHealth: build.query<ReleaseHealth, ReleaseHealthRequest>({
      query: (params) => ({ url: 'ReleaseHealth', method: 'GET', params }),
      transformResponse: (body: unknown) => releaseHealthSchema.parse(body),
      providesTags: ['Releases'],
    }),
    /** `GET ReleaseHistory` (remote, from, to): release events, newest first. */
    releaseHistory: build.query<ReleaseHistory, ReleaseHistoryRequest>({
      query: (params) => ({ url: 'ReleaseHistory', method: 'GET', params }),
      transformResponse: (body: unknown) => releaseHistorySchema.parse(body),
      providesTags: ['Releases'],
    }),
    startCanary: build.mutation<unknown, StartCanaryRequest>({
      queryFn: change<StartCanaryRequest>('StartCanary'),
      invalidatesTags: ['Releases'],
    }),
    endCanary: build.mutation<unknown, EndCanaryRequest>({
      queryFn: change<EndCanaryRequest>('EndCanary'),
      invalidatesTags: ['Releases'],
    }),
    promoteRelease: build.mutation<unknown, PromoteReleaseRequest>({
      queryFn: change<PromoteReleaseRequest>('PromoteRelease'),
      invalidatesTags: ['Releases'],
    }),
    rollBackRelease: build.mutation<unknown, RollBackReleaseRequest>({
      queryFn: change<RollBackReleaseRequest>('RollBackRelease'),
      invalidatesTags: ['Releases'],
    }),
    setCanaryGuard: build.mutation<unknown, SetCanaryGuardRequest>({
      queryFn: change<SetCanaryGuardRequest>('SetCanaryGuard'),
      invalidatesTags: ['Releases'],
    }),
  }),
});

/** Hooks of the releases page. */
export const {
  useReleasesQuery,
  useReleaseHealthQuery,
  useReleaseHistoryQuery,
  useStartCanaryMutation,
  useEndCanaryMutation,
  usePromoteReleaseMutation,
  useRollBackReleaseMutation,
  useSetCanaryGuardMutation,
} = releasesApi;
