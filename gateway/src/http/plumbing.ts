import type { Request, RequestHandler, Response, Router } from 'express';
import { isErrorCode } from 'shared-contracts';
import { z } from 'zod';
import { requiredWhenMissing, sendValidationProblem, zodErrorsMap } from './problem.js';

/** The call a request names: the last path segment, lower-cased (`/api/Account/Login` → "login"). */
export function callName(req: Request): string {
  return (req.path.split('/').filter(Boolean)[0] ?? '').toLowerCase();
}

/**
 * Parses with a shared schema (`zod/mini`) or a gateway one; on failure answers the 400 errors map and returns
 * undefined.
 */
export function parse<T>(schema: z.core.$ZodType<T>, value: unknown, res: Response): T | undefined {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  sendValidationProblem(res, zodErrorsMap(result.error, isErrorCode));
  return undefined;
}

/** Parses as {@link parse} does, answering nothing: the caller decides what a refusal means. */
export function safeParse<T>(schema: z.core.$ZodType<T>, value: unknown) {
  return z.safeParse(schema, value ?? {}, { error: requiredWhenMissing });
}

/** Wraps an async handler so a rejection reaches the error middleware instead of hanging the request. */
export function handle(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    fn(req, res).catch(next);
  };
}

/** Registers a query call for GET and POST (SPEC.md §7 says POST unless marked GET; both are read-only here). */
export function view(router: Router, path: string, fn: (req: Request, res: Response) => Promise<void>): void {
  router.get(path, handle(fn));
  router.post(path, handle(fn));
}

/** One query value by case-insensitive name; undefined when absent or empty, null when repeated or nested. */
export function queryValue(req: Request, name: string): string | undefined | null {
  const wanted = name.toLowerCase();
  const entry = Object.entries(req.query).find(([key]) => key.toLowerCase() === wanted);
  if (!entry || entry[1] === undefined || entry[1] === '') return undefined;
  return typeof entry[1] === 'string' ? entry[1] : null;
}
