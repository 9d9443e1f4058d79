import {
  changeExpiredPasswordRequestSchema,
  isErrorCode,
  parseErrorCode,
  resolvePasswordRules,
  type PasswordRules,
} from 'shared-contracts';
import type { KeyValueStore } from '../../../infra/kv/key-value-store.js';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import { setAccountPassword } from '../../passwords/account-password.js';
import type { PartnerService } from '../../partners/partner.service.js';
import { verifyPassword } from '../../passwords/passwords.service.js';
import { isCommonPassword } from '../../recovery/common-passwords.js';
import type { ChangeOutcome, FieldErrors, SecurityCentreActor, SecurityCentreContext } from './context.js';
import { vendorCredentialsOnly } from './vendor-account.js';

/** Wrong current passwords at the security centre's password change per account and hour (S6). */
export const PASSWORD_CHANGE_ATTEMPT_LIMIT = 10;
const PASSWORD_CHANGE_WINDOW_MS = 60 * 60_000;
const attemptsKey = (userId: string) => `security-centre:password:${userId}`;

/** The password: the rules a new one must pass, and the change. */
export function passwordPart(options: {
  centre: SecurityCentreContext;
  store: Store;
  kv: KeyValueStore;
  partners: Pick<PartnerService, 'forHost'>;
  /** Ends the account's OIDC sessions and refresh tokens after the change (S15). */
  revokeOidc?: ((accountId: string) => Promise<unknown>) | undefined;
}) {
  const { centre, store, kv, partners, revokeOidc } = options;

  /** The rules of the account's partner, else of the request's partner, else the defaults. */
  async function rulesOf(user: User, host: string | undefined): Promise<PasswordRules> {
    const partnerId = user.partnerId ?? (await partners.forHost(host))?.id;
    const policy = partnerId ? await store.passwordPolicies.find(partnerId) : undefined;
    return resolvePasswordRules(policy?.rules);
  }

  return {
    /** `SecurityCentreView.passwordRules`. */
    rules: (actor: SecurityCentreActor): Promise<PasswordRules> => rulesOf(actor.user, actor.host),

    /**
     * `ChangePassword`: the current password again, a new one that passes the partner's rules and the common list
     * (S1, S2); set the one way there is (`setAccountPassword`), which rotates the security stamp and so ends every
     * other session and the OIDC sessions (S15). Answers the user as changed, with the new stamp, so the router can
     * keep this browser signed in.
     */
    change: (actor: SecurityCentreActor, body: unknown): Promise<ChangeOutcome<User>> => {
      if (actor.user.vendorId) return Promise.resolve(vendorCredentialsOnly());
      return centre.change<User>(
        actor,
        async () => {
          const { user } = actor;
          if (!user.passwordHash) return { kind: 'invalid', errors: { '': ['localLoginNotAllowed'] } };
          const parsed = changeExpiredPasswordRequestSchema(await rulesOf(user, actor.host)).safeParse(body);
          if (!parsed.success) return { kind: 'invalid', errors: errorsOf(parsed.error.issues) };
          const attempts = await kv.increment(attemptsKey(user.id), PASSWORD_CHANGE_WINDOW_MS);
          if (attempts > PASSWORD_CHANGE_ATTEMPT_LIMIT) return { kind: 'throttled' };
          if (!(await verifyPassword(user.passwordHash, parsed.data.currentPassword)))
            return { kind: 'invalid', errors: { currentPassword: ['currentPasswordIncorrect'] } };
          if (isCommonPassword(parsed.data.newPassword))
            return { kind: 'invalid', errors: { newPassword: ['passwordCommon'] } };
          await setAccountPassword({ store, now: centre.now, revokeOidc }, user, parsed.data.newPassword, {
            how: 'changed',
            ip: actor.ip,
          });
          await kv.delete(attemptsKey(user.id));
          const changed = await store.users.findById(user.id);
          return changed ? { kind: 'done', value: changed } : { kind: 'notFound' };
        },
        // setAccountPassword records `password.changed` itself.
        { kind: 'security-centre.password-changed', mail: 'password' },
      );
    },
  };
}

/** Zod issues to the errors map, keeping the shared password rules' `code|{values}` messages. */
function errorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    const parsed = parseErrorCode(issue.message);
    const code = 'code' in parsed && isErrorCode(parsed.code) ? issue.message : 'invalidValue';
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}
