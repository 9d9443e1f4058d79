import type { PasswordRules } from 'shared-contracts';

/** One call the stub gateway answered: its URL and JSON body. */
export interface Call {
  url: string;
  body?: unknown;
}

/**
 * A stub of the account API for the pages' tests: the anti-forgery token, `PasswordRules` (the given rules) and the
 * answers given by call name (a status and a JSON body); every call is recorded.
 */
export function stubGateway(
  rules: PasswordRules,
  answers: Record<string, { status?: number; body: unknown }> = {},
): { calls: Call[]; fetch: typeof fetch } {
  const calls: Call[] = [];
  const stub = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    calls.push({ url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
    if (url.startsWith('/api/Account/Antiforgery')) {
      document.cookie = 'idp.x-csrf-token-value=t';
      return Promise.resolve(Response.json({ token: 't' }));
    }
    if (url.startsWith('/api/Account/PasswordRules')) return Promise.resolve(Response.json(rules));
    const name = url.replace(/^\/api\/Account\//, '').replace(/\?.*$/, '');
    const answer = answers[name];
    if (answer) return Promise.resolve(Response.json(answer.body, { status: answer.status ?? 200 }));
    return Promise.resolve(Response.json({ isAuthenticated: false }));
  };
  return { calls, fetch: stub };
}

/** Partner rules with every rule on, so each SPEC.md §5 message can show. */
export const STRICT_RULES: PasswordRules = {
  minLength: 10,
  maxLength: 64,
  requireCharacterClasses: true,
  maxConsecutive: 2,
  invalidCharacters: '<>',
};
