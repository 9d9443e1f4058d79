import { revokeOidcArtefactsOfAccount } from '../../oidc/account-revocation.js';
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
      // The security stamp ends the gateway sessions on every replica; the OIDC artefacts go with their adapters.
      await store.users.rotateSecurityStamp(user.id);
      const revoked = await revokeOidcArtefactsOfAccount(oidc, user.id);
      out(
        `${user.username}: every sign-in session ended; ${revoked.sessions} OIDC session(s) and ${revoked.grants} grant(s) with their tokens revoked`,
      );
    },
  }),
];
