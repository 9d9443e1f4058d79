import { partnerDisplayName } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail, type AddedSignInMethod } from '../../infra/mail/templates.js';
import { requestContext } from '../../infra/request-context.js';
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
 * The mail of an added way in, sent at once in the request's language (the account stores none: the culture
 * cookie, Accept-Language, then the partner's default, as every answer of the API), from the request's partner, with
 * the user agent of the browser that added it. The addition stands whatever the mail does (a fault is reported).
 */
export function createWaysInAnnouncer(deps: WaysInAnnouncerDeps): AnnounceWayIn {
  const securityCentre = new URL('/account/', deps.publicUrl).href;
  return async (user, method, detail = {}) => {
    if (!user.email) return;
    const context = requestContext.getStore();
    try {
      const partner = await deps.partners.forHost(context?.host ?? undefined);
      const rendered = renderMail('sign-in-method-added', context?.locale ?? partner?.defaultLanguage, {
        partnerName: partnerDisplayName(partner?.name, 'Identity'),
        displayName: user.displayName,
        method,
        provider: detail.provider,
        changedAt: deps.clock.now(),
        userAgent: context?.userAgent ?? null,
        link: securityCentre,
      });
      await deps.mailer.send({
        to: user.email,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
      });
    } catch (error) {
      deps.onBackgroundError?.(error);
    }
  };
}
