import { defineCommand } from '../admin-command.js';
import { positiveInteger } from '../option-values.js';

// The outbox repository answers at most this many entries at once.
const MAX_LAST = 1000;

export const outboxCommands = [
  defineCommand({
    area: 'outbox',
    name: '',
    options: {
      to: { type: 'string', value: 'ADDRESS' },
      last: { type: 'string', value: 'N' },
    },
    summary: [
      'mail and SMS kept when SMTP_URL / SMS_WEBHOOK_URL are not set, newest first (the last 20 unless --last):',
      'time, channel, recipient, subject, then the text',
    ],
    async run({ store, out }, values) {
      const last = values.last === undefined ? 20 : positiveInteger(values.last, 'last', MAX_LAST);
      const entries = await store.outbox.list({
        last,
        ...(values.to !== undefined ? { to: values.to } : {}),
      });
      if (entries.length === 0) {
        out(values.to === undefined ? 'the outbox is empty' : `no messages to ${values.to} in the outbox`);
        return;
      }
      entries.forEach((entry, i) => {
        // A blank line between messages: their texts may hold blank lines of their own, indented under the header.
        if (i > 0) out('');
        out(`${new Date(entry.at).toISOString()}\t${entry.channel}\t${entry.to}\t${entry.subject ?? '-'}`);
        for (const line of entry.text.split(/\r?\n/)) out(line ? `    ${line}` : '');
      });
    },
  }),
];
