import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../store/outbox.repository.js';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin outbox', () => {
  let admin: AdminHarness;
  const header = (e: OutboxEntry) =>
    `${new Date(e.at).toISOString()}\t${e.channel}\t${e.to}\t${e.subject ?? '-'}`;
  beforeAll(async () => {
    admin = await openAdminHarness();
  });
  afterAll(async () => {
    await admin.close();
  });

  it('says so when the outbox is empty', async () => {
    expect(await admin.run('outbox')).toBe('the outbox is empty');
  });

  it('shows time, channel, recipient and subject of each message, then its text, newest first', async () => {
    const mail = await admin.store.outbox.add({
      channel: 'email',
      to: 'ann@example.test',
      subject: 'Your sign-in code',
      text: 'Your code is 123456.\n\nIt expires in 10 minutes.',
      html: '<p>Your code is <b>123456</b>.</p>',
    });
    const sms = await admin.store.outbox.add({ channel: 'sms', to: '+441234567890', text: 'Code 654321' });
    expect(await admin.run('outbox')).toBe(
      [
        header(sms),
        '    Code 654321',
        '',
        header(mail),
        '    Your code is 123456.',
        '',
        '    It expires in 10 minutes.',
      ].join('\n'),
    );
    expect(header(sms)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tsms\t\+441234567890\t-$/);
  });

  it('--to shows only the messages to one recipient, however the address is cased', async () => {
    const out = await admin.run('outbox', '--to', 'ANN@example.test');
    expect(out.split('\n')[0]).toMatch(/\temail\tann@example\.test\tYour sign-in code$/);
    expect(out).not.toContain('+441234567890');
    expect(await admin.run('outbox', '--to', 'bob@example.test')).toBe(
      'no messages to bob@example.test in the outbox',
    );
  });

  it('shows the last 20 by default and the last N with --last', async () => {
    const added: OutboxEntry[] = [];
    for (let i = 1; i <= 25; i += 1)
      added.push(
        await admin.store.outbox.add({
          channel: 'sms',
          to: '+440000000000',
          subject: `#${i}`,
          text: `message ${i}`,
        }),
      );
    const headers = (out: string) => out.split('\n').filter((line) => /^\d{4}-/.test(line));
    const byDefault = headers(await admin.run('outbox'));
    expect(byDefault).toHaveLength(20);
    expect(byDefault[0]).toBe(header(added[24]!));
    expect(byDefault[19]).toBe(header(added[5]!));
    expect(headers(await admin.run('outbox', '--last', '3'))).toEqual(
      [added[24], added[23], added[22]].map((e) => header(e!)),
    );
    expect(headers(await admin.run('outbox', '--last', '100'))).toHaveLength(27);
  });

  it.each(['0', '-3', 'abc', '1.5', '2e3', '', '1001'])('--last %j is refused in one line', async (value) => {
    expect(await admin.refused('outbox', `--last=${value}`)).toBe(
      `error: --last must be a whole number from 1 to 1000, not "${value}"`,
    );
  });

  it('takes no sub-command', async () => {
    expect(await admin.refused('outbox', 'list')).toBe('error: unexpected argument "list"');
  });
});
