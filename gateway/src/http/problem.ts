import type { Response } from 'express';
import { DEFAULT_LOCALE, fieldKey, formatErrorCode, type ErrorCode } from 'shared-contracts';
import { translateErrorCode } from 'shared-contracts/locales';
import type { core } from 'zod';
import { RETRY_AFTER_SECONDS } from '../infra/dependency-health.js';
import { setRetryAfter } from '../infra/throttle/wait.js';
import { localeOf } from './locale.js';

/**
 * Sends a 400 with the errors map of SPEC.md §4 (field keys first-letter lower-cased, empty key = form level). The
 * map keeps the codes (the UI translates them); `title` and `detail` are written in the request's language
 * (`res.locals.locale`, see locale.ts) for clients without our UI: "One or more validation errors occurred." in
 * en-GB, and the messages' texts, each once.
 *
 * A missing required field is `required` in the map, shown under its labelled field as "This field is required."
 * (SPEC.md §5); the detail has no field beside it, so there it names the field: "{field} is required."
 * (`fieldRequired`), the field as the request names it (ADR 0040).
 */
export function sendValidationProblem(res: Response, errors: Record<string, string[]>, status = 400): void {
  const locale = localeOf(res) ?? DEFAULT_LOCALE;
  const normalised: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) normalised[fieldKey(key)] = messages;
  const texts = [
    ...new Set(
      Object.entries(normalised).flatMap(([field, codes]) =>
        codes.map((code) => translateErrorCode(detailCode(field, code), locale)),
      ),
    ),
  ];
  // Every 503 is a dependency that does not answer (the store, Redis, a throttle's store): the client may try the
  // same call again shortly, and says so to a balancer or a retrying client.
  if (status === 503 && !res.get('Retry-After')) setRetryAfter(res, { seconds: RETRY_AFTER_SECONDS });
  res
    .status(status)
    .set('Content-Language', locale)
    .json({
      title: translateErrorCode('validationProblem', locale),
      detail: texts.join(' '),
      errors: normalised,
    });
}

/** The code a message of `field` is written with in the detail: a missing field named, the rest as they are. */
function detailCode(field: string, code: string): string {
  return code === 'required' && field !== '' ? formatErrorCode('fieldRequired', { field }) : code;
}

/** A form-level error (the empty key). */
export function sendFormError(res: Response, code: ErrorCode, status = 400): void {
  sendValidationProblem(res, { '': [code] }, status);
}

/** 400 without an errors body: the one way the client learns its session timed out (SPEC.md §4). */
export function sendSessionTimedOut(res: Response): void {
  res.status(400).json({});
}

/**
 * The error map of a request's parse: a missing value (undefined, or null where a value is expected) is `required`.
 * zod asks it only for issues whose schema names no code of its own, so `z.string('invalidCode')` keeps its code; and
 * it does not depend on zod's English messages, which the shared schemas (`zod/mini`, ADR 0025) do not load.
 */
export const requiredWhenMissing: core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)
    ? 'required'
    : undefined;

/**
 * Maps a zod error to the errors map with our codes: the schema's own message when it is a code (e.g. "required",
 * or {@link requiredWhenMissing}'s for a missing value), "invalidValue" otherwise. Messages never echo the input.
 */
export function zodErrorsMap(
  error: core.$ZodError,
  isCode: (text: string) => boolean,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    const code = isCode(issue.message) ? issue.message : 'invalidValue';
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}
