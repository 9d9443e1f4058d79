import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditContext } from '../store/audit.repository.js';

/**
 * The request being served, for records written deep in the services (the audit trail): source address, user
 * agent, request id and partner. Kept per request with AsyncLocalStorage, so no service signature has to carry it.
 */
export const requestContext = new AsyncLocalStorage<AuditContext>();
