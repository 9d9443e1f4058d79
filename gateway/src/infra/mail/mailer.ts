import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

/** One outgoing e-mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: SMTP when SMTP_URL is set, otherwise the dev outbox in the store (ARCHITECTURE.md stand-ins). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Mail through SMTP (nodemailer). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}

/** Keeps mail in the `outbox` table for operators when no SMTP server is configured. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({
        channel: 'email',
        recipient: message.to,
        subject: message.subject,
        body: message.text,
        created_at: this.now(),
      })
      .execute();
  }
}
