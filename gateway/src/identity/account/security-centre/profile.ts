import type { SecurityCentreView } from 'shared-contracts';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';

/** The profile: user name, display name and e-mail address, with the new address waiting for its link. */
export function profilePart(options: {
  centre: SecurityCentreContext;
  store: Pick<Store, 'users'>;
  /** The e-mail change's waiting address (`email-change.ts`). */
  pendingEmailOf: (user: User) => Promise<string | null>;
}) {
  const { centre, store, pendingEmailOf } = options;
  return {
    /** `SecurityCentreView.profile`. */
    view: async (user: User): Promise<SecurityCentreView['profile']> => {
      return {
        userName: user.username,
        displayName: user.displayName,
        email: user.email ?? null,
        pendingEmail: await pendingEmailOf(user),
      };
    },

    /** `UpdateProfile`: the display name. */
    update: (actor: SecurityCentreActor, displayName: string): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () => {
          await store.users.update(actor.user.id, { displayName });
          return { kind: 'done' };
        },
        { kind: 'security-centre.profile-updated', mail: 'profile-updated' },
      );
    },
  };
}
