import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { OutboxRepository } from '../../store/outbox.repository.js';

/** One outgoing e-mail: plain text, and HTML when the message was rendered from a template (`renderMail`). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
}

/** Sends mail: SMTP when SMTP_URL is set, otherwise the dev outbox in the store (ARCHITECTURE.md stand-ins). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** True when the transport answers (SMTP: connects and greets); absent for the dev outbox. */
  ping?(): Promise<boolean>;
  close?(): Promise<void>;
}

/** Where dev-outbox entries are announced: the server logger at info level. */
export type OutboxLogger = Pick<Logger, 'info'>;

/** Options of {@link SmtpMailer}. */
export interface SmtpMailerOptions {
  /**
   * Longest wait for connecting, the greeting and each later reply. A sign-in request waits on the mail, so a
   * stuck SMTP server must fail the request rather than hold it for nodemailer's default two minutes.
   */
  timeoutMs?: number;
}

/** Mail through SMTP (nodemailer). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    options: SmtpMailerOptions = {},
  ) {
    const timeoutMs = options.timeoutMs ?? 15_000;
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(message: MailMessage): Promise<void> {
    checkMessage(message);
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
    });
  }

  /** Connects, greets and authenticates without sending anything (nodemailer's `verify`); false on any failure. */
  async ping(): Promise<boolean> {
    try {
      return await this.transport.verify();
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }
}

/**
 * Keeps mail in the `outbox` table for operators when no SMTP server is configured. With a logger, each entry is
 * also logged (recipient, subject, text) so someone trying the demo can follow a reset link without database access.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly logger?: OutboxLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    checkMessage(message);
    const entry = await this.outbox.add({
      channel: 'email',
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
    });
    this.logger?.info(
      { outboxId: entry.id, to: entry.to, subject: entry.subject, text: entry.text },
      'mail kept in the outbox (no SMTP_URL)',
    );
  }
}

// A recipient with a line break could smuggle headers into the SMTP envelope; refuse it before any transport.
function checkMessage(message: MailMessage): void {
  const to = typeof message.to === 'string' ? message.to.trim() : '';
  if (to === '' || /[\r\n]/.test(to)) throw new TypeError('mail needs one recipient address on one line');
  if (typeof message.subject !== 'string' || /[\r\n]/.test(message.subject))
    throw new TypeError('mail subject must be one line of text');
  if (typeof message.text !== 'string') throw new TypeError('mail needs a text part');
}
