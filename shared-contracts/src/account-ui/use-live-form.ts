import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormErrors } from '../api/index.js';
import { parseErrorCode } from '../error-codes.js';
import { isPasswordRuleCode } from './password-rule-checks.js';

/**
 * A message's text: its code's translation in the shared `errors` namespace (loaded on every page), or the text a
 * server sent. `translateErrorMessage` of shared-contracts/api says the same; this module does not import the API
 * client's entry, which would bundle a second copy of it into this shared module.
 */
function translateCode(
  t: (key: string, values?: Record<string, unknown>) => string,
  message: string,
): string {
  const parsed = parseErrorCode(message);
  return 'text' in parsed ? parsed.text : t(`errors:${parsed.code}`, parsed.values);
}

/** A schema's safeParse answer, read structurally (zod issues: a path and an error code as message). */
interface ParseResult {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

/** Error codes of a parse, by the first segment of each issue's path (every rule runs: SPEC.md §5). */
export function codesByField(result: ParseResult): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0] ?? '');
    (byField[key] ??= []).push(issue.message);
  }
  return byField;
}

/** Options of {@link useLiveForm}. */
export interface LiveFormOptions<F extends string> {
  /**
   * Fields whose password rules are shown beside them as a live checklist: while typing, the checklist marks the
   * rules and the field's errors leave them out; once a submit was tried, the failing rules are listed under SPEC.md
   * §5's "Password does not meet the requirements." (`passwordRequirements`).
   */
  guided?: readonly F[];
}

/** A guided field's codes: the rules only after a submit, then under their summary; everything else as it comes. */
function guidedCodes(codes: readonly string[], submitted: boolean): string[] {
  const rules = codes.filter(isPasswordRuleCode);
  const others = codes.filter((code) => !isPasswordRuleCode(code));
  return submitted && rules.length > 0 ? ['passwordRequirements', ...rules, ...others] : others;
}

/**
 * A form whose fields are checked live with the shared schema as the user types (SPEC.md §5: all rules run). A
 * field shows its messages once it was edited, or once a submit was tried; the server's errors of the last call
 * (the 400 errors map) are added to them until the next edit.
 */
export function useLiveForm<F extends string>(
  fields: readonly F[],
  validate: (values: Record<F, string>) => ParseResult,
  server: FormErrors,
  clearServer: () => void,
  options: LiveFormOptions<F> = {},
) {
  const { t } = useTranslation();
  const [values, setValues] = useState(
    () => Object.fromEntries(fields.map((f) => [f, ''])) as Record<F, string>,
  );
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  /**
   * After a change was made: empties the fields and forgets they were edited (a failed call never does: what was
   * typed stays for the next try).
   */
  const clear = () => {
    setValues(Object.fromEntries(fields.map((f) => [f, ''])) as Record<F, string>);
    setTouched({});
    setSubmitted(false);
  };
  const live = codesByField(validate(values));

  const errorsOf = (name: F): string[] => {
    const codes = submitted || touched[name] ? (live[name] ?? []) : [];
    const shown = options.guided?.includes(name) ? guidedCodes(codes, submitted) : codes;
    const translated = shown.map((code) => translateCode(t, code));
    return [...new Set([...translated, ...server.field(name)])];
  };

  const onChange = (name: F) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((previous) => ({ ...previous, [name]: value }));
    setTouched((previous) => ({ ...previous, [name]: true }));
    if (server.any) clearServer();
  };

  const focus = (form: HTMLFormElement, name: string) => {
    form.querySelector<HTMLInputElement>(`[name="${name}"]`)?.focus();
  };

  /** Marks the form submitted; when a field is invalid, focuses the first one and answers false. */
  const check = (form: HTMLFormElement): boolean => {
    setSubmitted(true);
    const first = fields.find((f) => (live[f] ?? []).length > 0);
    if (first) {
      focus(form, first);
      return false;
    }
    return true;
  };

  /** After a failed call: focuses the first field the server's errors map names. */
  const focusServerErrors = (
    form: HTMLFormElement,
    fieldErrors: Record<string, readonly string[]> | undefined,
  ) => {
    const first = fields.find((f) => (fieldErrors?.[f] ?? []).length > 0);
    if (first) focus(form, first);
  };

  return { values, onChange, errorsOf, check, focusServerErrors, clear };
}
