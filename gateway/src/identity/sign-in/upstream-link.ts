import type { PendingLink } from '../../infra/sessions/session-store.js';
import type { User } from '../../store/user.repository.js';
import type { SignInContext } from './sign-in-context.js';

/**
 * `Link` (ADR 0018): the upstream identity a sign-in brought is linked to the account once every step has passed
 * (issue 39), bound to its security stamp.
 */
export function upstreamLink(ctx: Pick<SignInContext, 'store' | 'clock' | 'announceWayIn'>) {
  const { store, clock } = ctx;

  /** Links the identity `Link` brought, now that the sign-in is complete. */
  async function linkUpstream(user: User, link: PendingLink): Promise<void> {
    const { issuer, subject, providerId } = link;
    let outcome: 'external.linked' | 'external.link.refused' = 'external.linked';
    if (
      !(await store.externalLogins.link({
        issuer,
        subject,
        userId: user.id,
        providerId,
        securityStamp: user.securityStamp,
      }))
    ) {
      // Already there: this account's (a lapsed link is made live again), or another's (one identity, one account).
      const existing = await store.externalLogins.find(issuer, subject);
      if (existing?.userId === user.id)
        await store.externalLogins.renew(issuer, subject, user.id, user.securityStamp);
      else outcome = 'external.link.refused';
    }
    await store.audit.record({
      at: clock.now(),
      kind: outcome,
      userId: user.id,
      ip: null,
      data: { provider: providerId, issuer, via: 'sign-in' },
    });
    // Every new way in is announced (issue 48, ADR 0042).
    if (outcome === 'external.linked')
      await ctx.announceWayIn?.(user, 'linked-account', {
        provider: (await store.identityProviders.findById(providerId))?.name,
      });
  }

  return { linkUpstream };
}
