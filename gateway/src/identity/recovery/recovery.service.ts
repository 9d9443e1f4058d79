import {
  changeExpiredPasswordRequestSchema,
  isErrorCode,
  parseErrorCode,
  partnerDisplayName,
  passwordRulesRequestSchema,
  resetPasswordRequestSchema,
  resolvePasswordRules,
  type PasswordRules,
} from 'shared-contracts';
import type { core } from 'zod';
import type { Clock } from '../../infra/clock.js';
import { randomToken, sha256 } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail } from '../../infra/mail/templates.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { PartnerService } from '../partners/partner.service.js';
import { setAccountPassword, type PasswordChange } from '../passwords/account-password.js';
import { verifyPassword } from '../passwords/passwords.service.js';
import { PENDING_SIGN_IN_MS } from '../sign-in/sign-in-context.js';
import { isCommonPassword } from './common-passwords.js';

/** A reset link lives one hour at most (S12). */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
/** Reset tokens: 32 bytes from the CSPRNG = 256 bits (S12 asks for ≥ 128). */
export const RESET_TOKEN_BYTES = 32;

/** How often `Recover` may be asked, per source address and per account, in {@link RECOVER_WINDOW_MS}. */
export const RECOVER_LIMITS = { perSource: 20, perAccount: 5 } as const;
/** The window of the `Recover` counters and of the dead-link counter. */
export const RECOVER_WINDOW_MS = 60 * 60_000;
/** Dead or guessed links per source in the window before the reset calls refuse (S6: the link path is throttled). */
export const DEAD_LINK_LIMIT = 30;
/** Wrong current passwords on the expired-password page per account in the window (S6). */
export const CHANGE_ATTEMPT_LIMIT = 10;

// Mail work of `Recover` still running after its answer went out, across every service instance of the process.
const inFlight = new Set<Promise<void>>();

/** Resolves when the mail work of earlier `Recover` calls has finished (tests; a graceful shutdown could wait too). */
export async function recoveryMailsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/** Field errors with codes, as the 400 errors map carries them (SPEC.md §4). */
export type FieldErrors = Record<string, string[]>;

/** Dependencies of {@link createRecoveryService}. */
export interface RecoveryDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  mailer: Mailer;
  partners: PartnerService;
  /** PUBLIC_URL: the only origin a mailed link may carry (S13). */
  publicUrl: string;
  /** Ends the account's OIDC sessions and grants with their refresh tokens (S15); absent without a provider. */
  revokeOidc?: ((accountId: string) => Promise<unknown>) | undefined;
  /** Where faults of work done after the answer go (the mail of `Recover`). */
  onBackgroundError?: (error: unknown) => void;
}

/** Outcome of `Recover`: the answer never depends on whether the account exists (S10). */
export type RecoverOutcome = { kind: 'accepted' } | { kind: 'throttled' } | { kind: 'unavailable' };

/** Outcome of `ResetPassword` and of `PasswordRules` with a token. */
export type ResetOutcome =
  | { kind: 'done' }
  | { kind: 'linkExpired' }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'throttled' };

/** Outcome of `ChangeExpiredPassword`. */
export type ChangeOutcome =
  { kind: 'changed' } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'throttled' };

/** Where `PasswordRules` finds the partner whose rules apply. */
export interface RulesContext {
  /** The reset page's token: its account's partner; a dead token is answered `linkExpired`. */
  token?: string | undefined;
  /** The account of a pending or finished sign-in, when there is one. */
  userId?: string | undefined;
  /** The request's host: its partner otherwise. */
  host: string | undefined;
  ip: string;
}

const isCode = (text: string) => {
  const parsed = parseErrorCode(text);
  return 'code' in parsed && isErrorCode(parsed.code);
};

/** Zod issues to the errors map, keeping `code|{values}` messages (the shared password rules' own codes). */
function errorsOf(error: core.$ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    const code = isCode(issue.message) ? issue.message : 'invalidValue';
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}

/**
 * Whether a pending sign-in's own password check still stands for the expired-password step (ADR 0039): it was made
 * within the pending sign-in's lifetime and the password has not changed since (a reset in another tab voids it).
 */
export function passwordStillVerified(user: User, verifiedAt: number | undefined, now: number): boolean {
  if (verifiedAt === undefined) return false;
  const age = now - verifiedAt;
  if (age < 0 || age > PENDING_SIGN_IN_MS) return false;
  return user.passwordChangedAt === null || user.passwordChangedAt <= verifiedAt;
}

/**
 * Recovery and passwords (SPEC.md §7; ADR 0010): recover by e-mail, reset with the mailed link, change an expired
 * password during sign-in, and the partner's password rules. Every new password passes the shared rules and the
 * common-password list (S1, S2) here, whatever the page did.
 */
export function createRecoveryService(deps: RecoveryDeps) {
  const { store, kv, clock } = deps;

  async function rulesOfPartner(partnerId: string | null | undefined): Promise<PasswordRules> {
    const policy = partnerId ? await store.passwordPolicies.find(partnerId) : undefined;
    return resolvePasswordRules(policy?.rules);
  }

  async function rulesOfUser(user: User, host: string | undefined): Promise<PasswordRules> {
    return rulesOfPartner(user.partnerId ?? (await deps.partners.forHost(host))?.id);
  }

  /** Counts one event under `key`; true while within `limit`. Store errors propagate (callers fail closed: S8). */
  async function within(key: string, limit: number): Promise<boolean> {
    return (await kv.increment(key, RECOVER_WINDOW_MS)) <= limit;
  }

  async function deadLinksWithin(ip: string): Promise<boolean> {
    return Number((await kv.get(`recovery:dead-link:${ip}`)) ?? 0) < DEAD_LINK_LIMIT;
  }

  async function countDeadLink(ip: string): Promise<void> {
    await kv.increment(`recovery:dead-link:${ip}`, RECOVER_WINDOW_MS);
  }

  /** A live reset token and its (enabled) account, without using it. */
  async function liveToken(token: string) {
    const record = await store.oneTimeTokens.findLive('password-reset', sha256(token));
    if (!record) return undefined;
    const user = await store.users.findById(record.userId);
    // A vendor account's link is dead like an unknown one's (ADR 0041: it has no local password).
    if (!user || user.disabled || user.vendorId) return undefined;
    return { record, user };
  }

  /** Sets the new password the one way there is (`setAccountPassword`), then sends the "password changed" mail. */
  async function setPassword(
    user: User,
    password: string,
    host: string | undefined,
    locale: string | undefined,
    ip: string,
    how: PasswordChange,
  ) {
    await setAccountPassword({ store, now: () => clock.now(), revokeOidc: deps.revokeOidc }, user, password, {
      how,
      ip,
    });
    if (user.email) {
      const partner = await deps.partners.forHost(host);
      const mail = renderMail('password-changed', locale, {
        partnerName: partnerDisplayName(partner?.name, 'Identity'),
        displayName: user.displayName,
        changedAt: clock.now(),
      });
      // The password has changed whatever the mail does; a mail fault is logged, not the user's problem.
      await deps.mailer
        .send({ to: user.email, subject: mail.subject, text: mail.text, html: mail.html })
        .catch((error: unknown) => deps.onBackgroundError?.(error));
    }
  }

  /** Issues a reset link for the account and mails it to `to` in `locale`, signed with the partner's name. */
  async function mailResetLink(
    user: User,
    to: string,
    partnerName: string | undefined,
    locale: string | undefined,
  ) {
    const token = randomToken(RESET_TOKEN_BYTES);
    await store.oneTimeTokens.issue({
      userId: user.id,
      purpose: 'password-reset',
      tokenHash: sha256(token),
      ttlMs: RESET_TOKEN_TTL_MS,
    });
    // The host of the link is PUBLIC_URL's, never the request's Host or X-Forwarded-Host (S13).
    const link = new URL('/account/reset-password', deps.publicUrl);
    link.searchParams.set('token', token);
    const mail = renderMail('recovery', locale, {
      partnerName: partnerDisplayName(partnerName, 'Identity'),
      displayName: user.displayName,
      link: link.toString(),
      expiresInMinutes: RESET_TOKEN_TTL_MS / 60_000,
    });
    await deps.mailer.send({ to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  /** The account's part of `Recover`, run after the answer went out so nothing of it shows in the answer (S10, S11). */
  async function sendRecoveryMail(
    login: string,
    host: string | undefined,
    locale: string | undefined,
    ip: string,
  ) {
    const user = await store.users.findByLogin(login);
    // A vendor account is not told apart from an unknown login (S10; ADR 0041: no local password).
    if (!user || user.disabled || !user.email || user.vendorId) return;
    if (!(await within(`recovery:account:${user.id}`, RECOVER_LIMITS.perAccount))) return;
    const partner = await deps.partners.forHost(host);
    await mailResetLink(user, user.email, partner?.name, locale);
    await store.audit.record({
      at: clock.now(),
      kind: 'password.recovery-mailed',
      userId: user.id,
      ip,
      data: {},
    });
  }

  return {
    /**
     * `Recover`: the same answer, status, body, headers and timing whether the account exists (S10, S11). Only the
     * per-source counter runs before the answer — it is the same for every login; looking the account up, its own
     * counter, the token and the mail happen after the answer has gone.
     */
    async recover(input: {
      login: string;
      host: string | undefined;
      locale: string | undefined;
      ip: string;
    }): Promise<RecoverOutcome> {
      try {
        if (!(await within(`recovery:source:${input.ip}`, RECOVER_LIMITS.perSource)))
          return { kind: 'throttled' };
      } catch {
        return { kind: 'unavailable' };
      }
      // Started on a later turn of the event loop: SQLite answers synchronously, so work started now would run
      // before this answer is written and show in its timing.
      const job = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => sendRecoveryMail(input.login, input.host, input.locale, input.ip))
        .catch((error: unknown) => deps.onBackgroundError?.(error))
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      return { kind: 'accepted' };
    },

    /**
     * The console's "send a password reset link" (issue 52): the mail `Recover` sends, to the account's own address,
     * in its partner's name and `locale`; nobody sets another person's password. False when the account has no
     * e-mail address, is disabled or is a vendor account (no local password).
     */
    async sendResetLinkTo(user: User, locale: string | undefined): Promise<boolean> {
      if (!user.email || user.disabled || user.vendorId) return false;
      const partner = user.partnerId ? await store.partners.findById(user.partnerId) : undefined;
      await mailResetLink(user, user.email, partner?.name, locale);
      return true;
    },

    /** `PasswordRules`: the rules of the token's, the signing-in user's, or the host's partner. */
    async passwordRules(
      context: RulesContext,
    ): Promise<{ kind: 'rules'; rules: PasswordRules } | { kind: 'linkExpired' } | { kind: 'throttled' }> {
      if (context.token !== undefined) {
        if (!(await deadLinksWithin(context.ip))) return { kind: 'throttled' };
        const live = await liveToken(context.token);
        if (!live) {
          await countDeadLink(context.ip);
          return { kind: 'linkExpired' };
        }
        return { kind: 'rules', rules: await rulesOfUser(live.user, context.host) };
      }
      const user = context.userId ? await store.users.findById(context.userId) : undefined;
      if (user) return { kind: 'rules', rules: await rulesOfUser(user, context.host) };
      return { kind: 'rules', rules: await rulesOfPartner((await deps.partners.forHost(context.host))?.id) };
    },

    /** The body schema of `PasswordRules` (the token is optional). */
    passwordRulesRequest: passwordRulesRequestSchema,

    /**
     * `ResetPassword`: the link must be live (else `linkExpired`), the password must pass the rules and the list;
     * only then is the token used — once, atomically (S12) — so a refused password does not burn the link. The
     * browser is not signed in (S14).
     */
    async resetPassword(
      body: unknown,
      context: { host: string | undefined; locale: string | undefined; ip: string },
    ): Promise<ResetOutcome> {
      const token = (body as { token?: unknown } | null | undefined)?.token;
      if (typeof token !== 'string' || token.length === 0 || token.length > 256)
        return { kind: 'invalid', errors: { token: ['required'] } };
      if (!(await deadLinksWithin(context.ip))) return { kind: 'throttled' };
      const live = await liveToken(token);
      if (!live) {
        await countDeadLink(context.ip);
        return { kind: 'linkExpired' };
      }
      const parsed = resetPasswordRequestSchema(await rulesOfUser(live.user, context.host)).safeParse(body);
      if (!parsed.success) return { kind: 'invalid', errors: errorsOf(parsed.error) };
      if (isCommonPassword(parsed.data.newPassword))
        return { kind: 'invalid', errors: { newPassword: ['passwordCommon'] } };
      if (!(await store.oneTimeTokens.consume(live.record.id))) return { kind: 'linkExpired' };
      await setPassword(
        live.user,
        parsed.data.newPassword,
        context.host,
        context.locale,
        context.ip,
        'reset',
      );
      return { kind: 'done' };
    },

    /**
     * `ChangeExpiredPassword` for the account of the pending sign-in: a new password that passes the rules and the
     * list and differs from the current one. The current password is asked again unless `proof` says this very
     * pending sign-in verified it (ADR 0039): then it may be left out — still within the pending sign-in's time and
     * only while the password is the one verified — and "new ≠ old" is checked against the stored hash. A current
     * password that is given is always checked. The caller completes the sign-in step.
     */
    async changeExpiredPassword(
      userId: string,
      body: unknown,
      context: { host: string | undefined; locale: string | undefined; ip: string },
      proof: { passwordVerifiedAt?: number | undefined } = {},
    ): Promise<ChangeOutcome> {
      const user = await store.users.findById(userId);
      if (!user?.passwordHash || user.disabled)
        return { kind: 'invalid', errors: { '': ['stepNotAllowed'] } };
      const verified = passwordStillVerified(user, proof.passwordVerifiedAt, clock.now());
      const parsed = changeExpiredPasswordRequestSchema(await rulesOfUser(user, context.host), {
        currentPassword: verified ? 'verified' : 'required',
      }).safeParse(body);
      if (!parsed.success) return { kind: 'invalid', errors: errorsOf(parsed.error) };
      if (!(await within(`recovery:change:${user.id}`, CHANGE_ATTEMPT_LIMIT))) return { kind: 'throttled' };
      const { currentPassword, newPassword } = parsed.data;
      if (currentPassword.length > 0) {
        if (!(await verifyPassword(user.passwordHash, currentPassword)))
          return { kind: 'invalid', errors: { currentPassword: ['currentPasswordIncorrect'] } };
      } else if (await verifyPassword(user.passwordHash, newPassword)) {
        // Not typed again, so the old password is compared with its hash: the expired one may not come back.
        return { kind: 'invalid', errors: { newPassword: ['passwordMustDiffer'] } };
      }
      if (isCommonPassword(newPassword))
        return { kind: 'invalid', errors: { newPassword: ['passwordCommon'] } };
      await setPassword(user, newPassword, context.host, context.locale, context.ip, 'changed-expired');
      await kv.delete(`recovery:change:${user.id}`);
      return { kind: 'changed' };
    },
  };
}

/** The recovery and password service. */
export type RecoveryService = ReturnType<typeof createRecoveryService>;
