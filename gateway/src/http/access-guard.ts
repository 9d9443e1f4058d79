import type { Request, RequestHandler, Response } from 'express';
import { grantGives, type ConsoleGrantsService } from '../identity/console/console-grants.service.js';
import type { TwoFactorService } from '../identity/two-factor/two-factor.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Session } from '../infra/sessions/session-manager.js';
import {
  policyOfRequested,
  setCaller,
  type AccountCaller,
  type Caller,
  type ConsolePermission,
  type ObjectKind,
  type OperatorCaller,
  type PendingCaller,
  type Policy,
  type User,
} from './account-access.js';
import { sessionReaderOf } from './browser.js';
import { callName } from './plumbing.js';
import { sendFormError } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';

/** Whether the object `id` of a kind belongs to the signed-in `user` (and may be changed from `session`). */
export type ObjectOwners = Record<ObjectKind, (user: User, id: string, session: Session) => Promise<boolean>>;

/** What {@link accessGuard} reads. */
export interface AccessGuardDeps {
  sessions: RequestSessions;
  signIn: Pick<SignInService, 'isAtStep'>;
  auth: Pick<SessionAuthService, 'signedInUser'>;
  twoFactor: Pick<TwoFactorService, 'recentFullSignIn' | 'user'>;
  responses: Pick<SignInResponses, 'restart'>;
  owners: ObjectOwners;
  /** The console's grants and whether an account is ready for the console (ADR 0058). */
  consoleGrants: Pick<ConsoleGrantsService, 'grantsOf' | 'secondFactorReady'>;
}

/** A refusal the guard answers; the handler never runs. */
type Refusal =
  | 'restart'
  | 'notAuthenticated'
  | 'recentSignInRequired'
  | 'notFound'
  | 'vendor'
  | 'forbidden'
  | 'secondFactorRequired';

/**
 * THE enforcement of `ACCOUNT_CALL_ACCESS` (issue 50, ADR 0052): before any router of the account API, it reads
 * the call's policy, resolves the caller (or refuses with the policy's answer) and hands it on (`callerOf`). A
 * name of no call passes on to the API's 404.
 */
export function accessGuard(deps: AccessGuardDeps): RequestHandler {
  const { sessions, signIn, auth, twoFactor, consoleGrants } = deps;

  async function pendingAt(
    session: Session | undefined,
    steps: readonly string[],
  ): Promise<PendingCaller | undefined> {
    const step = session ? steps.find((id) => signIn.isAtStep(session, id as never)) : undefined;
    const userId = session?.record.data.pending?.userId;
    if (!session || step === undefined || !userId) return undefined;
    const user = await twoFactor.user(userId);
    return user && !user.disabled
      ? { kind: 'pending', session, user, step: step as PendingCaller['step'] }
      : undefined;
  }

  async function account(req: Request, session: Session | undefined): Promise<AccountCaller | undefined> {
    if (!session) return undefined;
    const found = await auth.signedInUser(sessionReaderOf(sessions, req));
    return found ? { kind: 'account', session, user: found.user, info: found.info } : undefined;
  }

  function recent(caller: AccountCaller): Promise<boolean> {
    return twoFactor.recentFullSignIn(caller.user.id, caller.info.authTime, caller.info.amr);
  }

  /**
   * An operator of the console (ADR 0058), checked in this order so a refusal says no more than the caller may
   * know: signed in (401), grants that give the permission over the scope (403 `forbidden`: nothing about what
   * would), a second factor or a passkey (403 `secondFactorRequired`), a recent sign-in for a change (403
   * `recentSignInRequired`, the "Confirm it's you" dialog).
   */
  async function operator(
    req: Request,
    session: Session | undefined,
    policy: ConsolePermission,
  ): Promise<OperatorCaller | Refusal> {
    const caller = await account(req, session);
    if (!caller) return 'notAuthenticated';
    const grants = await consoleGrants.grantsOf(caller.user.id);
    if (!grants.some((grant) => grantGives(grant, policy.permission, policy.scope))) return 'forbidden';
    if (!(await consoleGrants.secondFactorReady(caller.user.id))) return 'secondFactorRequired';
    if (policy.recently && !(await recent(caller))) return 'recentSignInRequired';
    return { ...caller, kind: 'operator', grants };
  }

  /** The caller the policy lets through, or why it is refused. */
  async function resolve(req: Request, policy: Policy): Promise<Caller | Refusal> {
    if (policy.kind === 'anyone') return { kind: 'anyone' };
    const session = await sessions.current(req);
    switch (policy.kind) {
      case 'pendingSignInAt':
        return (await pendingAt(session, policy.steps)) ?? 'restart';
      case 'signedIn':
        return (await account(req, session)) ?? 'notAuthenticated';
      case 'signedInRecently': {
        const caller = await account(req, session);
        if (!caller) return 'notAuthenticated';
        return (await recent(caller)) ? caller : 'recentSignInRequired';
      }
      case 'ownerOf': {
        const caller = await resolve(req, policy.as);
        if (typeof caller === 'string' || caller.kind !== 'account') return caller;
        // An id that is not a string is the body's schema's to answer (400 errors map): nothing to look up.
        const id = (req.body as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string') return caller;
        return (await deps.owners[policy.object](caller.user, id, caller.session)) ? caller : 'notFound';
      }
      case 'stepOrSignedIn': {
        const pending = await pendingAt(session, policy.steps);
        if (pending) return !policy.vendors && pending.user.vendorId ? 'vendor' : pending;
        const caller = await account(req, session);
        if (!caller) return 'restart';
        if (!policy.vendors && caller.user.vendorId) return 'vendor';
        if (policy.recently && !(await recent(caller))) return 'recentSignInRequired';
        return caller;
      }
      case 'consolePermission':
        return operator(req, session, policy);
    }
  }

  async function refuse(req: Request, res: Response, refusal: Refusal): Promise<void> {
    switch (refusal) {
      case 'restart':
        return deps.responses.restart(req, res);
      case 'notAuthenticated':
        return sendFormError(res, 'notAuthenticated', 401);
      case 'recentSignInRequired':
        // One rule and one answer for every change of how one signs in (S21, ADR 0036).
        return sendFormError(res, 'recentSignInRequired', 403);
      case 'notFound':
        return sendFormError(res, 'notFound', 404);
      case 'vendor':
        // A vendor account adds no way in of its own: no passkey, second factor or linked account (ADR 0041).
        return sendFormError(res, 'vendorCredentialsOnly');
      case 'forbidden':
        return sendFormError(res, 'forbidden', 403);
      case 'secondFactorRequired':
        // The console asks every operator for a second factor or a passkey (ADR 0058): set one up, then come back.
        return sendFormError(res, 'secondFactorRequired', 403);
    }
  }

  return (req, res, next) => {
    const policy = policyOfRequested(callName(req), req.body);
    if (!policy) return next();
    resolve(req, policy)
      .then(async (caller) => {
        if (typeof caller === 'string') return refuse(req, res, caller);
        setCaller(res, caller);
        next();
      })
      .catch(next);
  };
}
