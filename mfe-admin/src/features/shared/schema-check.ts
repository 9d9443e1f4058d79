import { isErrorCode, type ApiError } from 'shared-contracts';

/** A shared schema's safeParse answer, read structurally (zod issues: a path and a message). */
interface ParseResult {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

/**
 * A form's values checked in the page with the very schema the gateway checks them with, as the 400 the gateway
 * would answer (SPEC.md §4): by field, the schema's own code (`applicationRedirectUri`) or `invalidValue`, as the
 * gateway's `zodErrorsMap` writes them. Undefined when the values pass; the gateway checks them again anyway.
 */
export function refusalOf(result: ParseResult): ApiError | undefined {
  if (result.success) return undefined;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    const code = isErrorCode(issue.message) ? issue.message : 'invalidValue';
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return { url: '', status: 400, statusText: '', message: '', body: undefined, errors };
}
