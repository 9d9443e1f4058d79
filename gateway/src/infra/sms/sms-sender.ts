import { connect } from 'node:net';
import type { Logger } from 'pino';
import type { OutboxRepository } from '../../store/outbox.repository.js';

/** One text message. */
export interface SmsMessage {
  /** The phone number as stored for the user (E.164 recommended, e.g. +447700900123). */
  to: string;
  text: string;
}

/** Sends SMS: an HTTP provider behind a webhook when SMS_WEBHOOK_URL is set, otherwise the dev outbox. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
  /** True when the provider is reachable; absent for the dev outbox. */
  ping?(): Promise<boolean>;
  close?(): Promise<void>;
}

/** Raised when the SMS provider did not accept a message (unreachable, timed out, or not a 2xx answer). */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SmsSendError';
  }
}

/** Options of {@link WebhookSmsSender}. */
export interface WebhookSmsSenderOptions {
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string | undefined;
  /** Longest wait for the provider's answer; a sign-in request waits on it. */
  timeoutMs?: number;
}

// SMS bodies are short; anything longer is a bug in the caller, not something to pass on to a paid provider.
const MAX_TEXT_LENGTH = 1600;

/** POSTs `{to, text}` as JSON to a provider (or a relay in front of one); any non-2xx answer is an error. */
export class WebhookSmsSender implements SmsSender {
  private readonly url: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: WebhookSmsSenderOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new TypeError('SMS webhook URL must start with http:// or https://');
    this.url = url.href;
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: SmsMessage): Promise<void> {
    checkSms(message);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ to: message.to.trim(), text: message.text }),
        signal: AbortSignal.timeout(this.timeoutMs),
        // A provider answering with a redirect would get the bearer token re-sent elsewhere; refuse instead.
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new SmsSendError(
        timedOut
          ? `SMS webhook did not answer within ${this.timeoutMs} ms`
          : `SMS webhook unreachable: ${error instanceof Error ? error.message : String(error)}`,
        undefined,
        { cause: error },
      );
    }
    // Drain the body so the connection can be reused; its content is not needed (and may echo the message).
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new SmsSendError(`SMS webhook answered ${response.status}`, response.status);
  }

  /**
   * Opens a TCP connection to the webhook's host and port and closes it: a status probe must not send a message
   * (providers bill per message) nor present the token, so reachability is all it checks.
   */
  ping(): Promise<boolean> {
    const url = new URL(this.url);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    return new Promise((resolve) => {
      const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(this.timeoutMs, () => done(false));
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
  }
}

/**
 * Keeps SMS in the `outbox` table when no provider is configured. With a logger, each entry is also logged
 * (recipient and text) so someone trying the demo can read the code without database access.
 */
export class OutboxSmsSender implements SmsSender {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly logger?: Pick<Logger, 'info'>,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    checkSms(message);
    const entry = await this.outbox.add({ channel: 'sms', to: message.to, text: message.text });
    this.logger?.info(
      { outboxId: entry.id, to: entry.to, text: entry.text },
      'SMS kept in the outbox (no SMS_WEBHOOK_URL)',
    );
  }
}

function checkSms(message: SmsMessage): void {
  if (typeof message.to !== 'string' || !/^\+?[0-9][0-9 ().-]{2,30}$/.test(message.to.trim()))
    throw new TypeError('SMS recipient must be a phone number');
  if (typeof message.text !== 'string' || message.text.length === 0 || message.text.length > MAX_TEXT_LENGTH)
    throw new TypeError(`SMS text must be 1 to ${MAX_TEXT_LENGTH} characters`);
}
