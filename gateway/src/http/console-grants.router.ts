import { Router, type Response } from 'express';
import type { ErrorCode } from 'shared-contracts';
import { consoleGrantChangeRequestSchema, type ConsoleGrants } from 'shared-contracts/console';
import { operatorActor } from '../identity/console/console-actor.js';
import type {
  ConsoleGrantRefusal,
  ConsoleGrantsService,
} from '../identity/console/console-grants.service.js';
import { callerOf } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendValidationProblem } from './problem.js';

/** Dependencies of {@link consoleGrantsRouter}. */
export interface ConsoleGrantsRouterDeps {
  consoleGrants: Pick<ConsoleGrantsService, 'grant' | 'withdraw' | 'list' | 'accountNamed'>;
}

/**
 * How each refusal answers: a wrong field is a 400 on that field; what the state does not allow (held already,
 * not held, the last platform administrator) a 409; more than the operator holds a 403 on the role.
 */
const REFUSALS: Record<
  ConsoleGrantRefusal['kind'],
  { status: 400 | 403 | 409; field: string; code: ErrorCode }
> = {
  unknownUser: { status: 400, field: 'username', code: 'grantUnknownUser' },
  unknownPartner: { status: 400, field: 'partnerId', code: 'grantUnknownPartner' },
  unknownCustomer: { status: 400, field: 'customerId', code: 'grantUnknownCustomer' },
  globalRole: { status: 400, field: 'role', code: 'grantGlobalRole' },
  partnerRequired: { status: 400, field: 'partnerId', code: 'grantPartnerRequired' },
  supportTakesNoCustomer: { status: 400, field: 'customerId', code: 'grantSupportTakesNoCustomer' },
  customerRequired: { status: 400, field: 'customerId', code: 'grantCustomerRequired' },
  customerOfAnotherPartner: { status: 400, field: 'customerId', code: 'grantCustomerOfAnotherPartner' },
  alreadyGranted: { status: 409, field: 'role', code: 'grantAlreadyGranted' },
  notGranted: { status: 409, field: 'role', code: 'grantNotGranted' },
  lastPlatformAdmin: { status: 409, field: 'role', code: 'grantLastPlatformAdmin' },
  beyondOwn: { status: 403, field: 'role', code: 'grantBeyondOwn' },
};

/** An empty text is no partner or customer. */
function idOrNull(value: string | null | undefined): string | null {
  return value ? value : null;
}

/**
 * The console's grants page (issue 52, ADR 0063) over the one grants service the admin CLI uses: `ConsoleGrants`
 * lists every grant, `GrantConsoleRole` and `WithdrawConsoleRole` change one (audited by the service as
 * `console.grant.added` / `console.grant.withdrawn` with the operator as actor) and answer the grants as they now
 * are. Only platform administrators reach them (their rows in `ACCOUNT_CALL_ACCESS`); the service refuses anything
 * beyond what the operator holds.
 */
export function consoleGrantsRouter(deps: ConsoleGrantsRouterDeps): Router {
  const { consoleGrants } = deps;
  const router = Router();

  async function listed(): Promise<ConsoleGrants> {
    const grants = await consoleGrants.list();
    return {
      grants: grants.map((grant) => ({
        username: grant.username,
        role: grant.role,
        partnerId: grant.partnerId,
        customerId: grant.customerId,
        grantedBy: grant.grantedBy,
        grantedAt: new Date(grant.grantedAt).toISOString(),
      })),
    };
  }

  view(router, '/ConsoleGrants', async (_req, res) => {
    callerOf(res, 'ConsoleGrants');
    res.json(await listed());
  });

  for (const name of ['GrantConsoleRole', 'WithdrawConsoleRole'] as const) {
    router.post(
      `/${name}`,
      handle(async (req, res: Response) => {
        const caller = callerOf(res, name);
        const request = parse(consoleGrantChangeRequestSchema, req.body, res);
        if (!request) return;
        const account = await consoleGrants.accountNamed(request.username);
        if (!account) {
          sendValidationProblem(res, { username: ['grantUnknownUser'] });
          return;
        }
        const reason = request.reason?.trim();
        const change = {
          userId: account.id,
          role: request.role,
          partnerId: idOrNull(request.partnerId),
          customerId: idOrNull(request.customerId),
          actor: operatorActor(caller.user),
          reason: reason ? reason : null,
        };
        const outcome =
          name === 'GrantConsoleRole'
            ? await consoleGrants.grant(change)
            : await consoleGrants.withdraw(change);
        if (outcome.kind === 'refused') {
          const { status, field, code } = REFUSALS[outcome.refusal.kind];
          sendValidationProblem(res, { [field]: [code] }, status);
          return;
        }
        res.json(await listed());
      }),
    );
  }
  return router;
}
