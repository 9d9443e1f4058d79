/**
 * A real SMTP server for the mail suites: the gateway under test gets `SMTP_URL` pointing here and sends as it would
 * to any relay; each message is parsed with mailparser, so a spec reads it as the recipient's mail program would.
 */
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the listener received it. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A running SMTP listener on a free loopback port. */
export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`, for the gateway's SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Waits (the expect timeout) for a message to `to` whose subject matches, and returns it. */
  waitFor(to: string, subject: RegExp): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function toMail(mail: ParsedMail, rcptTo: string[]): ReceivedMail {
  return {
    to: rcptTo,
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
  };
}

/** Starts a {@link MailCatcher}; a message is parsed before the server acknowledges it. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificates and no login to configure in a test.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const rcptTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      simpleParser(stream)
        .then((mail) => {
          received.push(toMail(mail, rcptTo));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const find = (to: string, subject: RegExp) =>
    received.find((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(to, subject) {
      await expect.poll(() => find(to, subject)?.subject, { message: `a mail to ${to}` }).toMatch(subject);
      return find(to, subject) as ReceivedMail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}[^\\s)\\]>]*`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}
