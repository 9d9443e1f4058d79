import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { findUser, roles } from '../option-values.js';

export const membershipsCommands = [
  defineCommand({
    area: 'memberships',
    name: 'add',
    options: {
      username: { type: 'string', value: 'U', required: true },
      customer: { type: 'string', value: 'ID', required: true },
      roles: { type: 'string', value: 'EMPLOYEE' },
    },
    summary: ["without --roles the member has the user's own roles in that customer"],
    async run({ store, out }, values) {
      const user = await findUser(store, values.username);
      if (!(await store.customers.findById(values.customer)))
        throw new UsageError(`no customer "${values.customer}"`);
      await store.customers.addMembership({
        userId: user.id,
        customerId: values.customer,
        roles: values.roles ? roles(values.roles) : user.roles,
      });
      out(`${user.username} is a member of ${values.customer}`);
    },
  }),
  defineCommand({
    area: 'memberships',
    name: 'remove',
    options: {
      username: { type: 'string', value: 'U', required: true },
      customer: { type: 'string', value: 'ID', required: true },
    },
    summary: ['tokens already issued for that customer are refused from then on (ADR 0009)'],
    async run({ store, out }, values) {
      const user = await findUser(store, values.username);
      if (!(await store.customers.removeMembership(user.id, values.customer)))
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
