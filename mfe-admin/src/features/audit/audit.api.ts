import { baseApi } from 'shared-contracts/api';
import { consoleAuditSchema, type ConsoleAudit, type ConsoleAuditRequest } from 'shared-contracts/console';

/**
 * The audit search's call (issue 52, ADR 0063). Tag `ConsoleAudit`: provided, so any page whose change records an
 * event may invalidate it; the export is a plain download link (GET, same filter).
 */
export const auditApi = baseApi.enhanceEndpoints({ addTagTypes: ['ConsoleAudit'] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET ConsoleAudit`: a page of events newest first. */
    consoleAudit: build.query<ConsoleAudit, ConsoleAuditRequest>({
      query: (params) => ({ url: 'ConsoleAudit', method: 'GET', params }),
      transformResponse: (body: unknown) => consoleAuditSchema.parse(body),
      providesTags: ['ConsoleAudit'],
    }),
  }),
});

/** Hooks of the audit page. */
export const { useConsoleAuditQuery } = auditApi;
