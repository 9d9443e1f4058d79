import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditContext } from '../store/audit.repository.js';

/** The request's audit fields, and what a mail sent deep in the services needs of it (issue 48). */
export interface RequestContext extends AuditContext {
  /** The request's host name (its partner). */
  host?: string | undefined;
  /** The language the API answers this request in, once resolved (`http/locale.ts`). */
  locale?: string | undefined;
}

/**
 * The request being served, for records written deep in the services (the audit trail): source address, user
 * agent, request id and partner. Kept per request with AsyncLocalStorage, so no service signature has to carry it.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();
