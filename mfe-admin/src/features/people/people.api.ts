import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import {
  consolePersonSchema,
  type AddPersonMembershipRequest,
  type ConsolePerson,
  type PersonChangeRequest,
  type RemovePersonMembershipRequest,
} from 'shared-contracts/console';

/** A change of a person: POSTed, confirmed in place when the sign-in is not recent (ADR 0045). */
const change = <Request>(url: string) =>
  confirmedChange<Request, { url: string; method: 'POST'; body: Request }>((body) => ({
    url,
    method: 'POST',
    body,
  }));

/** The changes that take a person and a reason, by their call's name. */
export const PERSON_ACTIONS = [
  'DisablePerson',
  'EnablePerson',
  'EndPersonSessions',
  'ResetPersonSecondFactor',
  'SendPersonPasswordReset',
  'RequirePersonTwoStep',
  'ClearPersonThrottle',
] as const;
/** One of {@link PERSON_ACTIONS}. */
export type PersonAction = (typeof PERSON_ACTIONS)[number];

/**
 * The People section's calls (the search is `../shared/people-search.api.ts`, which the grant dialog uses too) (issue 52; schemas in `shared-contracts/console`, rows in the gateway's access table).
 * Tag `People`: every change invalidates it, so the search results and the person's page are asked again at once.
 */
export const peopleApi = baseApi.enhanceEndpoints({ addTagTypes: ['People'] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET ConsolePerson`: one person's page. */
    consolePerson: build.query<ConsolePerson, { id: string }>({
      query: (params) => ({ url: 'ConsolePerson', method: 'GET', params }),
      transformResponse: (body: unknown) => consolePersonSchema.parse(body),
      providesTags: ['People'],
    }),
    /** One of {@link PERSON_ACTIONS}. */
    personAction: build.mutation<unknown, PersonChangeRequest & { call: PersonAction }>({
      queryFn: confirmedChange<
        PersonChangeRequest & { call: PersonAction },
        { url: string; method: 'POST'; body: PersonChangeRequest }
      >(({ call, ...body }) => ({ url: call, method: 'POST', body })),
      invalidatesTags: ['People'],
    }),
    addPersonMembership: build.mutation<unknown, AddPersonMembershipRequest>({
      queryFn: change<AddPersonMembershipRequest>('AddPersonMembership'),
      invalidatesTags: ['People'],
    }),
    removePersonMembership: build.mutation<unknown, RemovePersonMembershipRequest>({
      queryFn: change<RemovePersonMembershipRequest>('RemovePersonMembership'),
      invalidatesTags: ['People'],
    }),
  }),
});

/** Hooks of the People pages. */
export const {
  useConsolePersonQuery,
  usePersonActionMutation,
  useAddPersonMembershipMutation,
  useRemovePersonMembershipMutation,
} = peopleApi;
