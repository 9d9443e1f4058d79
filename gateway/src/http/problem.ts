import type { Response } from 'express';
import { VALIDATION_PROBLEM_TITLE, fieldKey, type ErrorCode } from 'shared-contracts';
import type { ZodError } from 'zod';

/** Sends a 400 with the errors map of SPEC.md §4 (field keys first-letter lower-cased, empty key = form level). */
export function sendValidationProblem(res: Response, errors: Record<string, string[]>, status = 400): void {
  const normalised: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) normalised[fieldKey(key)] = messages;
  res.status(status).json({ title: VALIDATION_PROBLEM_TITLE, errors: normalised });
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
 * Maps a zod error to the errors map with our codes: the schema's own message when it is a code (e.g. "required"),
 * "required" for a missing value, "invalidValue" otherwise. Messages never echo the input.
 */
export function zodErrorsMap(error: ZodError, isCode: (text: string) => boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    let code: string;
    if (isCode(issue.message)) code = issue.message;
    else if (issue.code === 'invalid_type' && /received undefined|received null/.test(issue.message)) code = 'required';
    else code = 'invalidValue';
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}
