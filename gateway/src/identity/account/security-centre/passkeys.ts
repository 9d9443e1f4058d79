import type { SecurityCentreView } from 'shared-contracts';
import type { User } from '../../../store/user.repository.js';
import type { WebauthnService } from '../../passkeys/webauthn.service.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';

/** The passkeys: listed, renamed, deleted. Registering one is the passkey page's (mfe-devices). */
export function passkeysPart(options: {
  centre: SecurityCentreContext;
  webauthn: Pick<WebauthnService, 'devicesOf' | 'renamePasskey' | 'deletePasskey'>;
}) {
  const { centre, webauthn } = options;
  return {
    /** `SecurityCentreView.passkeys`. */
    view: (user: User): Promise<SecurityCentreView['passkeys']> => {
      return webauthn.devicesOf(user.id);
    },

    /** `RenamePasskey`: the passkey service's one path (audited and mailed there), after the recent sign-in. */
    rename: async (actor: SecurityCentreActor, id: string, name: string): Promise<ChangeOutcome> => {
      if (!(await centre.isRecent(actor))) return { kind: 'recentSignInRequired' };
      return (await webauthn.renamePasskey(actor.user, id, name)) ? { kind: 'done' } : { kind: 'notFound' };
    },

    /** `DeletePasskey`: as `rename`. */
    delete: async (actor: SecurityCentreActor, id: string): Promise<ChangeOutcome> => {
      if (!(await centre.isRecent(actor))) return { kind: 'recentSignInRequired' };
      return (await webauthn.deletePasskey(actor.user, id)) ? { kind: 'done' } : { kind: 'notFound' };
    },
  };
}
