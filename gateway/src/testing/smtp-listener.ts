import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP listener received it. */
export interface ReceivedMail {
  mail: ParsedMail;
  envelopeFrom: string;
  envelopeTo: string[];
}

/** A real SMTP server on a free loopback port (tests: mail is read as a recipient would, not from a mock). */
export interface SmtpListener {
  /** `smtp://127.0.0.1:<port>`, ready for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** Starts an {@link SmtpListener}; each message is parsed with mailparser before the server acknowledges it. */
export async function startSmtpListener(): Promise<SmtpListener> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificates to manage in a test, and no login to configure.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            mail,
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
