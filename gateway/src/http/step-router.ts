import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { CallOf, SignInStep } from '../identity/sign-in/sign-in-step.js';
import { handle } from './plumbing.js';
import type { SignInResponses } from './sign-in-responses.js';

/** How one call of a sign-in step is served. */
export interface StepRoute {
  /**
   * `view`: a query call, answered for GET and POST (SPEC.md §7); `post`: a command, POST only (it sends, stores or
   * uses something up, so it needs the anti-forgery check a GET would skip).
   */
  method: 'view' | 'post';
  /**
   * `step`: answered only while a live pending sign-in waits at a step that lists the call; anything else forgets
   * the pending sign-in and restarts the flow. `open`: the handler finds its caller itself — the step's pending
   * sign-in, or a signed-in account changing its own settings (S21), or anyone (PasswordRules of the reset page).
   * The sign-in gate still refuses the call while a sign-in waits at another step (S3, S20).
   */
  caller: 'step' | 'open';
  /** Runs before the call's own handler (a captcha guard). */
  before?: RequestHandler;
  serve: (req: Request, res: Response) => Promise<void>;
}

/** One route per call of the steps: every call they declare, and no other (checked when compiling). */
export type StepRoutes<Steps extends readonly SignInStep[]> = {
  [Call in CallOf<Steps[number]>]: StepRoute;
};

/**
 * The router of one flow's steps, built from their declarations (issue 42): it answers exactly the calls the
 * steps list — the same list the sign-in gate allows while a sign-in waits there — so the calls a step allows and
 * the routes that serve them are one declaration. A call two steps of the flow share (the PIN of the 2FA page and
 * of the set-up wizard) is served once.
 */
export function stepRouter<const Steps extends readonly SignInStep[]>(
  responses: Pick<SignInResponses, 'requireStep'>,
  steps: Steps,
  routes: StepRoutes<Steps>,
): Router {
  const router = Router();
  const served = new Set<string>();
  for (const step of steps) {
    for (const call of step.calls) {
      if (served.has(call)) continue;
      served.add(call);
      const route = (routes as Record<string, StepRoute | undefined>)[call];
      if (!route) throw new Error(`sign-in step ${step.id}: no route serves ${call}`);
      const owners = steps.filter((s) => s.calls.includes(call)).map((s) => s.id);
      const handlers: RequestHandler[] = [
        ...(route.caller === 'step' ? [responses.requireStep(owners)] : []),
        ...(route.before ? [route.before] : []),
        handle(route.serve),
      ];
      if (route.method === 'view') router.get(`/${call}`, ...handlers);
      router.post(`/${call}`, ...handlers);
    }
  }
  return router;
}
