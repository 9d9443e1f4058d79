import { defineCommand } from '../admin-command.js';
import { findUser } from '../option-values.js';
import { cliPeople } from '../people.js';

export const sessionsCommands = [
  defineCommand({
    area: 'sessions',
    name: 'revoke',
    options: {
      user: { type: 'string', value: 'U', required: true },
      reason: { type: 'string', value: 'TEXT' },
    },
    summary: [
      'ends every session, OIDC session and refresh token of a user at once;',
      "audited with the reason, as the console's EndPersonSessions is",
    ],
    needsRedis: true,
    async run(ctx, values) {
      const user = await findUser(ctx.store, values.user);
      // The security stamp ends the gateway sessions on every replica; the OIDC sessions end with back-channel
      // logout to their applications, the grants with their refresh tokens (the people service, as the console).
      const { people, scope, made, revoked } = cliPeople(ctx, values.reason);
      await people.endSessions(scope, user.id, made);
      const ended = revoked();
      if (!ended) return;
      ctx.out(
        `${user.username}: every sign-in session ended; ${ended.sessions} OIDC session(s) and ${ended.grants} grant(s) with their tokens revoked`,
      );
    },
  }),
];
