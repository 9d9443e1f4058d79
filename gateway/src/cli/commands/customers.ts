import { readFile } from 'node:fs/promises';
import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { importCustomers } from '../customer-import.js';

export const customersCommands = [
  defineCommand({
    area: 'customers',
    name: 'add',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N', required: true },
      partner: { type: 'string', value: 'ID' },
    },
    async run({ store, out }, values) {
      const partnerId = values.partner ?? null;
      if (partnerId && !(await store.partners.findById(partnerId)))
        throw new UsageError(`no partner "${partnerId}"`);
      await store.customers.create({ id: values.id, name: values.name, partnerId });
      out(`customer ${values.id} added`);
    },
  }),
  defineCommand({
    area: 'customers',
    name: 'import',
    argument: 'FILE.csv',
    options: {},
    summary: [
      'CSV with a header row: id,name[,partner][,username][,roles] (roles separated by ";"); one transaction:',
      'every bad row is listed with its number and nothing is imported unless all rows are good',
    ],
    async run({ store, out }, _values, file) {
      let text;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(
          `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        );
      }
      await importCustomers(store, text, out);
    },
  }),
  defineCommand({
    area: 'customers',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const c of await store.customers.list()) out(`${c.id}\t${c.name}\t${c.partnerId ?? '-'}`);
    },
  }),
];
