import { Router, type Request, type Response } from 'express';
import {
  addPersonMembershipRequestSchema,
  consolePeopleRequestSchema,
  consolePersonRequestSchema,
  personChangeRequestSchema,
  removePersonMembershipRequestSchema,
  type ConsoleCallName,
  type ConsolePermissionName,
} from 'shared-contracts/console';
import { operatorActor } from '../identity/console/console-actor.js';
import { peopleScopeOf, type PeopleScope } from '../identity/console/people-scope.js';
import type {
  PeopleService,
  PersonChange,
  PersonOutcome,
  PersonRefusal,
} from '../identity/console/people.service.js';
import { callerOf } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** Dependencies of {@link consolePeopleRouter}. */
export interface ConsolePeopleRouterDeps {
  people: PeopleService;
}

/** How a refused change answers: no address to mail to (409); a customer outside the caller's, or none (404). */
const REFUSALS: Record<PersonRefusal, { status: 404 | 409; code: 'emailRequired' | 'notFound' }> = {
  noEmail: { status: 409, code: 'emailRequired' },
  unknownCustomer: { status: 404, code: 'notFound' },
  notAMember: { status: 404, code: 'notFound' },
};

/** The calls that change one person and take nothing but the person and the reason. */
const PLAIN_CHANGES = [
  ['DisablePerson', 'disable'],
  ['EnablePerson', 'enable'],
  ['EndPersonSessions', 'endSessions'],
  ['ResetPersonSecondFactor', 'resetSecondFactor'],
  ['SendPersonPasswordReset', 'sendPasswordReset'],
  ['RequirePersonTwoStep', 'requireTwoStep'],
  ['ClearPersonThrottle', 'clearThrottle'],
] as const satisfies readonly (readonly [ConsoleCallName, keyof PeopleService])[];

/**
 * The console's People calls (issue 52, ADR 0061) over the one people service the CLI uses too. The guard let the
 * caller through on any grant holding the permission (scope `customer`); here the caller's grants narrow it to
 * their partner's people (support) or their customers' members (customer administrators). A person outside that is
 * refused, 403 `forbidden` (issue 52's Proof), and shows nothing of them; an unknown id, or a platform administrator
 * the caller may not know of, is 404 (ADR 0061). Each change answers the person as they now are.
 */
export function consolePeopleRouter(deps: ConsolePeopleRouterDeps): Router {
  const { people } = deps;
  const router = Router();

  function scopeOf(res: Response, call: ConsoleCallName, permission: ConsolePermissionName) {
    const caller = callerOf(res, call as 'ConsolePerson');
    return { caller, scope: peopleScopeOf(caller.grants, permission) };
  }

  async function answer(res: Response, scope: PeopleScope, outcome: PersonOutcome): Promise<void> {
    if (outcome.kind === 'notFound') return sendFormError(res, 'notFound', 404);
    if (outcome.kind === 'outOfReach') return sendFormError(res, 'forbidden', 403);
    if (outcome.kind === 'refused') {
      const { status, code } = REFUSALS[outcome.refusal];
      return sendValidationProblem(res, { [outcome.field]: [code] }, status);
    }
    // null when the change took the person out of the caller's reach (a customer administrator removed the
    // membership that made them one of its people).
    const now = await people.view(scope, outcome.person.id);
    res.json(typeof now === 'object' ? now : null);
  }

  view(router, '/ConsolePeople', async (req: Request, res) => {
    const { scope } = scopeOf(res, 'ConsolePeople', 'console.people.read');
    const request = parse(consolePeopleRequestSchema, req.method === 'GET' ? req.query : req.body, res);
    if (!request) return;
    // A customer outside the caller's is not found, as an unknown one: its members are not listed as "none".
    if (request.customerId !== undefined && !(await people.customerInScope(scope, request.customerId)))
      return sendFormError(res, 'notFound', 404);
    res.json(
      await people.search(scope, {
        text: request.query,
        customerId: request.customerId,
        page: request.page === undefined ? 1 : Number(request.page),
      }),
    );
  });
  view(router, '/ConsolePerson', async (req, res) => {
    const { scope } = scopeOf(res, 'ConsolePerson', 'console.people.read');
    const request = parse(consolePersonRequestSchema, req.method === 'GET' ? req.query : req.body, res);
    if (!request) return;
    const person = await people.view(scope, request.id);
    if (!person) return sendFormError(res, 'notFound', 404);
    if (person === 'outOfReach') return sendFormError(res, 'forbidden', 403);
    res.json(person);
  });

  for (const [call, method] of PLAIN_CHANGES) {
    router.post(
      `/${call}`,
      handle(async (req, res) => {
        const { caller, scope } = scopeOf(res, call, 'console.people.change');
        const request = parse(personChangeRequestSchema, req.body, res);
        if (!request) return;
        const made: PersonChange = { actor: operatorActor(caller.user), reason: request.reason };
        await answer(res, scope, await people[method](scope, request.id, made));
      }),
    );
  }
  router.post(
    '/AddPersonMembership',
    handle(async (req, res) => {
      const { caller, scope } = scopeOf(res, 'AddPersonMembership', 'console.people.change');
      const request = parse(addPersonMembershipRequestSchema, req.body, res);
      if (!request) return;
      const made: PersonChange = { actor: operatorActor(caller.user), reason: request.reason };
      const roles = [...new Set(request.roles)];
      await answer(
        res,
        scope,
        await people.addMembership(scope, request.id, { customerId: request.customerId, roles }, made),
      );
    }),
  );
  router.post(
    '/RemovePersonMembership',
    handle(async (req, res) => {
      const { caller, scope } = scopeOf(res, 'RemovePersonMembership', 'console.people.change');
      const request = parse(removePersonMembershipRequestSchema, req.body, res);
      if (!request) return;
      const made: PersonChange = { actor: operatorActor(caller.user), reason: request.reason };
      await answer(res, scope, await people.removeMembership(scope, request.id, request.customerId, made));
    }),
  );
  return router;
}
