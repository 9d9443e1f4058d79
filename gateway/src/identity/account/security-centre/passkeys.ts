import type { SecurityCentreView } from 'shared-contracts';
import type { User } from '../../../store/user.repository.js';
import type { WebauthnService } from '../../passkeys/webauthn.service.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';

/** The passkeys: listed, renamed, deleted. Registering one is the passkey page's (mfe-devices). */
export function passkeysPart(options: {
  centre: SecurityCentreContext;
  webauthn: Pick<WebauthnService, 'devicesOf' | 'renameDevice' | 'removeDevice'>;
}) {
  const { centre, webauthn } = options;
  return {
    /** `SecurityCentreView.passkeys`. */
    view: (user: User): Promise<SecurityCentreView['passkeys']> => {
      return webauthn.devicesOf(user.id);
    },

    /** `RenamePasskey`. */
    rename: (actor: SecurityCentreActor, id: string, name: string): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () =>
          (await webauthn.renameDevice(actor.user.id, id, name)) ? { kind: 'done' } : { kind: 'notFound' },
        // webauthn.renameDevice writes its own audit entry; this one says where the change came from.
        { kind: 'security-centre.passkey-renamed', mail: 'passkey-renamed', data: { credentialId: id } },
      );
    },

    /** `DeletePasskey`. */
    delete: (actor: SecurityCentreActor, id: string): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () =>
          (await webauthn.removeDevice(actor.user.id, id)) ? { kind: 'done' } : { kind: 'notFound' },
        { kind: 'security-centre.passkey-deleted', mail: 'passkey-deleted', data: { credentialId: id } },
      );
    },
  };
}
