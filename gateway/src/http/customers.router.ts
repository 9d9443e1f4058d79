import type { Request, Response, Router } from 'express';
import {
  customersQuerySchema,
  returnUrlOf,
  selectCustomerRequestSchema,
  selectCustomerViewQuerySchema,
} from 'shared-contracts';
import { customerSelectionStep } from '../identity/customers/customer-selection.step.js';
import type { CustomerSelection } from '../identity/customers/customer-selection.service.js';
import type { CustomersService } from '../identity/customers/customers.service.js';
import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { parse } from './plumbing.js';
import { sendValidationProblem } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { stepRouter } from './step-router.js';
import { browserOf, sessionReaderOf } from './browser.js';

/** Dependencies of {@link customersRouter}. */
export interface CustomersRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  auth: SessionAuthService;
  customers: CustomersService;
  customerSelection: CustomerSelection;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
}

/** Who is choosing: a sign-in waiting at the customer step, or a signed-in account switching customer. */
interface Chooser {
  session: Session;
  userId: string;
  duringSignIn: boolean;
  /** The customer chosen in this session so far (switching). */
  current: string | undefined;
}

/**
 * Customers (SPEC.md §7 "Customers"; ADR 0009): SelectCustomerView, Customers, SelectCustomer. They answer a sign-in
 * waiting at the customer-selection step, and a signed-in account that switches customer (an application's
 * `prompt=select_account`); anyone else starts again at the sign-in page. Only the user's own customers are ever
 * listed or accepted (S37).
 */
export function customersRouter(deps: CustomersRouterDeps): Router {
  const { sessions, signIn, auth, customers, customerSelection, responses } = deps;
  /** The chooser of this request, or undefined after answering the protocol's restart. */
  async function chooser(req: Request, res: Response): Promise<Chooser | undefined> {
    const session = await sessions.current(req);
    const pendingUser = session?.record.data.pending?.userId;
    if (session && pendingUser && signIn.isAtStep(session, customerSelectionStep.id))
      return { session, userId: pendingUser, duringSignIn: true, current: undefined };
    const signedIn = session ? await auth.signedInUser(sessionReaderOf(sessions, req)) : undefined;
    if (!session || !signedIn) {
      await responses.restart(req, res);
      return undefined;
    }
    return { session, userId: signedIn.user.id, duringSignIn: false, current: signedIn.info.customerId };
  }

  /** Where the choice leads: the pending sign-in's own returnUrl, else the checked one of the request. */
  async function returnUrlFor(who: Chooser, asked: unknown): Promise<string> {
    return who.duringSignIn
      ? (who.session.record.data.pending?.returnUrl ?? '/')
      : deps.returnUrls.safe(asked);
  }

  return stepRouter(responses, [customerSelectionStep], {
    SelectCustomerView: {
      method: 'view',
      caller: 'open',
      async serve(req, res) {
        const query = parse(selectCustomerViewQuerySchema, caseless(req.query), res);
        if (!query) return;
        const who = await chooser(req, res);
        if (!who) return;
        const answer = await customers.view(who.userId, query.cid, who.current);
        const returnUrl = await returnUrlFor(who, returnUrlOf(req.query));
        res.set('Cache-Control', 'no-store').json({ ...answer, returnUrl });
      },
    },
    Customers: {
      method: 'view',
      caller: 'open',
      async serve(req, res) {
        const query = parse(customersQuerySchema, caseless(req.query), res);
        if (!query) return;
        const who = await chooser(req, res);
        if (!who) return;
        res.set('Cache-Control', 'no-store').json(await customers.search(who.userId, query));
      },
    },
    SelectCustomer: {
      method: 'post',
      caller: 'open',
      async serve(req, res) {
        const body = parse(selectCustomerRequestSchema, req.body, res);
        if (!body) return;
        const who = await chooser(req, res);
        if (!who) return;
        const selected = await customerSelection.select(browserOf(sessions, req, res), who, body.customerId);
        if (selected.kind === 'refused') return sendValidationProblem(res, { customerId: ['invalidValue'] });
        if (selected.kind === 'signIn') return responses.sendOutcome(res, selected.outcome);
        responses.redirect(
          res,
          await returnUrlFor(who, body.returnUrl ?? returnUrlOf(req.query)),
          selected.session,
        );
      },
    },
  });
}

/**
 * Query names are case-insensitive (`returnUrl`, `ReturnUrl`, `CID`); a repeated name stays an array and fails the
 * schema as an invalid value.
 */
function caseless(query: Request['query']): Record<string, unknown> {
  const names = ['returnUrl', 'cid', 'filter', 'page', 'size'];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const name = names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name && value !== '') out[name] = value;
  }
  return out;
}
