import { cliActor } from '../identity/console/console-actor.js';
import { createPeopleService, EVERYONE, type PersonChange } from '../identity/console/people.service.js';
import { systemClock } from '../infra/clock.js';
import { revokeOidcArtefactsOfAccount, type RevokedArtefacts } from '../oidc/account-revocation.js';
import type { AdminContext } from './admin-command.js';

/**
 * The people service as the CLI uses it (issue 52): the console's own service over everyone, acting as
 * `cli:<os user>`, so `admin users disable`, `admin sessions revoke`, `admin users require-2fa` and
 * `admin memberships add|remove` are audited as the console's People calls are. It mails nothing (the CLI has no
 * mail transport); `revoked()` tells what the last change's OIDC revocation reported.
 */
export function cliPeople(ctx: Pick<AdminContext, 'store' | 'oidc'>, reason: string | undefined) {
  let revoked: RevokedArtefacts | undefined;
  const people = createPeopleService({
    store: ctx.store,
    clock: systemClock,
    revokeOidc: async (accountId) => {
      revoked = await revokeOidcArtefactsOfAccount(ctx.oidc, accountId);
      return revoked;
    },
  });
  const made: PersonChange = { actor: cliActor(), reason: reason?.trim() || null };
  return { people, scope: EVERYONE, made, revoked: () => revoked };
}
