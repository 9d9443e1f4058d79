import { useEffect, useState } from 'react';
import { baseApi } from 'shared-contracts/api';
import { consolePeopleSchema, type ConsolePeople, type ConsolePeopleRequest } from 'shared-contracts/console';

/**
 * `GET ConsolePeople` (issue 52, ADR 0061): one page of the people the caller may help, by username, e-mail, display
 * name or customer name. The People page lists it; the grant and membership dialogs suggest from it as one types.
 * Tag `People`: every change of a person asks it again.
 */
export const peopleSearchApi = baseApi.enhanceEndpoints({ addTagTypes: ['People'] }).injectEndpoints({
  endpoints: (build) => ({
    consolePeople: build.query<ConsolePeople, ConsolePeopleRequest>({
      query: (params) => ({ url: 'ConsolePeople', method: 'GET', params }),
      transformResponse: (body: unknown) => consolePeopleSchema.parse(body),
      providesTags: ['People'],
    }),
  }),
});

/** The people search. */
export const { useConsolePeopleQuery } = peopleSearchApi;

/**
 * The first page of the people search for what is being typed, asked once typing pauses (250 ms) and only from two
 * characters on, so a dialog's suggestions cost one call per pause, not one per key. Undefined while there is none.
 */
export function usePeopleSuggestions(text: string): ConsolePeople | undefined {
  const [asked, setAsked] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const { data } = useConsolePeopleQuery({ query: asked }, { skip: asked.length < 2 });
  return asked.length < 2 ? undefined : data;
}
