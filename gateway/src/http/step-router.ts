import { Router, type Request, type Response } from 'express';
import type { CallOf, SignInStep } from '../identity/sign-in/sign-in-step.js';
import { callerOf, type AccountCallName, type CallerOfCall } from './account-access.js';
import { handle } from './plumbing.js';
import type { RequestHandler } from 'express';

/** How one call of a sign-in step is served. Who may call it is the call's row in `ACCOUNT_CALL_ACCESS`. */
export interface StepRoute<Call extends AccountCallName = AccountCallName> {
  /**
   * `view`: a query call, answered for GET and POST (SPEC.md §7); `post`: a command, POST only (it sends, stores or
   * uses something up, so it needs the anti-forgery check a GET would skip).
   */
  method: 'view' | 'post';
  /** Runs before the call's own handler (a captcha guard). */
  before?: RequestHandler;
  /** The call's handler, with the caller the access guard resolved for it (typed by the call's policy). */
  serve: (req: Request, res: Response, caller: CallerOfCall<Call>) => Promise<void>;
}

/** One route per call of the steps: every call they declare, and no other (checked when compiling). */
export type StepRoutes<Steps extends readonly SignInStep[]> = {
  [Call in CallOf<Steps[number]> & AccountCallName]: StepRoute<Call>;
};

/**
 * The routes object as written (`R`, inferred through this homomorphic mapping, spreads included): a key that is no
 * call of the steps must be `never`, so an extra route fails the type check.
 */
type ExactlyTheCalls<Steps extends readonly SignInStep[], R> = {
  [K in keyof R]: K extends CallOf<Steps[number]> & AccountCallName ? StepRoute<K> : never;
};

/**
 * The router of one flow's steps, built from their declarations (issue 42): it answers exactly the calls the
 * steps list — the same list the sign-in gate allows while a sign-in waits there — so the calls a step allows and
 * the routes that serve them are one declaration. `routes` is checked exactly: a route for a call the steps do not
 * list (a spread included) fails the type check. A call two steps of the flow share (the PIN of the 2FA page and
 * of the set-up wizard) is served once. Who may call each is not decided here: the account API's access guard
 * enforces `ACCOUNT_CALL_ACCESS` before this router runs.
 */
export function stepRouter<const Steps extends readonly SignInStep[], R>(
  steps: Steps,
  routes: StepRoutes<Steps> & ExactlyTheCalls<Steps, R>,
): Router {
  const router = Router();
  const served = new Set<string>();
  for (const step of steps) {
    for (const call of step.calls) {
      if (served.has(call)) continue;
      served.add(call);
      const route = (routes as unknown as Record<string, StepRoute | undefined>)[call];
      if (!route) throw new Error(`sign-in step ${step.id}: no route serves ${call}`);
      const handlers: RequestHandler[] = [
        ...(route.before ? [route.before] : []),
        handle((req, res) => route.serve(req, res, callerOf(res, call as AccountCallName))),
      ];
      if (route.method === 'view') router.get(`/${call}`, ...handlers);
      router.post(`/${call}`, ...handlers);
    }
  }
  for (const extra of Object.keys(routes).filter((call) => !served.has(call)))
    throw new Error(`no step of this router lists ${extra}`);
  return router;
}
