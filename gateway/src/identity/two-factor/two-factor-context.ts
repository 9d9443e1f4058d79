import { partnerDisplayName, type CodeSent, type TwoFactorMethod } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import type { SmsSender } from '../../infra/sms/sms-sender.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { deliveredCodes } from './delivered-codes.js';
import type { RememberedBrowsers } from './remembered-browsers.js';
import type { AnnounceWayIn } from '../account/ways-in.js';

/**
 * Second-factor throttles (S6, issue 39, ADR 0008). Wrong answers are counted in fixed windows (a refused attempt
 * never lengthens one) in the shared key-value store, so all replicas see one count:
 * - a browser where this account completed a sign-in with its second factor before (a signed, stamp-bound cookie)
 *   has its own counter, {@link MFA_OWN_MAX_ATTEMPTS} per {@link MFA_OWN_WINDOW_MS}: strangers cannot lock it out;
 * - every other browser shares the account's strangers' counter, {@link MFA_STRANGER_MAX_ATTEMPTS} per
 *   {@link MFA_STRANGER_WINDOW_MS}: with codes of 10⁻⁶ (3 × 10⁻⁶ for TOTP's ±1 step) that bounds a guess getting
 *   through within an hour to ≤ 9 × 10⁻⁶ whatever the number of sources, as long as the owner does not sign in
 *   from a new browser meanwhile (a right answer starts the count again; the arithmetic is in ADR 0008);
 * - recovery codes (≥ 50 bits each) have budgets of their own, so the owner's recovery code still works while
 *   strangers have used up the code budget.
 */
export const MFA_OWN_MAX_ATTEMPTS = 5;
export const MFA_OWN_WINDOW_MS = 15 * 60_000;
export const MFA_STRANGER_MAX_ATTEMPTS = 3;
export const MFA_STRANGER_WINDOW_MS = 60 * 60_000;
export const RECOVERY_CODE_MAX_ATTEMPTS = 10;
/** The set-up wizard's confirmations (a signed-in account or the set-up step of a sign-in). */
export const MFA_MAX_ATTEMPTS = 5;
export const MFA_ATTEMPT_WINDOW_MS = 15 * 60_000;
/** A new authenticator secret waits this long for its first code. */
export const SETUP_SECRET_TTL_MS = 15 * 60_000;
/** A new set of recovery codes can be shown within this time, once. */
export const RECOVERY_CODES_TTL_MS = 10 * 60_000;
/**
 * "Recent" for changing how a signed-in account signs in (S21), unless RECENT_SIGN_IN_SECONDS says otherwise
 * ({@link TwoFactorServiceDeps.recentSignInMs}).
 */
export const DEFAULT_RECENT_SIGN_IN_MS = 10 * 60_000;

/** PIN mails a user may cause (first sends and resends) within {@link SEND_WINDOW_MS}. */
export const MAX_PIN_MAILS = 5;
/** Texts a user may cause (sign-in codes and phone verification) within {@link SEND_WINDOW_MS}: SMS cost money. */
export const MAX_SMS = 6;
export const SEND_WINDOW_MS = 60 * 60_000;

/** What checking a code leads to. */
export type CodeOutcome = 'ok' | 'invalid' | 'throttled';

/** What asking for an SMS leads to: sent (or waiting for its resend time), over the limit, or not deliverable. */
export type SendOutcome = CodeSent | 'throttled' | 'failed';

/** What the two-factor service needs. */
export interface TwoFactorServiceDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  /** The e-mailed PIN goes out here (SMTP or the dev outbox). */
  mailer: Mailer;
  /** SMS codes go out here (the webhook provider or the dev outbox). */
  sms: SmsSender;
  /** "Remember this browser" after a second factor, where the user's partner allows it. */
  rememberedBrowsers?: RememberedBrowsers | undefined;
  /**
   * How long after a full sign-in the account may change how it signs in (RECENT_SIGN_IN_SECONDS, S21): the one
   * window of the security centre, the 2FA set-up, passkeys and linking; {@link DEFAULT_RECENT_SIGN_IN_MS} if unset.
   */
  recentSignInMs?: number | undefined;
  /** Mails the account each way in added (issue 48, ADR 0042). */
  announceWayIn?: AnnounceWayIn | undefined;
}

/**
 * Where a mailed or texted code belongs: an opaque key of one pending sign-in (or one set-up in one session), made
 * by the caller; a code kept under one binding cannot be used under another (S18).
 */
export type CodeBinding = string;

export const keys = {
  /** The strangers' counter of an account, or a known browser's own. */
  attempts: (userId: string, device?: string) =>
    device ? `mfa:attempts:${userId}:device:${device}` : `mfa:attempts:${userId}`,
  recoveryAttempts: (userId: string, device?: string) =>
    device ? `mfa:recovery-attempts:${userId}:device:${device}` : `mfa:recovery-attempts:${userId}`,
  setupAttempts: (userId: string) => `mfa:setup-attempts:${userId}`,
  setupSecret: (userId: string) => `mfa:setup:${userId}`,
  codes: (id: string) => `mfa:codes:${id}`,
  pin: (binding: CodeBinding) => `mfa:pin:${binding}`,
  sms: (binding: CodeBinding) => `mfa:sms:${binding}`,
  phone: (binding: CodeBinding) => `mfa:phone:${binding}`,
  pinMails: (userId: string) => `mfa:pin-mails:${userId}`,
  texts: (userId: string) => `mfa:texts:${userId}`,
};

/**
 * What a set-up confirmation leads to: the method is on, with the id of new recovery codes when this was the
 * account's first method (null: the codes it had are kept, ADR 0050); a wrong code; too many tries; or the method is
 * set up already and the request did not ask to replace it.
 */
export type SetupResult =
  { kind: 'ok'; recoveryCodesId: string | null } | { kind: 'invalid' | 'throttled' | 'exists' };

/**
 * What every part of the second factor shares (issue 42 split the service along its jobs: the sign-in check, the
 * set-up wizard, code delivery, recovery codes): the dependencies, the delivered-code records, the attempt counters
 * and the account's methods.
 */
export function twoFactorContext(deps: TwoFactorServiceDeps) {
  const { store, kv, rememberedBrowsers } = deps;
  const delivered = deliveredCodes(kv, store.secrets, deps.clock);

  /**
   * Reserves one attempt before any code is checked, so N parallel wrong codes evaluate at most the limit (S5/S6);
   * false when the user is over it.
   */
  async function reserveAttempt(
    key: string,
    max = MFA_MAX_ATTEMPTS,
    windowMs = MFA_ATTEMPT_WINDOW_MS,
  ): Promise<boolean> {
    return (await kv.increment(key, windowMs, 'fixed')) <= max;
  }

  /** Reserves a sign-in code attempt on the browser's own counter when it is a known one, else the strangers'. */
  function reserveCodeAttempt(userId: string, device: string | undefined): Promise<boolean> {
    return device
      ? reserveAttempt(keys.attempts(userId, device), MFA_OWN_MAX_ATTEMPTS, MFA_OWN_WINDOW_MS)
      : reserveAttempt(keys.attempts(userId), MFA_STRANGER_MAX_ATTEMPTS, MFA_STRANGER_WINDOW_MS);
  }

  async function issuerFor(user: User): Promise<string> {
    const partner = user.partnerId ? await store.partners.findById(user.partnerId) : undefined;
    return partnerDisplayName(
      partner?.name ?? (await store.partners.findForHost(undefined))?.name ?? 'Identity',
      'Identity',
    );
  }

  /** The methods the account has set up, preferred first (the PIN only while the account has an address). */
  async function methodsOf(userId: string, user?: User): Promise<TwoFactorMethod[]> {
    const factor = await store.secondFactors.find(userId);
    if (!factor?.enabled) return [];
    const email = (user ?? (await store.users.findById(userId)))?.email;
    const methods: TwoFactorMethod[] = [];
    if (factor.totpSecretSealed) methods.push('authenticator');
    if (factor.smsPhone) methods.push('sms');
    if (factor.pinEnabled && email) methods.push('pin');
    const preferred = methods.find((m) => m === factor.preferredMethod);
    return preferred ? [preferred, ...methods.filter((m) => m !== preferred)] : methods;
  }

  /** Whether the user's partner offers "remember this browser" (off by default, ADR 0008). */
  async function rememberAllowed(user: User | undefined): Promise<boolean> {
    if (!rememberedBrowsers || !user?.partnerId) return false;
    return (await store.partners.findById(user.partnerId))?.rememberTwoFactorBrowser ?? false;
  }

  return {
    ...deps,
    recentSignInMs: deps.recentSignInMs ?? DEFAULT_RECENT_SIGN_IN_MS,
    delivered,
    reserveAttempt,
    reserveCodeAttempt,
    issuerFor,
    methodsOf,
    rememberAllowed,
  };
}

/** The shared part of the second-factor services. */
export type TwoFactorContext = ReturnType<typeof twoFactorContext>;
