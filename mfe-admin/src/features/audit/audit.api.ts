import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import {
  auditRetentionSchema,
  consoleAuditSchema,
  type AuditRetention,
  type ConsoleAudit,
  type ConsoleAuditRequest,
  type SetAuditRetentionRequest,
} from 'shared-contracts/console';

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
    /** `GET AuditRetention`: how many days events are kept. */
    auditRetention: build.query<AuditRetention, void>({
      query: () => ({ url: 'AuditRetention', method: 'GET' }),
      transformResponse: (body: unknown) => auditRetentionSchema.parse(body),
      providesTags: ['ConsoleAudit'],
    }),
    /** `SetAuditRetention`: confirmed in place when the sign-in is not recent; the change is itself audited. */
    setAuditRetention: build.mutation<unknown, SetAuditRetentionRequest>({
      queryFn: confirmedChange<
        SetAuditRetentionRequest,
        { url: string; method: 'POST'; body: SetAuditRetentionRequest }
      >((body) => ({ url: 'SetAuditRetention', method: 'POST', body })),
      invalidatesTags: ['ConsoleAudit'],
    }),
  }),
});

/** Hooks of the audit page. */
export const { useConsoleAuditQuery, useAuditRetentionQuery, useSetAuditRetentionMutation } = auditApi;
