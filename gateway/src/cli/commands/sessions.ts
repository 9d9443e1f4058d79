import { revokeOidcArtefactsOfAccount } from '../../oidc/account-revocation.js';
import { endEverySignInOfAccount } from '../../identity/sign-out/account-sign-ins.js';
import { defineCommand } from '../admin-command.js';
import { findUser } from '../option-values.js';

export const sessionsCommands = [
  defineCommand({
    area: 'sessions',
    name: 'revoke',
    options: { user: { type: 'string', value: 'U', required: true } },
    summary: ['ends every session, OIDC session and refresh token of a user at once'],
    needsRedis: true,
    async run({ store, out, oidc }, values) {
      const user = await findUser(store, values.user);
      // The security stamp ends the gateway sessions on every replica; the OIDC sessions end with back-channel
      // logout to their applications, the grants with their refresh tokens.
      const revoked = await endEverySignInOfAccount(
        { store, revokeOidc: (id) => revokeOidcArtefactsOfAccount(oidc, id) },
        user.id,
      );
      if (!revoked) return;
      out(
        `${user.username}: every sign-in session ended; ${revoked.sessions} OIDC session(s) and ${revoked.grants} grant(s) with their tokens revoked`,
      );
    },
  }),
];
