import { setAccountPassword } from '../../identity/passwords/account-password.js';
import { hashPassword } from '../../identity/passwords/passwords.service.js';
import { revokeOidcArtefactsOfAccount } from '../../oidc/account-revocation.js';
import { defineCommand } from '../admin-command.js';
import { cliPeople } from '../people.js';
import { email, findUser, password, roles } from '../option-values.js';

const username = { type: 'string', value: 'U', required: true } as const;
/** Why: recorded in the audit as the console's changes are (issue 52). */
const reason = { type: 'string', value: 'TEXT' } as const;

export const usersCommands = [
  defineCommand({
    area: 'users',
    name: 'add',
    options: {
      username,
      email: { type: 'string', value: 'E', required: true },
      password: { type: 'string', value: 'P', required: true },
      'display-name': { type: 'string', value: 'N' },
      phone: { type: 'string', value: 'P' },
      roles: { type: 'string', value: 'EMPLOYEE,2' },
      partner: { type: 'string', value: 'ID' },
      'require-2fa': { type: 'boolean' },
      expired: { type: 'boolean' },
    },
    async run({ store, out }, values) {
      const user = await store.users.create({
        username: values.username,
        email: email(values.email),
        passwordHash: await hashPassword(password(values.password)),
        displayName: values['display-name'] ?? values.username,
        phone: values.phone ?? null,
        roles: values.roles ? roles(values.roles) : ['EMPLOYEE'],
        partnerId: values.partner ?? null,
        requiresTwoFactor: values['require-2fa'] ?? false,
        passwordExpiresAt: values.expired ? Date.now() - 1000 : null,
      });
      out(`user ${user.username} added (id ${user.id})`);
    },
  }),
  defineCommand({
    area: 'users',
    name: 'set-password',
    options: { username, password: { type: 'string', value: 'P', required: true } },
    summary: [
      'as a reset does: ends every session, reset link, remembered browser, link made with the old password,',
      'OIDC session and refresh token of the user',
    ],
    needsRedis: true,
    async run({ store, out, oidc }, values) {
      const user = await findUser(store, values.username);
      const chosen = password(values.password);
      await setAccountPassword(
        { store, now: Date.now, revokeOidc: (id) => revokeOidcArtefactsOfAccount(oidc, id) },
        user,
        chosen,
        { how: 'set-by-admin', ip: null },
      );
      out(`password of ${user.username} set; every session, reset link and OIDC token of the user ended`);
    },
  }),
  defineCommand({
    area: 'users',
    name: 'expire-password',
    options: { username },
    summary: ['the next sign-in must change the password'],
    async run({ store, out }, values) {
      const user = await findUser(store, values.username);
      await store.users.update(user.id, { passwordExpiresAt: Date.now() - 1000 });
      out(`password of ${user.username} expired; the next sign-in must change it`);
    },
  }),
  defineCommand({
    area: 'users',
    name: 'require-2fa',
    options: { username, off: { type: 'boolean' }, reason },
    summary: ['as the console does: audited with the reason'],
    async run(ctx, values) {
      const { store, out } = ctx;
      const user = await findUser(store, values.username);
      if (values.off) {
        await store.users.update(user.id, { requiresTwoFactor: false });
      } else {
        const { people, scope, made } = cliPeople(ctx, values.reason);
        await people.requireTwoStep(scope, user.id, made);
      }
      out(`${user.username} ${values.off ? 'no longer requires' : 'requires'} a second factor`);
    },
  }),
  defineCommand({
    area: 'users',
    name: 'disable',
    options: { username, enable: { type: 'boolean' }, reason },
    summary: [
      'also ends every session, OIDC session and refresh token of the user at once;',
      "audited with the reason, as the console's DisablePerson and EnablePerson are",
    ],
    needsRedis: true,
    async run(ctx, values) {
      const { store, out } = ctx;
      const user = await findUser(store, values.username);
      const { people, scope, made, revoked } = cliPeople(ctx, values.reason);
      if (values.enable) {
        await people.enable(scope, user.id, made);
        out(`${user.username} enabled`);
        return;
      }
      // S29: disabling ends every session and token of the account at once, on every replica, and its
      // applications are told by back-channel logout (the people service, as the console's DisablePerson).
      await people.disable(scope, user.id, made);
      const ended = revoked();
      if (!ended) return;
      out(
        `${user.username} disabled; every sign-in session ended; ${ended.sessions} OIDC session(s) and ${ended.grants} grant(s) with their tokens revoked`,
      );
    },
  }),
  defineCommand({
    area: 'users',
    name: 'roles',
    options: { username, roles: { type: 'string', value: 'MANAGER,7', required: true } },
    async run({ store, out }, values) {
      const user = await findUser(store, values.username);
      const next = roles(values.roles);
      await store.users.update(user.id, { roles: next });
      out(`${user.username}: ${next.join(', ')}`);
    },
  }),
  defineCommand({
    area: 'users',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const u of await store.users.list()) {
        const state = [
          u.disabled && 'disabled',
          u.requiresTwoFactor && '2fa',
          u.passwordExpiresAt !== null && u.passwordExpiresAt <= Date.now() && 'expired',
        ].filter(Boolean);
        out(`${u.username}\t${u.email ?? '-'}\t${u.roles.join(',')}\t${state.join(',') || 'active'}`);
      }
    },
  }),
];
