import { CONSOLE_ROLES, type ConsoleRole } from 'shared-contracts/console';
import { cliActor } from '../../identity/console/console-actor.js';
import {
  createConsoleGrantsService,
  type ConsoleGrantRefusal,
  type ConsoleGrantRequest,
} from '../../identity/console/console-grants.service.js';
import { storeSignInFacts } from '../../identity/sign-in/sign-in-context.js';
import { systemClock } from '../../infra/clock.js';
import type { Store } from '../../store/store.js';
import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { findUser } from '../option-values.js';

/** The grants service over the CLI's store: the console's calls and the CLI record the same audit (ADR 0058). */
function grantsOf(store: Store) {
  return createConsoleGrantsService({ store, facts: storeSignInFacts(store), clock: systemClock });
}

function role(text: string): ConsoleRole {
  const found = CONSOLE_ROLES.find((r) => r.toLowerCase() === text.trim().toLowerCase());
  if (!found) throw new UsageError(`unknown role "${text}" (${CONSOLE_ROLES.join(', ')})`);
  return found;
}

/** An id option: absent, or a non-blank value. */
function id(text: string | undefined, option: string): string | null {
  if (text === undefined) return null;
  if (text.trim() === '') throw new UsageError(`--${option} needs an id`);
  return text.trim();
}

/** A grant as one line: role and where it applies. */
function scopeText(grant: {
  role: ConsoleRole;
  partnerId: string | null;
  customerId: string | null;
}): string {
  if (grant.customerId !== null) return `${grant.role} of customer ${grant.customerId}`;
  if (grant.partnerId !== null) return `${grant.role} of partner ${grant.partnerId}`;
  return grant.role;
}

/** One line per refusal, naming what was wrong. */
function refusalText(refusal: ConsoleGrantRefusal, username: string): string {
  switch (refusal.kind) {
    case 'unknownUser':
      return `no user "${username}"`;
    case 'unknownPartner':
      return `no partner "${refusal.partnerId}"`;
    case 'unknownCustomer':
      return `no customer "${refusal.customerId}"`;
    case 'globalRole':
      return `${refusal.role} applies everywhere: give neither --partner nor --customer`;
    case 'partnerRequired':
      return 'support is for one partner: give --partner';
    case 'supportTakesNoCustomer':
      return 'support is for a partner, not a customer: give --partner only';
    case 'customerRequired':
      return 'customerAdmin is for one customer: give --customer';
    case 'customerOfAnotherPartner':
      return `customer "${refusal.customerId}" belongs to ${refusal.partnerId === null ? 'no partner' : `partner "${refusal.partnerId}"`}, not to the --partner given`;
    case 'alreadyGranted':
      return `${username} already holds that grant`;
    case 'notGranted':
      return `${username} holds no such grant`;
    case 'lastPlatformAdmin':
      return `${username} is the last platform administrator: grant another one first`;
    case 'beyondOwn':
      return 'only what the operator holds, where they hold it, can be granted or withdrawn';
  }
}

const options = {
  role: { type: 'string', value: 'ROLE', required: true },
  partner: { type: 'string', value: 'ID' },
  customer: { type: 'string', value: 'ID' },
  reason: { type: 'string', value: 'TEXT' },
} as const;

/** Grant or withdraw, as one command each. */
function change(name: 'grant' | 'withdraw', summary: string[]) {
  return defineCommand({
    area: 'console',
    name,
    argument: 'USERNAME',
    options,
    summary,
    async run({ store, out }, values, username) {
      const user = await findUser(store, username);
      const request: ConsoleGrantRequest = {
        userId: user.id,
        role: role(values.role),
        partnerId: id(values.partner, 'partner'),
        customerId: id(values.customer, 'customer'),
        actor: cliActor(),
        reason: values.reason?.trim() || null,
      };
      const grants = grantsOf(store);
      const outcome = name === 'grant' ? await grants.grant(request) : await grants.withdraw(request);
      if (outcome.kind === 'refused') throw new UsageError(refusalText(outcome.refusal, user.username));
      out(
        name === 'grant'
          ? `${user.username} is now ${scopeText(outcome.grant)}`
          : `${user.username} is no longer ${scopeText(outcome.grant)}`,
      );
    },
  });
}

export const consoleCommands = [
  change('grant', [
    `roles: ${CONSOLE_ROLES.join(', ')} (ADR 0058)`,
    'support takes --partner, customerAdmin --customer; the first platform administrator is made here',
  ]),
  change('withdraw', ['the last platform administrator stays']),
  defineCommand({
    area: 'console',
    name: 'list',
    options: { user: { type: 'string', value: 'U' } },
    summary: ['username, role, partner, customer, granted by, granted at'],
    async run({ store, out }, values) {
      const userId = values.user === undefined ? undefined : (await findUser(store, values.user)).id;
      for (const g of await grantsOf(store).list(userId === undefined ? {} : { userId }))
        out(
          [
            g.username,
            g.role,
            g.partnerId ?? '-',
            g.customerId ?? '-',
            g.grantedBy,
            new Date(g.grantedAt).toISOString(),
          ].join('\t'),
        );
    },
  }),
];
