/**
 * Mail as a user receives it: rendered in the user's locale, sent through nodemailer to a real SMTP listener
 * (smtp-server) and read back with mailparser; and, without SMTP_URL, kept in the dev outbox and logged.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SUPPORTED_LOCALES } from 'shared-contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, openTestBackends, type TestBackends } from '../../testing/backends.js';
import { OutboxMailer, SmtpMailer } from './mailer.js';
import { renderMail } from './templates.js';
import { startSmtpListener, type ReceivedMail, type SmtpListener } from '../../testing/smtp-listener.js';

// Written out per locale: what a reader of each language sees in the inbox.
const PIN_SUBJECTS = {
  'en-GB': 'Your Acme & Co Payroll sign-in PIN',
  en: 'Your Acme & Co Payroll sign-in PIN',
  de: 'Ihre Anmelde-PIN für Acme & Co Payroll',
  'fr-CA': 'Votre NIP de connexion Acme & Co Payroll',
  es: 'Su PIN de inicio de sesión en Acme & Co Payroll',
} as const;

describe('SmtpMailer', () => {
  let smtp: SmtpListener;
  let mailer: SmtpMailer;
  beforeAll(async () => {
    smtp = await startSmtpListener();
    mailer = new SmtpMailer(smtp.url, 'Acme Identity <no-reply@id.example.test>');
  });
  afterAll(async () => {
    await mailer.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
  });

  it.each(SUPPORTED_LOCALES)('delivers the PIN mail in %s with text and HTML parts', async (locale) => {
    const rendered = renderMail('pin', locale, {
      partnerName: 'Acme & Co Payroll',
      displayName: 'Zoë',
      pin: '905112',
      expiresInMinutes: 10,
    });
    await mailer.send({ to: 'zoe@example.test', ...rendered });

    expect(smtp.received).toHaveLength(1);
    const [{ mail, envelopeFrom, envelopeTo }] = smtp.received as [ReceivedMail];
    expect(envelopeFrom).toBe('no-reply@id.example.test');
    expect(envelopeTo).toEqual(['zoe@example.test']);
    expect(mail.from?.value).toEqual([{ name: 'Acme Identity', address: 'no-reply@id.example.test' }]);
    expect(mail.subject).toBe(PIN_SUBJECTS[locale]);
    // What arrived is what was rendered, non-ASCII letters included.
    expect(mail.text?.trimEnd()).toBe(rendered.text.trimEnd());
    expect(mail.text).toContain('Zoë');
    expect(mail.text).toContain('905112');
    expect(mail.text).toContain('Acme & Co Payroll');
    expect(mail.html).toBe(rendered.html);
    expect(mail.html).toContain('Acme &amp; Co Payroll');
    expect(mail.html).toContain('905112');
  });

  it('sends the reset link intact', async () => {
    const link = 'https://id.example.test/account/reset-password?token=Zm9v&userId=7';
    await mailer.send({
      to: 'ann@example.test',
      ...renderMail('recovery', 'en-GB', { partnerName: 'Acme', link, expiresInMinutes: 30 }),
    });
    const mail = smtp.received[0]!.mail;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link.replace('&', '&amp;')}"`);
  });

  it('refuses a recipient or subject with a line break before talking to the server', async () => {
    await expect(
      mailer.send({ to: 'a@example.test\r\nRCPT TO:<b@example.test>', subject: 's', text: 't' }),
    ).rejects.toThrow(/one recipient address on one line/);
    await expect(
      mailer.send({ to: 'a@example.test', subject: 's\r\nBcc: b@x.test', text: 't' }),
    ).rejects.toThrow(/subject must be one line/);
    expect(smtp.received).toHaveLength(0);
  });

  it('fails when the SMTP server is not there', async () => {
    const gone = await startSmtpListener();
    await gone.close();
    const orphan = new SmtpMailer(gone.url, 'no-reply@id.example.test', { timeoutMs: 2_000 });
    await expect(orphan.send({ to: 'a@example.test', subject: 's', text: 't' })).rejects.toThrow();
    await orphan.close();
  });
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `OutboxMailer on ${backend.name}${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let backends: TestBackends;
      const lines: Record<string, unknown>[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
            done();
          },
        }),
      );
      beforeEach(async () => {
        backends = await openTestBackends({ sql: backend.name === 'sqlite' ? 'sqlite' : 'postgres' });
        lines.length = 0;
      });
      afterEach(async () => {
        await backends.close();
      });

      it('keeps the mail with its HTML in the outbox and logs recipient, subject and text', async () => {
        const rendered = renderMail('recovery', 'fr-CA', {
          partnerName: 'Acme',
          link: 'https://id.example.test/r?t=1',
          expiresInMinutes: 30,
        });
        await new OutboxMailer(backends.store.outbox, logger).send({ to: 'ann@example.test', ...rendered });

        const [entry, ...others] = await backends.store.outbox.list();
        expect(others).toEqual([]);
        expect(entry).toMatchObject({
          channel: 'email',
          to: 'ann@example.test',
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
        });
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({
          level: 30,
          outboxId: entry!.id,
          to: 'ann@example.test',
          subject: rendered.subject,
          text: rendered.text,
        });
        expect(String(lines[0]!.text)).toContain('https://id.example.test/r?t=1');
      });

      it('works without a logger and keeps plain-text mail without HTML', async () => {
        await new OutboxMailer(backends.store.outbox).send({
          to: 'bob@example.test',
          subject: 'Hi',
          text: 'Body',
        });
        const [entry] = await backends.store.outbox.list({ to: 'bob@example.test' });
        expect(entry).toMatchObject({ subject: 'Hi', text: 'Body', html: null });
        expect(lines).toHaveLength(0);
      });
    },
  );
}
