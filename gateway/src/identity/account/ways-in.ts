import { partnerDisplayName } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail, type AddedSignInMethod, type SecurityChange } from '../../infra/mail/templates.js';
import { requestContext, type RequestContext } from '../../infra/request-context.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import { hasBoundAdditions } from '../../store/bound-additions.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { PartnerService } from '../partners/partner.service.js';

/**
 * Every new way in is bound and announced (issue 48, ADR 0042).
 *
 * Bound: a passkey, a second-factor method or recovery codes added by a session that has not proved a second factor
 * (its `amr` has no `mfa`: a password-only account, a one-time link) are bound to the account's security stamp, as
 * links are (ADR 0018, migration 0021): a new stamp (a password reset or change, `sessions revoke`, disabling)
 * removes them (`store/bound-additions.ts`). While the account still has a bound way in, what is added is bound too:
 * a second factor proved with a bound way in proves nothing the password did not.
 *
 * Announced: each addition is mailed to the account at once ({@link createWaysInAnnouncer}).
 */

/** The sign-in methods a session has proved: the signed-in account's, or the pending sign-in's so far. */
export function sessionAmr(session: Session | undefined): readonly string[] {
  const data = session?.record.data;
  return data?.account?.amr ?? data?.pending?.amr ?? [];
}

/**
 * The stamp a way in added now by a session that proved `amr` is bound to, or null when it is not bound (the
 * session proved a second factor, and the account has no bound way in left).
 */
export async function additionBinding(
  store: Pick<Store, 'database'>,
  user: Pick<User, 'id' | 'securityStamp'>,
  amr: readonly string[],
): Promise<string | null> {
  if (amr.includes('mfa') && !(await hasBoundAdditions(store.database.db, user.id))) return null;
  return user.securityStamp;
}

/** What {@link createWaysInAnnouncer} needs. */
export interface WaysInAnnouncerDeps {
  mailer: Mailer;
  partners: Pick<PartnerService, 'forHost'>;
  clock: Clock;
  /** The security centre is `${publicUrl}/account/`. */
  publicUrl: string;
  onBackgroundError?: ((error: unknown) => void) | undefined;
}

/** Mails the account that a way in was added (what, when, from which browser, the security centre's link). */
export type AnnounceWayIn = (
  user: Pick<User, 'email' | 'displayName'>,
  method: AddedSignInMethod,
  detail?: { provider?: string | undefined },
) => Promise<void>;

/**
 * Sends the account a mail at once, in the request's language (the account stores none: the culture cookie,
 * Accept-Language, then the partner's default, as every answer of the API), from the request's partner. What was
 * done stands whatever the mail does (a fault is reported).
 */
async function mailAtOnce(
  deps: WaysInAnnouncerDeps,
  to: string | null | undefined,
  render: (
    locale: string | undefined,
    common: { partnerName: string; changedAt: number },
    context: RequestContext | undefined,
  ) => { subject: string; text: string; html: string },
): Promise<void> {
  if (!to) return;
  const context = requestContext.getStore();
  try {
    const partner = await deps.partners.forHost(context?.host ?? undefined);
    const common = {
      partnerName: partnerDisplayName(partner?.name, 'Identity'),
      changedAt: deps.clock.now(),
    };
    const rendered = render(context?.locale ?? partner?.defaultLanguage, common, context);
    await deps.mailer.send({ to, subject: rendered.subject, text: rendered.text, html: rendered.html });
  } catch (error) {
    deps.onBackgroundError?.(error);
  }
}

/** The mail of an added way in ({@link mailAtOnce}), with the user agent of the browser that added it. */
export function createWaysInAnnouncer(deps: WaysInAnnouncerDeps): AnnounceWayIn {
  const securityCentre = new URL('/account/', deps.publicUrl).href;
  return (user, method, detail = {}) =>
    mailAtOnce(deps, user.email, (locale, common, context) =>
      renderMail('sign-in-method-added', locale, {
        ...common,
        displayName: user.displayName,
        method,
        provider: detail.provider,
        userAgent: context?.userAgent ?? null,
        link: securityCentre,
      }),
    );
}

/** Mails the account that something about how it signs in changed (a passkey renamed or deleted). */
export type AnnounceChange = (
  user: Pick<User, 'email' | 'displayName'>,
  change: SecurityChange,
) => Promise<void>;

/**
 * The mail of a change made from any page (the security centre or the device page: one path per action, issue 50),
 * sent as {@link mailAtOnce} does.
 */
export function createChangeAnnouncer(deps: WaysInAnnouncerDeps): AnnounceChange {
  return (user, change) =>
    mailAtOnce(deps, user.email, (locale, common) =>
      renderMail('security-change', locale, { ...common, displayName: user.displayName, change }),
    );
}
