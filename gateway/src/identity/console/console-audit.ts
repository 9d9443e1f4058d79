import type { AuditRepository } from '../../store/audit.repository.js';
import type { ConsoleActor } from './console-actor.js';

/** One console action as the audit records it (issue 52's common shape). */
export interface ConsoleAction {
  /** `console.<area>.<action>`. */
  kind: string;
  actor: ConsoleActor;
  /** What it acted on: a partner, client or provider id. */
  subject: string;
  reason?: string | null | undefined;
  /** The partner it belongs to, when there is one (the audit's partner column). */
  partnerId?: string;
  /** Further facts (never a secret). */
  data?: Record<string, unknown>;
}

/**
 * Records a console action the same way from the console and the admin CLI: `userId` the acting account (null for
 * the CLI), `data.actor` its name (a username or `cli:<os user>`), `data.subject`, `data.reason` (trimmed, or null);
 * ip, user agent and request id come from the request context (none for the CLI).
 */
export async function recordConsoleAction(
  audit: Pick<AuditRepository, 'record'>,
  action: ConsoleAction,
  now: () => number = Date.now,
): Promise<void> {
  await audit.record({
    at: now(),
    kind: action.kind,
    userId: action.actor.userId,
    ip: null,
    ...(action.partnerId ? { partnerId: action.partnerId } : {}),
    data: {
      actor: action.actor.name,
      subject: action.subject,
      reason: action.reason?.trim() || null,
      ...action.data,
    },
  });
}
