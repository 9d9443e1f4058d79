/** A stub account API for component tests: answers by call name and records what was sent. */
export interface StubCall {
  call: string;
  query: URLSearchParams;
  body: unknown;
}

/** Answers of the stub, by call name; a function answers from the request (at once or later). */
export type StubAnswers = Record<string, (call: StubCall) => Response | Promise<Response>>;

/** A `fetch` for `renderWithProviders` that answers account calls from `answers`, plus the calls it saw. */
export function stubGateway(answers: StubAnswers) {
  const calls: StubCall[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const call = url.pathname.replace(/^\/api\/Account\//i, '');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const entry = { call, query: url.searchParams, body };
    calls.push(entry);
    if (call === 'Antiforgery' || call === 'Exchange')
      return Promise.resolve(Response.json({ token: 'token' }));
    const answer = answers[call];
    return Promise.resolve(answer ? answer(entry) : Response.json({ isAuthenticated: false }));
  };
  return { fetch, calls };
}

/** The 400 errors map of SPEC.md §4 for one field. */
export function fieldError(field: string, code: string): Response {
  return Response.json({ title: 'x', errors: { [field]: [code] } }, { status: 400 });
}
