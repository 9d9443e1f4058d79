import { type Setup2faView, type TwoFactorMethod } from 'shared-contracts';
import type { User } from '../../store/user.repository.js';
import { additionBinding } from '../account/ways-in.js';
import { digitsAt, maskEmail } from './delivered-codes.js';
import { groupSecret, matchTotpStep, newTotpSecret, totpQrSvg, totpUri } from './totp.service.js';
import {
  keys,
  SETUP_SECRET_TTL_MS,
  type CodeBinding,
  type SetupResult,
  type TwoFactorContext,
} from './two-factor-context.js';
import type { recoveryCodeSets } from './recovery-code-sets.service.js';

/**
 * The set-up wizard (ADR 0008): the authenticator's new secret and QR code, and the confirmations that turn a
 * method on (the authenticator's first code, the texted code to the new phone, the mailed PIN's digits). A method is
 * added beside the others (ADR 0050): the default stays, the recovery codes stay (the first method brings the first
 * set), and a method the account has already is replaced only when the request asks for it.
 */
export function twoFactorSetup(
  ctx: TwoFactorContext,
  codes: Pick<ReturnType<typeof recoveryCodeSets>, 'newRecoveryCodeSet'>,
) {
  const { store, kv, clock, delivered, reserveAttempt, issuerFor, methodsOf } = ctx;
  const { newRecoveryCodeSet } = codes;

  /**
   * The stamp a method confirmed now is bound to (null: not bound): the asking session's `amr` decides (ADR 0042).
   */
  async function bindingOf(userId: string, amr: readonly string[]): Promise<string | null> {
    const user = await store.users.findById(userId);
    return user ? additionBinding(store, user, amr) : null;
  }

  /**
   * Whether confirming `method` may go on: a method the account has already is replaced only on an explicit
   * `replace` (ADR 0050), so a client that omits it — or a wizard that preselected the wrong method — cannot turn
   * the account's authenticator or phone into a new one. Returns the methods the account had before.
   */
  async function mayConfirm(
    userId: string,
    method: TwoFactorMethod,
    replace: boolean,
  ): Promise<{ before: TwoFactorMethod[] } | undefined> {
    const before = await methodsOf(userId);
    return before.includes(method) && !replace ? undefined : { before };
  }

  /**
   * The end of every confirmed set-up: the first method brings the account's first recovery codes (bound as the
   * method is); a method added beside others keeps the codes the account has, which only an explicit request
   * replaces (`RedeemRecoveryCode` without an id, ADR 0050). Then the counter reset, the audit record, and the mail
   * to the account (ADR 0042).
   */
  async function setupDone(
    userId: string,
    method: TwoFactorMethod,
    boundStamp: string | null,
    before: readonly TwoFactorMethod[],
  ): Promise<SetupResult> {
    const recoveryCodesId = before.length === 0 ? await newRecoveryCodeSet(userId, boundStamp) : null;
    await kv.delete(keys.setupAttempts(userId));
    await store.audit.record({
      at: clock.now(),
      kind: 'two-factor.enabled',
      userId,
      ip: null,
      data: {
        method,
        bound: boundStamp !== null,
        replaced: before.includes(method),
        newRecoveryCodes: recoveryCodesId !== null,
      },
    });
    const user = await store.users.findById(userId);
    if (user) await ctx.announceWayIn?.(user, method);
    return { kind: 'ok', recoveryCodesId };
  }

  return {
    /**
     * `Setup2FAView`: a new authenticator secret (kept sealed for {@link SETUP_SECRET_TTL_MS}, the same one on a
     * reload) with its URI, the QR code and the grouped secret.
     */
    async setupView(user: User, duringSignIn: boolean): Promise<Setup2faView> {
      const key = keys.setupSecret(user.id);
      const sealed = await kv.get(key);
      let secret = sealed ? store.secrets.decrypt(sealed) : undefined;
      if (!secret) {
        secret = newTotpSecret();
        await kv.set(key, store.secrets.encrypt(secret), SETUP_SECRET_TTL_MS);
      }
      const issuer = await issuerFor(user);
      const uri = totpUri(secret, issuer, user.username);
      return {
        methods: user.email ? ['authenticator', 'sms', 'pin'] : ['authenticator', 'sms'],
        configured: await methodsOf(user.id, user),
        duringSignIn,
        maskedEmail: user.email ? maskEmail(user.email) : null,
        authenticator: {
          secret: groupSecret(secret),
          uri,
          qrSvg: await totpQrSvg(uri),
          issuer,
          accountName: user.username,
        },
      };
    },

    /**
     * `Validate2faSetupCode`: the first code of the new secret turns the authenticator on (replacing the earlier one
     * only with `replace`); the first method's recovery codes are kept to be shown once under the returned id.
     */
    async confirmAuthenticator(
      userId: string,
      code: string,
      amr: readonly string[] = [],
      replace = false,
    ): Promise<SetupResult> {
      const allowed = await mayConfirm(userId, 'authenticator', replace);
      if (!allowed) return { kind: 'exists' };
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const sealed = await kv.get(keys.setupSecret(userId));
      if (!sealed) return { kind: 'invalid' };
      const secret = store.secrets.decrypt(sealed);
      const step = matchTotpStep(secret, code, clock.now());
      if (step === undefined) return { kind: 'invalid' };
      // Only the request that takes the waiting secret goes on: two confirmations cannot make two sets of codes.
      if ((await kv.take(keys.setupSecret(userId))) === undefined) return { kind: 'invalid' };
      const bound = await bindingOf(userId, amr);
      await store.secondFactors.enableAuthenticator(userId, store.secrets.encrypt(secret), step, bound);
      return setupDone(userId, 'authenticator', bound, allowed.before);
    },

    /**
     * `Validate2faSetupCode` for SMS: the code texted to the new phone (this set-up's, once) proves the phone; it
     * becomes the verified number the SMS method uses (a new number for one set up already only with `replace`).
     */
    async confirmSms(
      userId: string,
      code: string,
      binding: CodeBinding,
      amr: readonly string[] = [],
      replace = false,
    ): Promise<SetupResult> {
      const allowed = await mayConfirm(userId, 'sms', replace);
      if (!allowed) return { kind: 'exists' };
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const used = await delivered.use(keys.phone(binding), userId, code, (r) => r.code);
      if (!used?.phone) return { kind: 'invalid' };
      const bound = await bindingOf(userId, amr);
      await store.secondFactors.enableSms(userId, used.phone, bound);
      return setupDone(userId, 'sms', bound, allowed.before);
    },

    /**
     * `Validate2faSetupCode` for the PIN: the asked digits of the PIN mailed for this set-up prove the user reads
     * the account's address, which is all the method needs.
     */
    async confirmPin(
      userId: string,
      code: string,
      binding: CodeBinding,
      amr: readonly string[] = [],
      replace = false,
    ): Promise<SetupResult> {
      const allowed = await mayConfirm(userId, 'pin', replace);
      if (!allowed) return { kind: 'exists' };
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const used = await delivered.use(keys.pin(binding), userId, code, (r) =>
        r.positions ? digitsAt(r.code, r.positions) : undefined,
      );
      if (!used) return { kind: 'invalid' };
      const bound = await bindingOf(userId, amr);
      await store.secondFactors.enablePin(userId, bound);
      return setupDone(userId, 'pin', bound, allowed.before);
    },
  };
}
