import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { findUser, roles } from '../option-values.js';
import { cliPeople } from '../people.js';

export const membershipsCommands = [
  defineCommand({
    area: 'memberships',
    name: 'add',
    options: {
      username: { type: 'string', value: 'U', required: true },
      customer: { type: 'string', value: 'ID', required: true },
      roles: { type: 'string', value: 'EMPLOYEE' },
      reason: { type: 'string', value: 'TEXT' },
    },
    summary: ["without --roles the member has the user's own roles in that customer"],
    async run(ctx, values) {
      const { store, out } = ctx;
      const user = await findUser(store, values.username);
      if (!(await store.customers.findById(values.customer)))
        throw new UsageError(`no customer "${values.customer}"`);
      if (await store.customers.membershipOf(user.id, values.customer))
        throw new UsageError('membership already exists');
      // The people service, as the console's AddPersonMembership: audited with the reason.
      const { people, scope, made } = cliPeople(ctx, values.reason);
      await people.addMembership(
        scope,
        user.id,
        { customerId: values.customer, roles: values.roles ? roles(values.roles) : user.roles },
        made,
      );
      out(`${user.username} is a member of ${values.customer}`);
    },
  }),
  defineCommand({
    area: 'memberships',
    name: 'remove',
    options: {
      username: { type: 'string', value: 'U', required: true },
      customer: { type: 'string', value: 'ID', required: true },
      reason: { type: 'string', value: 'TEXT' },
    },
    summary: ['tokens already issued for that customer are refused from then on (ADR 0009)'],
    async run(ctx, values) {
      const { store, out } = ctx;
      const user = await findUser(store, values.username);
      const { people, scope, made } = cliPeople(ctx, values.reason);
      const outcome = await people.removeMembership(scope, user.id, values.customer, made);
      if (outcome.kind !== 'done')
        throw new UsageError(`${user.username} is not a member of "${values.customer}"`);
      out(`${user.username} is no longer a member of ${values.customer}`);
    },
  }),
  defineCommand({
    area: 'memberships',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const m of await store.customers.listMemberships())
        out(`${m.userId}\t${m.customerId}\t${m.roles.join(',')}`);
    },
  }),
];
