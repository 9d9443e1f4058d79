import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The channels an outbox entry can stand in for. */
export const OUTBOX_CHANNELS = ['email', 'sms'] as const;

/** One message kept in the dev outbox (mail without SMTP_URL, SMS without SMS_WEBHOOK_URL). */
export interface OutboxEntry {
  id: number;
  /** Epoch milliseconds when it was kept. */
  at: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
}

/** What {@link OutboxRepository.add} keeps. */
export interface NewOutboxEntry {
  channel: 'email' | 'sms';
  to: string;
  subject?: string | null;
  text: string;
  html?: string | null;
}

/** Filter of {@link OutboxRepository.list}. */
export interface OutboxFilter {
  /** Only entries to this recipient (case-insensitive: people type addresses in any case). */
  to?: string;
  /** How many of the newest entries (default 20, at most 1000). */
  last?: number;
}

const DEFAULT_LAST = 20;
const MAX_LAST = 1000;

/** The `outbox` table: the stand-in for mail and SMS that operators (and `admin outbox`) read. */
export class OutboxRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async add(entry: NewOutboxEntry): Promise<OutboxEntry> {
    if (!(OUTBOX_CHANNELS as readonly string[]).includes(entry.channel))
      throw new TypeError(`outbox channel must be one of ${OUTBOX_CHANNELS.join(', ')}`);
    if (typeof entry.to !== 'string' || entry.to.trim() === '')
      throw new TypeError('outbox entry needs a recipient');
    if (typeof entry.text !== 'string') throw new TypeError('outbox entry needs a text');
    const values = {
      channel: entry.channel,
      recipient: entry.to.trim(),
      subject: entry.subject ?? null,
      body: entry.text,
      html: entry.html ?? null,
      created_at: this.now(),
    };
    const row = await this.db.insertInto('outbox').values(values).returning('id').executeTakeFirstOrThrow();
    return toEntry({ ...values, id: Number(row.id) });
  }

  /** Newest first. */
  async list(filter: OutboxFilter = {}): Promise<OutboxEntry[]> {
    const last = filter.last ?? DEFAULT_LAST;
    if (!Number.isInteger(last) || last < 1 || last > MAX_LAST)
      throw new RangeError(`last must be a whole number from 1 to ${MAX_LAST}`);
    let query = this.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(last);
    if (filter.to !== undefined) {
      const to = filter.to.trim().toLowerCase();
      query = query.where(sql<string>`lower(recipient)`, '=', to);
    }
    return (await query.execute()).map(toEntry);
  }
}

function toEntry(row: {
  id: number;
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
  html: string | null;
  created_at: number;
}): OutboxEntry {
  return {
    id: Number(row.id),
    at: Number(row.created_at),
    // Rows are only written through add(), which checks the channel; anything else reads as e-mail.
    channel: row.channel === 'sms' ? 'sms' : 'email',
    to: row.recipient,
    subject: row.subject,
    text: row.body,
    html: row.html,
  };
}
