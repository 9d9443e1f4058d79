import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { parseErrorCode } from '../error-codes.js';
import {
  normaliseFieldErrors,
  validationProblemSchema,
  type ApiError,
  type FieldErrors,
} from '../protocol.js';

/** Translates a function of the `errors` namespace: `t('errors:required')`. */
type Translate = (key: string, values?: Record<string, unknown>) => string;

/** True when an RTK Query error is an {@link ApiError} from the account base query. */
export function isApiError(error: unknown): error is ApiError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ApiError).status === 'number' &&
    typeof (error as ApiError).errors === 'object'
  );
}

/**
 * Translates a server message: a code of ERROR_MESSAGES (optionally `code|{values}`) goes through the `errors`
 * namespace; unknown text (an older server, a proxy) is shown as it is, never as markup.
 */
export function translateErrorMessage(t: Translate, message: string): string {
  const parsed = parseErrorCode(message);
  if ('text' in parsed) return parsed.text;
  return t(`errors:${parsed.code}`, parsed.values);
}

/** The translated errors of one action (SPEC.md §4 "Per-action state", §8 "errors set keyed by field"). */
export interface FormErrors {
  /** Translated messages of a field (key as the server sent it, first letter lower-cased). */
  field: (name: string) => string[];
  /** Form-level messages: the empty key, plus the status catalogue text for non-validation failures. */
  form: string[];
  /** Whether there is any error at all. */
  any: boolean;
}

/** How an action's failure becomes its error set. */
export interface FormErrorOptions {
  /**
   * SPEC.md §7: "Login, one-time-token login and vendor login ignore empty failures". An answer without an errors
   * map (an empty 500, the empty 400 of a timed-out session, which the sign-in page explains itself) adds no
   * message; an answer with one still shows it. Offline is not an answer, so "You are offline" still shows.
   */
  ignoreEmpty?: boolean;
}

/** The errors map a refusal other than a 400 carries in its body (403, 404, 429 and 503 of the gateway), if any. */
function bodyErrorsOf(body: unknown): FieldErrors | undefined {
  const parsed = validationProblemSchema.safeParse(body);
  return parsed.success ? normaliseFieldErrors(parsed.data.errors) : undefined;
}

/**
 * Builds the translated error set of an action from its RTK Query error. Field keys follow SPEC.md §4 (the
 * empty key is form-level). A refusal of another status says why with the codes of its body's errors map (403
 * `recentSignInRequired`, 429 `tooManyAttempts`), so the page never handles statuses itself; a failure with a status
 * only (an empty 500, a proxy's 502) reads "Something went wrong" — never the raw status text ("Forbidden",
 * "Internal Server Error": issue 49), unless the action ignores empty failures ({@link FormErrorOptions}).
 */
export function formErrorsOf(
  t: Translate,
  error: ApiError | SerializedError | undefined,
  options: FormErrorOptions = {},
): FormErrors {
  if (!error) return { field: () => [], form: [], any: false };
  let fields: FieldErrors = {};
  let form: string[];
  if (isApiError(error)) {
    fields = Object.keys(error.errors).length > 0 ? error.errors : (bodyErrorsOf(error.body) ?? {});
    const hasFields = Object.keys(fields).length > 0;
    if (hasFields) form = (fields[''] ?? []).map((m) => translateErrorMessage(t, m));
    else if (error.status === 0) form = [t('errors:offline')];
    else if (options.ignoreEmpty) form = [];
    else form = [t('errors:unexpectedError')];
  } else {
    form = [t('errors:unexpectedError')];
  }
  return {
    field: (name) => (name === '' ? [] : (fields[name] ?? []).map((m) => translateErrorMessage(t, m))),
    form,
    any: form.length > 0 || Object.keys(fields).length > 0,
  };
}

/**
 * The per-action error convention of SPEC.md §4 as a hook. Each action is one RTK Query mutation: its
 * `isLoading` is the action's loading flag and its `error` the action's error set, both reset when the action
 * starts again. Pages pass the mutation's error here:
 *
 * ```tsx
 * const [login, { isLoading, error }] = useLoginMutation();
 * const errors = useFormErrors(error);
 * <TextField errors={errors.field('username')} … />
 * ```
 */
export function useFormErrors(
  error: ApiError | SerializedError | undefined,
  options?: FormErrorOptions,
): FormErrors {
  const { t } = useTranslation();
  return formErrorsOf(t, error, options);
}
