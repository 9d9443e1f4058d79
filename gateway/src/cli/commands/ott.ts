import {
  issueUnboundSignInLink,
  OTT_MAX_MINUTES,
} from '../../identity/one-time-token/one-time-sign-in.service.js';
import { defineCommand } from '../admin-command.js';
import { findUser, positiveInteger } from '../option-values.js';
import { UsageError } from '../cli-support.js';

export const ottCommands = [
  defineCommand({
    area: 'ott',
    name: 'issue',
    options: {
      username: { type: 'string', value: 'U', required: true },
      minutes: { type: 'string', value: 'N' },
    },
    summary: [
      `prints a one-time sign-in link for the user (one use, ${OTT_MAX_MINUTES} minutes unless --minutes says fewer),`,
      'usable in any browser: for support to hand to the user (ADR 0019); the second factor still applies',
    ],
    async run({ store, out, publicUrl }, values) {
      const minutes =
        values.minutes === undefined
          ? OTT_MAX_MINUTES
          : positiveInteger(values.minutes, 'minutes', OTT_MAX_MINUTES);
      const user = await findUser(store, values.username);
      if (user.disabled) throw new UsageError(`user "${user.username}" is disabled`);
      if (user.vendorId)
        throw new UsageError(
          `user "${user.username}" is a vendor account: it signs in through its provider only`,
        );
      const { link, expiresAt } = await issueUnboundSignInLink(store, {
        user,
        minutes,
        publicUrl,
        now: Date.now(),
      });
      out(link);
      out(
        `one use, for ${user.username}, until ${new Date(expiresAt).toISOString()}; any older link of theirs from this command no longer works`,
      );
    },
  }),
];
