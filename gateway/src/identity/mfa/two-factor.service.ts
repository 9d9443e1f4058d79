import { groupCode, type LoginWith2faView, type Setup2faView, type TwoFactorMethod } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import { randomToken } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import { groupSecret, matchTotpStep, newTotpSecret, totpQrSvg, totpUri } from './totp.service.js';

/**
 * Wrong second-factor answers a user may give before the path refuses (S6): counted per user across every method
 * and recovery codes, in the shared key-value store so all replicas see one count. Each attempt renews the window.
 */
export const MFA_MAX_ATTEMPTS = 5;
export const MFA_ATTEMPT_WINDOW_MS = 15 * 60_000;
/** A new authenticator secret waits this long for its first code. */
export const SETUP_SECRET_TTL_MS = 15 * 60_000;
/** A new set of recovery codes can be shown within this time, once. */
export const RECOVERY_CODES_TTL_MS = 10 * 60_000;
/** "Recent" for changing 2FA from a signed-in account (S21). */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

/** What checking a code leads to. */
export type CodeOutcome = 'ok' | 'invalid' | 'throttled';

/** What the two-factor service needs. */
export interface TwoFactorServiceDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
}

const keys = {
  attempts: (userId: string) => `mfa:attempts:${userId}`,
  setupAttempts: (userId: string) => `mfa:setup-attempts:${userId}`,
  setupSecret: (userId: string) => `mfa:setup:${userId}`,
  codes: (id: string) => `mfa:codes:${id}`,
};

/**
 * The second factor (SPEC.md §7 "Two-factor and codes", ADR 0008): the authenticator app (TOTP) and recovery
 * codes, at sign-in and in the set-up wizard. HTTP-free; the router maps outcomes to the protocol.
 */
export function createTwoFactorService({ store, kv, clock }: TwoFactorServiceDeps) {
  /**
   * Reserves one attempt before any code is checked, so N parallel wrong codes evaluate at most the limit (S5/S6);
   * false when the user is over it.
   */
  async function reserveAttempt(key: string): Promise<boolean> {
    return (await kv.increment(key, MFA_ATTEMPT_WINDOW_MS)) <= MFA_MAX_ATTEMPTS;
  }

  async function issuerFor(user: User): Promise<string> {
    const partner = user.partnerId ? await store.partners.findById(user.partnerId) : undefined;
    return partner?.name ?? (await store.partners.findForHost(undefined))?.name ?? 'Identity';
  }

  /** The methods the account has set up, preferred first. */
  async function methodsOf(userId: string): Promise<TwoFactorMethod[]> {
    const factor = await store.secondFactors.find(userId);
    if (!factor?.enabled) return [];
    return factor.totpSecretSealed ? ['authenticator'] : [];
  }

  return {
    methodsOf,

    /**
     * Whether a signed-in account may change its second factor now (S21): its full sign-in — the second factor
     * included when the account has one — happened within {@link RECENT_SIGN_IN_MS}.
     */
    async recentFullSignIn(
      userId: string,
      authTimeSeconds: number,
      amr: readonly string[],
    ): Promise<boolean> {
      const age = clock.now() - authTimeSeconds * 1000;
      if (age < 0 || age > RECENT_SIGN_IN_MS) return false;
      return (await methodsOf(userId)).length === 0 || amr.includes('mfa');
    },

    /** The user a pending sign-in is for. */
    user: (userId: string): Promise<User | undefined> => store.users.findById(userId),

    /** `LoginWith2FAView`. */
    async loginView(userId: string): Promise<LoginWith2faView> {
      return { methods: await methodsOf(userId), rememberBrowserAllowed: false };
    },

    /** `LoginWith2FA`: checks a code of a method the account has (throttled, TOTP once per step: S6, S17). */
    async verifySignInCode(userId: string, method: TwoFactorMethod, code: string): Promise<CodeOutcome> {
      if (!(await reserveAttempt(keys.attempts(userId)))) return 'throttled';
      const factor = await store.secondFactors.find(userId);
      if (method !== 'authenticator' || !factor?.enabled || !factor.totpSecretSealed) return 'invalid';
      const step = matchTotpStep(store.secrets.decrypt(factor.totpSecretSealed), code, clock.now());
      if (step === undefined || !(await store.secondFactors.acceptTotpStep(userId, step))) return 'invalid';
      await kv.delete(keys.attempts(userId));
      return 'ok';
    },

    /** `LoginWithRecoveryCode`: uses one code, exactly once however many requests race for it (S19). */
    async redeemRecoveryCode(userId: string, normalisedCode: string): Promise<CodeOutcome> {
      if (!(await reserveAttempt(keys.attempts(userId)))) return 'throttled';
      const used = await store.recoveryCodes.redeem(userId, recoveryCodeHash(userId, normalisedCode));
      if (!used) return 'invalid';
      await kv.delete(keys.attempts(userId));
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
        methods: ['authenticator'],
        configured: await methodsOf(user.id),
        duringSignIn,
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
     * `Validate2faSetupCode`: the first code of the new secret turns the authenticator on (replacing any earlier
     * one) and makes a new set of recovery codes, kept to be shown once under the returned id.
     */
    async confirmAuthenticator(
      userId: string,
      code: string,
    ): Promise<{ kind: 'ok'; recoveryCodesId: string } | { kind: 'invalid' | 'throttled' }> {
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const sealed = await kv.get(keys.setupSecret(userId));
      if (!sealed) return { kind: 'invalid' };
      const secret = store.secrets.decrypt(sealed);
      const step = matchTotpStep(secret, code, clock.now());
      if (step === undefined) return { kind: 'invalid' };
      // Only the request that takes the waiting secret goes on: two confirmations cannot make two sets of codes.
      if ((await kv.take(keys.setupSecret(userId))) === undefined) return { kind: 'invalid' };
      await store.secondFactors.enableAuthenticator(userId, store.secrets.encrypt(secret), step);
      const codes = newRecoveryCodes();
      await store.recoveryCodes.replace(
        userId,
        codes.map((c) => recoveryCodeHash(userId, c)),
      );
      const recoveryCodesId = randomToken(24);
      await kv.set(
        keys.codes(recoveryCodesId),
        store.secrets.encrypt(JSON.stringify({ userId, codes })),
        RECOVERY_CODES_TTL_MS,
      );
      await kv.delete(keys.setupAttempts(userId));
      await store.audit.record({
        at: clock.now(),
        kind: 'two-factor.enabled',
        userId,
        ip: null,
        data: { method: 'authenticator' },
      });
      return { kind: 'ok', recoveryCodesId };
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

/** The second-factor service. */
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
