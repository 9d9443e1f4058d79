import {
  PEOPLE_PAGE_SIZE,
  type ConsolePeople,
  type ConsolePerson,
  type PersonRole,
  type SignInMethodKind,
} from 'shared-contracts/console';
import type { Clock } from '../../infra/clock.js';
import { sha256 } from '../../infra/crypto/tokens.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail, type AccountHelpChange } from '../../infra/mail/templates.js';
import type { SessionIndex } from '../../infra/sessions/session-index.js';
import type { LoginThrottle } from '../../infra/throttle/login-throttle.js';
import type { RoleName } from '../../store/roles.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { sessionNetwork } from '../account/security-centre/session-network.js';
import type { RecoveryService } from '../recovery/recovery.service.js';
import { endEverySignInOfAccount } from '../sign-out/account-sign-ins.js';
import type { ConsoleActor } from './console-actor.js';
import { scopeCoversCustomer, scopeReaches, type PeopleScope } from './people-scope.js';

/** The CLI's scope: an operator with a shell reaches everyone. */
export const EVERYONE: PeopleScope = { all: true, partnerIds: [], customerIds: [] };

/** What {@link createPeopleService} reads. */
export interface PeopleServiceDeps {
  store: Store;
  clock: Clock;
  /** Mails each change to the person in their partner's language; absent, nothing is mailed (the CLI). */
  mailer?: Mailer | undefined;
  /** The person's sessions (the person page); absent, none are listed (the CLI). */
  sessionIndex?: Pick<SessionIndex, 'sessionsOf'> | undefined;
  /** Ends every OIDC session with back-channel logout and every grant with its refresh tokens. */
  revokeOidc?: ((accountId: string) => Promise<unknown>) | undefined;
  /** The sign-in throttle, whose account counter `ClearPersonThrottle` clears. */
  throttle?: Pick<LoginThrottle, 'clearAccount'> | undefined;
  /** Mails a password reset link (`SendPersonPasswordReset`). */
  recovery?: Pick<RecoveryService, 'sendResetLinkTo'> | undefined;
  /** Where a mail's fault goes: the change stands whatever the mail does. */
  onBackgroundError?: ((error: unknown) => void) | undefined;
}

/** Why a change was refused. */
export type PersonRefusal =
  /** The person has no e-mail address (a reset link has nowhere to go) or no local password. */
  | 'noEmail'
  /** The customer does not exist or lies outside the caller's customers. */
  | 'unknownCustomer'
  /** The person is not a member of that customer. */
  | 'notAMember';

/**
 * A change's outcome: done (the person as they now are), not found (no such account, or a platform administrator
 * the caller may not even know of), out of reach (an account the caller's grants do not cover), or refused.
 */
export type PersonOutcome =
  | { kind: 'done'; person: User }
  | { kind: 'notFound' }
  | { kind: 'outOfReach' }
  | { kind: 'refused'; field: string; refusal: PersonRefusal };

/** A change of a person: who made it and why. */
export interface PersonChange {
  actor: ConsoleActor;
  reason: string | null;
}

/** The audit kinds of the People section (console audit shape, common to the console and the CLI). */
type PeopleAuditKind =
  | 'console.people.disabled'
  | 'console.people.enabled'
  | 'console.people.sessions-ended'
  | 'console.people.second-factor-reset'
  | 'console.people.password-reset-sent'
  | 'console.people.two-step-required'
  | 'console.people.throttle-cleared'
  | 'console.people.membership-added'
  | 'console.people.membership-removed';

const iso = (ms: number) => new Date(ms).toISOString();

/** The contract's membership roles are the gateway's (SPEC.md §3): `never` (and a type error) if the lists differ. */
type MembershipRole = [PersonRole] extends [RoleName]
  ? [RoleName] extends [PersonRole]
    ? RoleName
    : never
  : never;

/**
 * Helping people from the console (issue 52, ADR 0061) — and from the admin CLI, which calls the same functions
 * with {@link EVERYONE}'s scope: the search, a person's page, and each change (disable and enable, end every
 * sign-in, reset the second factor, mail a reset link, require two-step verification, clear the throttle, add or
 * remove a membership). Every change is audited with the console's shape and mailed to the person in their
 * partner's language. A person outside the scope is not found: the caller learns nothing of them.
 */
export function createPeopleService(deps: PeopleServiceDeps) {
  const { store, clock } = deps;

  async function platformAdminIds(): Promise<string[]> {
    const grants = await store.consoleGrants.list();
    return [...new Set(grants.filter((g) => g.role === 'platformAdmin').map((g) => g.userId))];
  }

  /**
   * The person `id` when the scope reaches them; `outOfReach` for an account it does not (issue 52's Proof: a
   * customer administrator asking for a member of another customer is refused, 403); undefined for no account, and
   * for a platform administrator out of reach: support never sees one (ADR 0061), not even that the id exists.
   */
  async function find(scope: PeopleScope, id: string): Promise<User | 'outOfReach' | undefined> {
    const user = await store.users.findById(id);
    if (!user) return undefined;
    if (scope.all) return user;
    const customers = await store.customers.customersOf(user.id);
    const platformAdmin = (await store.consoleGrants.listOf(user.id)).some((g) => g.role === 'platformAdmin');
    if (platformAdmin) return undefined;
    const reached = scopeReaches(scope, {
      partnerId: user.partnerId,
      customerIds: customers.map((c) => c.id),
      platformAdmin,
    });
    return reached ? user : 'outOfReach';
  }

  async function audit(kind: PeopleAuditKind, person: User, change: PersonChange, more: object = {}) {
    await store.audit.record({
      at: clock.now(),
      kind,
      userId: change.actor.userId,
      ip: null,
      partnerId: person.partnerId,
      data: { actor: change.actor.name, subject: person.username, reason: change.reason, ...more },
    });
  }

  /** Mails the change to the person in their partner's language; a mail fault never undoes the change. */
  async function mail(person: User, change: AccountHelpChange) {
    if (!deps.mailer || !person.email) return;
    const partner = person.partnerId ? await store.partners.findById(person.partnerId) : undefined;
    const message = renderMail('account-help', partner?.defaultLanguage, {
      partnerName: partner?.name ?? 'Identity',
      displayName: person.displayName,
      change,
      changedAt: clock.now(),
    });
    await deps.mailer
      .send({ to: person.email, subject: message.subject, text: message.text, html: message.html })
      .catch((error: unknown) => deps.onBackgroundError?.(error));
  }

  /** Runs a change of a person in scope: the change, then its audit and its mail. */
  async function change(
    scope: PeopleScope,
    id: string,
    made: PersonChange,
    run: (person: User) => Promise<{ field: string; refusal: PersonRefusal } | undefined | void>,
    record: { kind: PeopleAuditKind; mail?: AccountHelpChange; data?: object },
  ): Promise<PersonOutcome> {
    const person = await find(scope, id);
    if (!person) return { kind: 'notFound' };
    if (person === 'outOfReach') return { kind: 'outOfReach' };
    const refused = await run(person);
    if (refused) return { kind: 'refused', ...refused };
    await audit(record.kind, person, made, record.data);
    if (record.mail) await mail(person, record.mail);
    return { kind: 'done', person: (await store.users.findById(person.id)) ?? person };
  }

  async function endEverySignIn(userId: string) {
    return endEverySignInOfAccount({ store, revokeOidc: deps.revokeOidc }, userId);
  }

  async function methodsOf(user: User): Promise<SignInMethodKind[]> {
    const methods: SignInMethodKind[] = [];
    if (user.passwordHash) methods.push('password');
    const factor = await store.secondFactors.find(user.id);
    if (factor?.totpSecretSealed) methods.push('authenticator');
    if (factor?.smsPhone) methods.push('sms');
    if (factor?.pinEnabled) methods.push('pin');
    if ((await store.recoveryCodes.remaining(user.id)) > 0) methods.push('recoveryCodes');
    return methods;
  }

  return {
    find,

    /** Whether `customerId` names a customer within the scope. */
    async customerInScope(scope: PeopleScope, customerId: string): Promise<boolean> {
      const customer = await store.customers.findById(customerId);
      return customer !== undefined && scopeCoversCustomer(scope, customer);
    },

    /** `ConsolePeople`: one page of the people the scope reaches, by username. */
    async search(
      scope: PeopleScope,
      query: { text?: string | undefined; customerId?: string | undefined; page: number },
    ): Promise<ConsolePeople> {
      const exclude = scope.all ? [] : await platformAdminIds();
      const { users, total } = await store.users.search({
        text: query.text,
        customerId: query.customerId,
        within: scope.all ? undefined : scope,
        exclude,
        offset: (query.page - 1) * PEOPLE_PAGE_SIZE,
        limit: PEOPLE_PAGE_SIZE,
      });
      const people = await Promise.all(
        users.map(async (user) => ({
          id: user.id,
          username: user.username,
          displayName: user.displayName,
          email: user.email,
          disabled: user.disabled,
          customers: (await store.customers.customersOf(user.id))
            .filter((c) => scopeCoversCustomer(scope, c))
            .map((c) => ({ id: c.id, name: c.name })),
        })),
      );
      return { people, total, page: query.page, pageSize: PEOPLE_PAGE_SIZE };
    },

    /** `ConsolePerson`: the person's page; `outOfReach` or undefined (no such account) as {@link find} says. */
    async view(scope: PeopleScope, id: string): Promise<ConsolePerson | 'outOfReach' | undefined> {
      const user = await find(scope, id);
      if (!user || user === 'outOfReach') return user;
      const now = clock.now();
      const partner = user.partnerId ? await store.partners.findById(user.partnerId) : undefined;
      const sessions = deps.sessionIndex
        ? await deps.sessionIndex.sessionsOf(user.id, user.securityStamp)
        : [];
      const browsers = await store.rememberedBrowsers.listForUser(user.id, sha256(user.securityStamp), now);
      const links = await store.externalLogins.listForUser(user.id);
      const providers = new Map((await store.identityProviders.list()).map((p) => [p.id, p.name]));
      const events = await store.audit.list({ userId: user.id, kinds: ['sign-in', 'sign-out'], limit: 20 });
      return {
        id: user.id,
        username: user.username,
        displayName: user.displayName,
        email: user.email,
        account: {
          disabled: user.disabled,
          passwordChangedAt: user.passwordChangedAt === null ? null : iso(user.passwordChangedAt),
          mustChangePassword: user.passwordExpiresAt !== null && user.passwordExpiresAt <= now,
          twoStepRequired: user.requiresTwoFactor || (partner?.requireTwoFactor ?? false),
          vendor: user.vendorId !== undefined,
        },
        signInMethods: await methodsOf(user),
        passkeys: (await store.passkeys.listForUser(user.id)).map((p) => ({
          name: p.name,
          createdAt: iso(p.createdAt),
          lastUsedAt: p.lastUsedAt === null ? null : iso(p.lastUsedAt),
        })),
        sessions: sessions
          .sort((a, b) => b.lastSeenAt - a.lastSeenAt)
          .map((s) => ({
            createdAt: iso(s.createdAt),
            lastSeenAt: iso(s.lastSeenAt),
            network: sessionNetwork(s.ip).network,
            userAgent: s.userAgent,
          })),
        rememberedBrowsers: browsers.map((b) => ({
          createdAt: iso(b.rememberedAt),
          lastUsedAt: b.lastUsedAt === null ? null : iso(b.lastUsedAt),
        })),
        linkedAccounts: links.map((l) => ({
          provider: providers.get(l.providerId) ?? l.providerId,
          linkedAt: iso(l.createdAt),
        })),
        customers: (await store.customers.customersOf(user.id))
          .filter((c) => scopeCoversCustomer(scope, c))
          .map((c) => ({ id: c.id, name: c.name, roles: c.roles, canChange: true })),
        recentEvents: events.map((e) => ({ at: iso(e.at), kind: e.kind })),
      };
    },

    /** `DisablePerson` (and `admin users disable`): disabled, and every sign-in ended at once (S29). */
    disable(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          await store.users.update(person.id, { disabled: true });
          // Every session on every replica, every OIDC session with back-channel logout, every refresh token.
          await endEverySignIn(person.id);
        },
        { kind: 'console.people.disabled', mail: 'disabled' },
      );
    },

    /** `EnablePerson` (and `admin users disable --enable`). */
    enable(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          await store.users.update(person.id, { disabled: false });
        },
        { kind: 'console.people.enabled', mail: 'enabled' },
      );
    },

    /** `EndPersonSessions` (and `admin sessions revoke`): every session, OIDC session and refresh token. */
    endSessions(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          await endEverySignIn(person.id);
        },
        { kind: 'console.people.sessions-ended', mail: 'sessions-ended' },
      );
    },

    /**
     * `ResetPersonSecondFactor` ("I lost my phone"): the two-step methods, recovery codes and remembered browsers
     * removed, and two-step verification required, so the next sign-in sets a method up.
     */
    resetSecondFactor(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          await store.secondFactors.disable(person.id);
          await store.recoveryCodes.replace(person.id, []);
          await store.rememberedBrowsers.removeAllOf(person.id);
          await store.users.update(person.id, { requiresTwoFactor: true });
        },
        { kind: 'console.people.second-factor-reset', mail: 'second-factor-reset' },
      );
    },

    /** `SendPersonPasswordReset`: the reset link mailed to the person (nobody sets another's password). */
    sendPasswordReset(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          const partner = person.partnerId ? await store.partners.findById(person.partnerId) : undefined;
          const sent = await deps.recovery?.sendResetLinkTo(person, partner?.defaultLanguage);
          return sent ? undefined : { field: '', refusal: 'noEmail' as const };
        },
        { kind: 'console.people.password-reset-sent' },
      );
    },

    /** `RequirePersonTwoStep` (and `admin users require-2fa`): set up at the next sign-in. */
    requireTwoStep(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          await store.users.update(person.id, { requiresTwoFactor: true });
        },
        { kind: 'console.people.two-step-required', mail: 'two-step-required' },
      );
    },

    /** `ClearPersonThrottle`: the account's counter of failed sign-ins from strangers starts again. */
    clearThrottle(scope: PeopleScope, id: string, made: PersonChange): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          await deps.throttle?.clearAccount(`user:${person.id}`);
        },
        { kind: 'console.people.throttle-cleared', mail: 'throttle-cleared' },
      );
    },

    /** `AddPersonMembership` (and `admin memberships add`): a customer of the caller's, with its roles. */
    addMembership(
      scope: PeopleScope,
      id: string,
      membership: { customerId: string; roles: readonly MembershipRole[] },
      made: PersonChange,
    ): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          const customer = await store.customers.findById(membership.customerId);
          if (!customer || !scopeCoversCustomer(scope, customer))
            return { field: 'customerId', refusal: 'unknownCustomer' as const };
          const roles = [...membership.roles];
          // A member already: the roles are replaced; otherwise the membership is added.
          if (!(await store.customers.setMembershipRoles(person.id, customer.id, roles)))
            await store.customers.addMembership({ userId: person.id, customerId: customer.id, roles });
        },
        {
          kind: 'console.people.membership-added',
          mail: 'membership-added',
          data: { customerId: membership.customerId, roles: membership.roles },
        },
      );
    },

    /** `RemovePersonMembership` (and `admin memberships remove`): tokens issued for it are refused from then on. */
    removeMembership(
      scope: PeopleScope,
      id: string,
      customerId: string,
      made: PersonChange,
    ): Promise<PersonOutcome> {
      return change(
        scope,
        id,
        made,
        async (person) => {
          const customer = await store.customers.findById(customerId);
          if (!customer || !scopeCoversCustomer(scope, customer))
            return { field: 'customerId', refusal: 'unknownCustomer' as const };
          if (!(await store.customers.removeMembership(person.id, customer.id)))
            return { field: 'customerId', refusal: 'notAMember' as const };
        },
        { kind: 'console.people.membership-removed', mail: 'membership-removed', data: { customerId } },
      );
    },
  };
}

/** The People section's service. */
export type PeopleService = ReturnType<typeof createPeopleService>;
