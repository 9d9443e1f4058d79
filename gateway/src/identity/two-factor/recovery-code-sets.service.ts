import { groupCode } from 'shared-contracts';
import { randomToken } from '../../infra/crypto/tokens.js';
import type { Store } from '../../store/store.js';
import { additionBinding } from '../account/ways-in.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import {
  keys,
  MFA_OWN_MAX_ATTEMPTS,
  MFA_OWN_WINDOW_MS,
  MFA_STRANGER_WINDOW_MS,
  RECOVERY_CODE_MAX_ATTEMPTS,
  RECOVERY_CODES_TTL_MS,
  type CodeOutcome,
  type TwoFactorContext,
} from './two-factor-context.js';

/**
 * Recovery codes (ADR 0008): a new set (kept sealed to be shown once), using one at sign-in exactly once (S19),
 * showing a set, and a new set on demand.
 */
export function recoveryCodeSets(ctx: TwoFactorContext) {
  const { store, kv, clock, reserveAttempt, methodsOf } = ctx;

  /**
   * New recovery codes for `userId`, kept to be shown once under the returned id; `boundStamp`: made without a
   * proved second factor, they end with that security stamp (ADR 0042).
   */
  async function newRecoveryCodeSet(userId: string, boundStamp: string | null = null): Promise<string> {
    const codes = newRecoveryCodes();
    await store.recoveryCodes.replace(
      userId,
      codes.map((c) => recoveryCodeHash(userId, c)),
      boundStamp,
    );
    const recoveryCodesId = randomToken(24);
    await kv.set(
      keys.codes(recoveryCodesId),
      store.secrets.encrypt(JSON.stringify({ userId, codes })),
      RECOVERY_CODES_TTL_MS,
    );
    return recoveryCodesId;
  }

  return {
    newRecoveryCodeSet,

    /** `LoginWithRecoveryCode`: uses one code, exactly once however many requests race for it (S19). */
    async redeemRecoveryCode(userId: string, normalisedCode: string, device?: string): Promise<CodeOutcome> {
      const reserved = device
        ? await reserveAttempt(keys.recoveryAttempts(userId, device), MFA_OWN_MAX_ATTEMPTS, MFA_OWN_WINDOW_MS)
        : await reserveAttempt(
            keys.recoveryAttempts(userId),
            RECOVERY_CODE_MAX_ATTEMPTS,
            MFA_STRANGER_WINDOW_MS,
          );
      if (!reserved) return 'throttled';
      const used = await store.recoveryCodes.redeem(userId, recoveryCodeHash(userId, normalisedCode));
      if (!used) return 'invalid';
      await kv.delete(keys.recoveryAttempts(userId, device));
      await store.audit.record({
        at: clock.now(),
        kind: 'two-factor.recovery-code-used',
        userId,
        ip: null,
        data: { remaining: await store.recoveryCodes.remaining(userId) },
      });
      return 'ok';
    },

    /**
     * `RedeemRecoveryCode` without an id: a new set on demand for an account with a second factor, replacing the
     * old codes; answered once (grouped), undefined without a factor. `amr`: what the asking session proved (bound
     * to the security stamp without a second factor) — the account is mailed at once (ADR 0042).
     */
    async regenerateRecoveryCodes(
      userId: string,
      amr: readonly string[] = [],
    ): Promise<string[] | undefined> {
      if ((await methodsOf(userId)).length === 0) return undefined;
      const user = await store.users.findById(userId);
      if (!user) return undefined;
      const id = await newRecoveryCodeSet(userId, await additionBinding(store, user, amr));
      await ctx.announceWayIn?.(user, 'recovery-codes');
      await store.audit.record({
        at: clock.now(),
        kind: 'two-factor.recovery-codes-regenerated',
        userId,
        ip: null,
        data: {},
      });
      const taken = await kv.take(keys.codes(id));
      const set = taken ? readCodeSet(store, taken) : undefined;
      return set?.codes.map((c) => groupCode(c));
    },

    /** `RedeemRecoveryCode`: the set kept under `id`, for its own user, once (then the id is dead). */
    async takeRecoveryCodes(userId: string, id: string): Promise<string[] | undefined> {
      const key = keys.codes(id);
      const peek = await kv.get(key);
      if (!peek || readCodeSet(store, peek)?.userId !== userId) return undefined;
      const taken = await kv.take(key);
      const set = taken ? readCodeSet(store, taken) : undefined;
      return set?.userId === userId ? set.codes.map((c) => groupCode(c)) : undefined;
    },

    /** `RedeemState`: whether the set under `id` can still be shown to this user. */
    async recoveryCodesAvailable(userId: string, id: string): Promise<boolean> {
      const value = await kv.get(keys.codes(id));
      return value !== undefined && readCodeSet(store, value)?.userId === userId;
    },
  };
}

function readCodeSet(store: Store, sealed: string): { userId: string; codes: string[] } | undefined {
  try {
    return JSON.parse(store.secrets.decrypt(sealed)) as { userId: string; codes: string[] };
  } catch {
    return undefined;
  }
}
