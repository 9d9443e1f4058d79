import type { IncomingMessage } from 'node:http';
import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import type { ErrorMessageKey, ErrorRecordKind } from 'shared-contracts';
import type { OidcLogger } from './oidc-provider.js';

/** What the error pages need from the gateway's error records (identity/ops/error-records.service.ts). */
export interface OidcErrorRecords {
  record(input: {
    kind: ErrorRecordKind;
    messageKey: ErrorMessageKey;
    clientName?: string | undefined;
    returnUrl?: string | undefined;
    requestId?: string | undefined;
    source?: string | undefined;
  }): Promise<{ errorId: string; kind: ErrorRecordKind } | undefined>;
  pageOf(record: { errorId: string; kind: ErrorRecordKind }): string;
}

/** OAuth error codes (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6, oidc-provider's own) → the safe message a person sees. */
const MESSAGE_OF_ERROR: Readonly<Record<string, ErrorMessageKey>> = {
  invalid_redirect_uri: 'invalidRedirectUri',
  redirect_uri_mismatch: 'invalidRedirectUri',
  invalid_client: 'unknownApplication',
  unauthorized_client: 'unknownApplication',
  access_denied: 'accessDenied',
  consent_required: 'accessDenied',
  login_required: 'sessionExpired',
  session_not_found: 'sessionExpired',
  invalid_request: 'invalidRequest',
  invalid_request_object: 'invalidRequest',
  invalid_scope: 'invalidRequest',
  unsupported_response_type: 'invalidRequest',
  unsupported_response_mode: 'invalidRequest',
  request_not_supported: 'invalidRequest',
  request_uri_not_supported: 'invalidRequest',
  registration_not_supported: 'invalidRequest',
  interaction_required: 'invalidRequest',
  invalid_grant: 'invalidRequest',
};

/**
 * The provider's `recordError` hook: an error oidc-provider would render as a bare page becomes an error record
 * (safe message key, the client's name when the client is known, the application's origin from its registered
 * redirect URI — never the one the request sent) and a 303 to `/error/signin?errorId=` (`/error/expired` for a
 * dead session). The log line carries the reference and the OAuth details for operators.
 */
export function oidcErrorRecorder(
  records: () => OidcErrorRecords | undefined,
  logger: OidcLogger | undefined,
): (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => Promise<string | undefined> {
  return async (ctx, out, error) => {
    const errorRecords = records();
    if (!errorRecords) return undefined;
    const messageKey = MESSAGE_OF_ERROR[out.error] ?? 'unexpected';
    const client = ctx.oidc?.client;
    const requestId = (ctx.req as { id?: unknown }).id;
    const record = await errorRecords.record({
      kind: messageKey === 'sessionExpired' ? 'expired' : 'signIn',
      messageKey,
      clientName: client?.clientName ?? undefined,
      returnUrl: client?.redirectUris?.[0],
      requestId: typeof requestId === 'string' ? requestId : undefined,
      source: ctx.ip,
    });
    if (!record) return undefined;
    logger?.warn(
      {
        errorId: record.errorId,
        requestId,
        error: out.error,
        errorDescription: out.error_description,
        clientId: client?.clientId,
        route: ctx.oidc?.route,
        err: ctx.status >= 500 ? error : undefined,
      },
      'oidc request refused; browser sent to the error page',
    );
    return errorRecords.pageOf(record);
  };
}

/**
 * The interaction handler's `expiredPage` hook: a browser that comes back to a dead interaction (its cookie gone,
 * the sign-in too slow) gets an error record and `/error/expired?errorId=`; the log line carries the reference.
 */
export function expiredInteractionRecorder(
  records: () => OidcErrorRecords | undefined,
  logger: OidcLogger | undefined,
): (req: IncomingMessage) => Promise<string | undefined> {
  return async (req) => {
    const errorRecords = records();
    if (!errorRecords) return undefined;
    const requestId = (req as { id?: unknown }).id;
    const record = await errorRecords.record({
      kind: 'expired',
      messageKey: 'sessionExpired',
      requestId: typeof requestId === 'string' ? requestId : undefined,
      source:
        (req as { ip?: unknown }).ip === undefined
          ? req.socket.remoteAddress
          : String((req as { ip?: unknown }).ip),
    });
    if (!record) return undefined;
    logger?.info(
      { errorId: record.errorId, requestId },
      'sign-in interaction expired; browser sent to the error page',
    );
    return errorRecords.pageOf(record);
  };
}
