import {
  ROLE_PERMISSIONS,
  type ConsoleAccess,
  type ConsoleGrant,
  type ConsolePermissionName,
  type ConsoleRole,
} from 'shared-contracts/console';
import type { Clock } from '../../infra/clock.js';
import type { StoredConsoleGrant } from '../../store/console-grant.repository.js';
import type { Store } from '../../store/store.js';
import type { SignInFacts } from '../sign-in/sign-in-step.js';
import type { ConsoleActor } from './console-actor.js';

/** Where a console permission must apply (the access table's `ConsolePermission.scope`). */
export type ConsoleScopeName = 'all' | 'partner' | 'customer';

/** The roles that apply everywhere: they take neither a partner nor a customer. */
const GLOBAL_ROLES: readonly ConsoleRole[] = ['platformAdmin', 'releaseManager'];

/** Why a grant or a withdrawal was refused; the CLI and the console word it. */
export type ConsoleGrantRefusal =
  | { kind: 'unknownUser' }
  | { kind: 'unknownPartner'; partnerId: string }
  | { kind: 'unknownCustomer'; customerId: string }
  /** A platform administrator or release manager applies everywhere: no partner, no customer. */
  | { kind: 'globalRole'; role: ConsoleRole }
  /** Support is for one partner's people. */
  | { kind: 'partnerRequired' }
  /** Support is for a partner, not for a customer. */
  | { kind: 'supportTakesNoCustomer' }
  /** A customer administrator is for one customer. */
  | { kind: 'customerRequired' }
  /** The partner given is not the customer's. */
  | { kind: 'customerOfAnotherPartner'; customerId: string; partnerId: string | null }
  | { kind: 'alreadyGranted' }
  | { kind: 'notGranted' }
  /** The console would be left without a platform administrator. */
  | { kind: 'lastPlatformAdmin' }
  /** The operator does not hold every permission of the role over the grant's scope ({@link holdsEnough}). */
  | { kind: 'beyondOwn' };

/** What a grant or withdrawal asks for. */
export interface ConsoleGrantRequest {
  userId: string;
  role: ConsoleRole;
  partnerId?: string | null | undefined;
  customerId?: string | null | undefined;
  actor: ConsoleActor;
  reason?: string | null | undefined;
}

/** A grant or withdrawal's outcome. */
export type ConsoleGrantOutcome =
  | { kind: 'done'; grant: ConsoleGrant & { username: string } }
  | { kind: 'refused'; refusal: ConsoleGrantRefusal };

/** What {@link createConsoleGrantsService} reads. */
export interface ConsoleGrantsDeps {
  store: Pick<Store, 'consoleGrants' | 'users' | 'partners' | 'customers' | 'audit'>;
  /** The sign-in's facts know whether an account has a second factor or a passkey: asked, not duplicated. */
  facts: Pick<SignInFacts, 'hasSecondFactor' | 'hasDevice'>;
  clock: Clock;
}

/** The permissions a set of grants gives: the union of their roles' (shared-contracts' `ROLE_PERMISSIONS`). */
export function permissionsOf(grants: readonly Pick<ConsoleGrant, 'role'>[]): ConsolePermissionName[] {
  return [...new Set(grants.flatMap((grant) => ROLE_PERMISSIONS[grant.role]))];
}

/**
 * Whether a grant gives `permission` over `scope`: scope `all` (releases, partners) needs a grant that applies
 * everywhere; `partner` a grant everywhere or over a whole partner (support); `customer` any grant with the
 * permission (a customer administrator's too). The handler narrows by the grant's partner or customer.
 */
export function grantGives(
  grant: ConsoleGrant,
  permission: ConsolePermissionName,
  scope: ConsoleScopeName,
): boolean {
  if (!ROLE_PERMISSIONS[grant.role].includes(permission)) return false;
  switch (scope) {
    case 'all':
      return grant.partnerId === null && grant.customerId === null;
    case 'partner':
      return grant.customerId === null;
    case 'customer':
      return true;
  }
}

/** Whether `held` applies over all of `scope`: everywhere, over the scope's whole partner, or its very customer. */
function covers(
  held: Pick<ConsoleGrant, 'partnerId' | 'customerId'>,
  scope: { partnerId: string | null; customerId: string | null },
): boolean {
  if (held.partnerId === null && held.customerId === null) return true;
  if (held.customerId === null) return scope.partnerId !== null && held.partnerId === scope.partnerId;
  return scope.customerId !== null && held.customerId === scope.customerId;
}

/**
 * "Nobody grants more than they hold" (ADR 0063): an operator may give or withdraw a role over a scope only when
 * every permission of that role is given to the operator by a grant of theirs that applies over all of that scope
 * (everywhere; or the same whole partner; or the same customer). So a support of one partner can never hand out
 * platform administrator, nor support of another partner, nor grant themselves anything they lack.
 */
export function holdsEnough(
  held: readonly ConsoleGrant[],
  role: ConsoleRole,
  scope: { partnerId: string | null; customerId: string | null },
): boolean {
  return ROLE_PERMISSIONS[role].every((permission) =>
    held.some((grant) => ROLE_PERMISSIONS[grant.role].includes(permission) && covers(grant, scope)),
  );
}

function contractGrant(grant: StoredConsoleGrant): ConsoleGrant {
  return { role: grant.role, partnerId: grant.partnerId, customerId: grant.customerId };
}

/**
 * The operators' console grants (issue 51, ADR 0058), apart from the HR applications' roles: granting and
 * withdrawing them (each audited as `console.grant.added` / `console.grant.withdrawn` with the console's audit
 * shape), reading an account's, and whether an account is ready for the console (a second factor or a passkey).
 * The console's calls and the admin CLI both come here.
 */
export function createConsoleGrantsService(deps: ConsoleGrantsDeps) {
  const { store, facts, clock } = deps;

  /** The grant's partner and customer as the role's rules want them, or why not. */
  async function scopeOf(
    request: ConsoleGrantRequest,
  ): Promise<{ partnerId: string | null; customerId: string | null } | ConsoleGrantRefusal> {
    const partnerId = request.partnerId ?? null;
    const customerId = request.customerId ?? null;
    if (GLOBAL_ROLES.includes(request.role)) {
      return partnerId === null && customerId === null
        ? { partnerId, customerId }
        : { kind: 'globalRole', role: request.role };
    }
    if (request.role === 'support') {
      if (customerId !== null) return { kind: 'supportTakesNoCustomer' };
      if (partnerId === null) return { kind: 'partnerRequired' };
      if (!(await store.partners.findById(partnerId))) return { kind: 'unknownPartner', partnerId };
      return { partnerId, customerId };
    }
    // A customer administrator: one customer, with that customer's own partner beside it.
    if (customerId === null) return { kind: 'customerRequired' };
    const customer = await store.customers.findById(customerId);
    if (!customer) return { kind: 'unknownCustomer', customerId };
    if (partnerId !== null && partnerId !== customer.partnerId)
      return { kind: 'customerOfAnotherPartner', customerId, partnerId: customer.partnerId };
    return { partnerId: customer.partnerId, customerId };
  }

  async function audit(
    kind: 'console.grant.added' | 'console.grant.withdrawn',
    request: ConsoleGrantRequest,
    username: string,
    scope: { partnerId: string | null; customerId: string | null },
  ): Promise<void> {
    await store.audit.record({
      at: clock.now(),
      kind,
      userId: request.actor.userId,
      ip: null,
      data: {
        actor: request.actor.name,
        subject: username,
        reason: request.reason ?? null,
        role: request.role,
        partnerId: scope.partnerId,
        customerId: scope.customerId,
      },
    });
  }

  async function grantee(userId: string) {
    return store.users.findById(userId);
  }

  async function grantsOf(userId: string): Promise<ConsoleGrant[]> {
    return (await store.consoleGrants.listOf(userId)).map(contractGrant);
  }

  /** The CLI (a shell on the server, no account) holds everything; an operator what their grants give. */
  async function actorHoldsEnough(
    request: ConsoleGrantRequest,
    scope: { partnerId: string | null; customerId: string | null },
  ): Promise<boolean> {
    if (request.actor.userId === null) return true;
    return holdsEnough(await grantsOf(request.actor.userId), request.role, scope);
  }

  async function secondFactorReady(userId: string): Promise<boolean> {
    return (await facts.hasSecondFactor(userId)) || (await facts.hasDevice(userId));
  }

  return {
    /** Grants a role (over a partner or a customer where the role needs one). */
    async grant(request: ConsoleGrantRequest): Promise<ConsoleGrantOutcome> {
      const user = await grantee(request.userId);
      if (!user) return { kind: 'refused', refusal: { kind: 'unknownUser' } };
      const scope = await scopeOf(request);
      if ('kind' in scope) return { kind: 'refused', refusal: scope };
      if (!(await actorHoldsEnough(request, scope)))
        return { kind: 'refused', refusal: { kind: 'beyondOwn' } };
      const stored = await store.consoleGrants.add({
        userId: user.id,
        role: request.role,
        ...scope,
        grantedBy: request.actor.name,
      });
      if (!stored) return { kind: 'refused', refusal: { kind: 'alreadyGranted' } };
      await audit('console.grant.added', request, user.username, scope);
      return { kind: 'done', grant: { ...contractGrant(stored), username: user.username } };
    },

    /** Withdraws a grant; never the last platform administrator's. */
    async withdraw(request: ConsoleGrantRequest): Promise<ConsoleGrantOutcome> {
      const user = await grantee(request.userId);
      if (!user) return { kind: 'refused', refusal: { kind: 'unknownUser' } };
      const scope = await scopeOf(request);
      if ('kind' in scope) return { kind: 'refused', refusal: scope };
      if (!(await actorHoldsEnough(request, scope)))
        return { kind: 'refused', refusal: { kind: 'beyondOwn' } };
      const removal = await store.consoleGrants.remove({ userId: user.id, role: request.role, ...scope });
      if (removal === 'notFound') return { kind: 'refused', refusal: { kind: 'notGranted' } };
      if (removal === 'lastPlatformAdmin') return { kind: 'refused', refusal: { kind: 'lastPlatformAdmin' } };
      await audit('console.grant.withdrawn', request, user.username, scope);
      return { kind: 'done', grant: { role: request.role, ...scope, username: user.username } };
    },

    /** The account of a username (exactly that username, not an e-mail address), for the console's forms. */
    async accountNamed(username: string): Promise<{ id: string; username: string } | undefined> {
      const user = await store.users.findByLogin(username);
      return user && user.username.toLowerCase() === username.trim().toLowerCase() ? user : undefined;
    },

    /** Every grant (or one account's), with usernames and who granted each. */
    list(filter: { userId?: string } = {}): Promise<StoredConsoleGrant[]> {
      return store.consoleGrants.list(filter);
    },

    /** An account's grants, as the contract has them. */
    grantsOf,

    /** Whether the account has a second factor or a passkey: the console refuses it every call until it has. */
    secondFactorReady,

    /** `ConsoleAccess`: the account's grants, the permissions they give, and whether it is ready for the console. */
    async access(userId: string): Promise<ConsoleAccess> {
      const grants = await grantsOf(userId);
      return {
        grants,
        permissions: permissionsOf(grants),
        secondFactorReady: await secondFactorReady(userId),
      };
    },
  };
}

/** The console grants service. */
export type ConsoleGrantsService = ReturnType<typeof createConsoleGrantsService>;
