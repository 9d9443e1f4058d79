import { randomBytes } from 'node:crypto';
import {
  ERROR_ID_PATTERN,
  ERROR_MESSAGE_KEYS,
  ERROR_RECORD_PAGES,
  errorRecordSchema,
  type ErrorMessageKey,
  type ErrorRecord,
  type ErrorRecordKind,
} from 'shared-contracts';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';

/** How long a reference resolves: a day, long enough for a person to call support, short enough to stay small. */
export const ERROR_RECORD_TTL_MS = 24 * 60 * 60 * 1000;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 80 random bits as 16 Crockford base32 characters: unguessable, and readable aloud without I/L/O/U mix-ups. */
export function newErrorId(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let id = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      id += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return id;
}

/** What a failure site knows; only these fields, never the error's own text, end up in the record. */
export interface ErrorRecordInput {
  kind: ErrorRecordKind;
  messageKey: ErrorMessageKey;
  /** The application's display name, when the failure belongs to one. */
  clientName?: string | undefined;
  /** The application's own address (its origin), when known: the page's way back. */
  returnUrl?: string | undefined;
  requestId?: string | undefined;
  /** The request's source address: at most {@link ERROR_RECORDS_PER_SOURCE_PER_HOUR} records each per hour. */
  source?: string | undefined;
}

/**
 * Records one source may leave per hour. Dead interactions and refused authorizations cost an attacker nothing, so
 * past this they get the page without a reference instead of filling the key-value store for a day.
 */
export const ERROR_RECORDS_PER_SOURCE_PER_HOUR = 60;

/**
 * Short-lived error records behind the `/error/...` pages' `errorId` (SPEC.md §2, §7 `Error`), kept in the
 * key-value store every replica shares. A record holds a safe message key and never the failure's text, so
 * nothing internal (stack, SQL, tokens, addresses) can reach the page; operators find the details in the log line
 * that carries the same reference.
 */
export function createErrorRecords(deps: { kv: KeyValueStore; now: () => number }) {
  const key = (errorId: string) => `error-record:${errorId}`;
  return {
    /** Stores a record and returns it (with its new `errorId`); undefined when the source used its allowance. */
    async record(input: ErrorRecordInput): Promise<ErrorRecord | undefined> {
      if (input.source !== undefined) {
        const count = await deps.kv.increment(`error-record-source:${input.source}`, 60 * 60 * 1000);
        if (count > ERROR_RECORDS_PER_SOURCE_PER_HOUR) return undefined;
      }
      const record: ErrorRecord = {
        errorId: newErrorId(),
        kind: input.kind,
        messageKey: ERROR_MESSAGE_KEYS.includes(input.messageKey) ? input.messageKey : 'unexpected',
        clientName: input.clientName?.slice(0, 200) ?? null,
        returnUrl: safeApplicationUrl(input.returnUrl),
        occurredAt: new Date(deps.now()).toISOString(),
        requestId: input.requestId?.slice(0, 128) ?? null,
      };
      await deps.kv.set(key(record.errorId), JSON.stringify(record), ERROR_RECORD_TTL_MS);
      return record;
    },
    /** The record of `errorId`, or undefined when unknown, expired or malformed. */
    async find(errorId: string): Promise<ErrorRecord | undefined> {
      if (!ERROR_ID_PATTERN.test(errorId)) return undefined;
      const stored = await deps.kv.get(key(errorId));
      if (stored === undefined) return undefined;
      try {
        const parsed = errorRecordSchema.safeParse(JSON.parse(stored));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    /** The page a record lands on, with its reference: `/error/signin?errorId=…`. */
    pageOf(record: Pick<ErrorRecord, 'kind' | 'errorId'>): string {
      return `${ERROR_RECORD_PAGES[record.kind]}?errorId=${record.errorId}`;
    },
  };
}

/** The error records service. */
export type ErrorRecords = ReturnType<typeof createErrorRecords>;

/** Only an http(s) origin may be a way back: never a path with a query that could carry a code or a token. */
function safeApplicationUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    return `${parsed.origin}/`;
  } catch {
    return null;
  }
}
