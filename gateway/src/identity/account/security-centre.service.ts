import {
  changeExpiredPasswordRequestSchema,
  isErrorCode,
  parseErrorCode,
  partnerDisplayName,
  resolvePasswordRules,
  type AccountSession,
  type PasswordRules,
  type RememberedBrowser,
  type SecurityCentreView,
  type TwoFactorMethod,
  type TwoStepMethod,
} from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import { randomToken, sha256 } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail, type SecurityChange } from '../../infra/mail/templates.js';
import { readableIp, type SessionIndex } from '../../infra/sessions/session-index.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { setAccountPassword } from '../passwords/account-password.js';
import { sessionNetwork } from './session-network.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';
import type { PartnerService } from '../partners/partner.service.js';
import { verifyPassword } from '../passwords/passwords.service.js';
import { isCommonPassword } from '../recovery/common-passwords.js';
import type { createWebauthnService } from '../passkeys/webauthn.service.js';
import { removeSecondFactorMethod, setPreferredSecondFactor } from '../../store/second-factor-methods.js';

type WebauthnService = ReturnType<typeof createWebauthnService>;

/** How long the link of an e-mail change works (issue 43): one hour, once. */
export const EMAIL_CHANGE_TTL_MS = 60 * 60_000;
const emailChangeKey = (tokenHash: string) => `security-centre:email-change:${tokenHash}`;
const pendingEmailKey = (userId: string) => `security-centre:email-change-pending:${userId}`;

/**
 * E-mail change requests (issue 48, ADR 0043): each one mails an address the caller chose, so they are limited per
 * account and per source address, in fixed one-hour windows (a refused request never lengthens one). A request to
 * a free address and one to a taken address count alike.
 */
export const EMAIL_CHANGE_ACCOUNT_LIMIT = 3;
export const EMAIL_CHANGE_SOURCE_LIMIT = 10;
export const EMAIL_CHANGE_LIMIT_WINDOW_MS = 60 * 60_000;
const emailChangeCounterKey = (scope: 'account' | 'source', id: string) =>
  `security-centre:email-change-${scope}:${sha256(id)}`;

/** Wrong current passwords at the security centre's password change per account and hour (S6). */
export const PASSWORD_CHANGE_ATTEMPT_LIMIT = 10;
const PASSWORD_CHANGE_WINDOW_MS = 60 * 60_000;

/** Dependencies of {@link createSecurityCentreService}. */
export interface SecurityCentreDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  mailer: Mailer;
  partners: Pick<PartnerService, 'forHost'>;
  twoFactor: Pick<
    TwoFactorService,
    'methodsOf' | 'recentFullSignIn' | 'recentSignInMs' | 'regenerateRecoveryCodes'
  >;
  webauthn: Pick<WebauthnService, 'devicesOf' | 'renamePasskey' | 'deletePasskey'>;
  sessionIndex: Pick<SessionIndex, 'sessionsOf' | 'end'>;
  /** The site's public address: the e-mail change link points at its `/account/` page. */
  publicUrl: string;
  /** Ends the account's OIDC sessions and refresh tokens after a password change (S15). */
  revokeOidc?: ((accountId: string) => Promise<unknown>) | undefined;
  onBackgroundError?: (error: unknown) => void;
  /**
   * Ends the account's OIDC sessions made from the given site sessions (store keys), or from all but the given
   * ones, as Logout ends one: back-channel logout to the applications, grants and refresh tokens revoked (S27).
   */
  endOidcSessions?: EndOidcSessionsOf | undefined;
}

/** Which of an account's OIDC sessions to end, by the site sessions (store keys) they were made from. */
export type EndOidcSessionsOf = (
  accountId: string,
  which: { siteSessions: readonly string[] } | { exceptSiteSessions: readonly string[] },
) => Promise<unknown>;

/** Who asks, as the router read it from the request: plain values only. */
export interface SecurityCentreActor {
  user: User;
  /** Epoch seconds of the session's sign-in (OIDC auth_time) and its methods. */
  authTime: number;
  amr: readonly string[];
  /** The session store's key of the asking browser's session (never ended by "sign out other sessions"). */
  sessionKey: string;
  /** The request's host (the partner whose name the mail carries) and language. */
  host: string | undefined;
  locale: string | undefined;
  ip: string | null;
}

/** Field errors with codes, as the 400 errors map carries them (SPEC.md §4). */
export type FieldErrors = Record<string, string[]>;

/** How far a change got. `recentSignInRequired` is answered 403, `notFound` 404, `invalid` 400. */
export type ChangeOutcome<T = undefined> =
  | (T extends undefined ? { kind: 'done' } : { kind: 'done'; value: T })
  | { kind: 'recentSignInRequired' }
  | { kind: 'notFound' }
  | { kind: 'throttled'; retryAfterSeconds?: number }
  | { kind: 'invalid'; errors: FieldErrors };

/**
 * A vendor account's answer to a change that would give it a credential of its own (ADR 0041): its password and
 * two-step verification are managed at its provider. 400 like the centre's other refusals of a rule.
 */
const vendorCredentialsOnly = (): { kind: 'invalid'; errors: FieldErrors } => ({
  kind: 'invalid',
  errors: { '': ['vendorCredentialsOnly'] },
});

/** The phone number with all but its last three digits hidden. */
function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `•••• ${digits.slice(-3)}`;
}

/**
 * The security centre (issue 43, ADR 0036): a signed-in person's own two-step methods, passkeys, recovery codes,
 * password, sessions and profile. Reading needs a signed-in session; every change needs a recent full sign-in
 * (S21: the same rule as the 2FA set-up, {@link TwoFactorService.recentFullSignIn}), is audited, and is mailed to
 * the account so a change the owner did not make does not go unnoticed.
 */
export function createSecurityCentreService(deps: SecurityCentreDeps) {
  const { store, clock } = deps;
  const now = () => clock.now();

  async function isRecent(actor: SecurityCentreActor): Promise<boolean> {
    return deps.twoFactor.recentFullSignIn(actor.user.id, actor.authTime, actor.amr);
  }

  async function twoStepRequired(user: User): Promise<boolean> {
    if (user.requiresTwoFactor) return true;
    if (!user.partnerId) return false;
    return (await store.partners.findById(user.partnerId))?.requireTwoFactor ?? false;
  }

  async function rulesOf(user: User, host: string | undefined): Promise<PasswordRules> {
    const partnerId = user.partnerId ?? (await deps.partners.forHost(host))?.id;
    const policy = partnerId ? await store.passwordPolicies.find(partnerId) : undefined;
    return resolvePasswordRules(policy?.rules);
  }

  async function audit(actor: SecurityCentreActor, kind: string, data: Record<string, unknown> = {}) {
    await store.audit.record({ at: now(), kind, userId: actor.user.id, ip: actor.ip, data });
  }

  /** Mails the change to the account; the change stands whatever the mail does (a fault is logged). */
  async function mail(
    actor: SecurityCentreActor,
    change: SecurityChange | 'password',
    to = actor.user.email,
  ) {
    if (!to) return;
    const partner = await deps.partners.forHost(actor.host);
    const common = {
      partnerName: partnerDisplayName(partner?.name, 'Identity'),
      displayName: actor.user.displayName,
      changedAt: now(),
    };
    const rendered =
      change === 'password'
        ? renderMail('password-changed', actor.locale, common)
        : renderMail('security-change', actor.locale, { ...common, change });
    await deps.mailer
      .send({ to, subject: rendered.subject, text: rendered.text, html: rendered.html })
      .catch((error: unknown) => deps.onBackgroundError?.(error));
  }

  /** Runs a change: recent sign-in first, then the change, then the audit and the mail when it was done. */
  async function change<T>(
    actor: SecurityCentreActor,
    run: () => Promise<ChangeOutcome<T>>,
    record: { kind: string; mail: SecurityChange | 'password' | undefined; data?: Record<string, unknown> },
  ): Promise<ChangeOutcome<T>> {
    if (!(await isRecent(actor))) return { kind: 'recentSignInRequired' };
    const outcome = await run();
    if (outcome.kind === 'done') {
      await audit(actor, record.kind, record.data);
      if (record.mail) await mail(actor, record.mail);
    }
    return outcome;
  }

  /** The address is free for this account: nobody else signs in with it (as username or e-mail). */
  async function available(user: User, email: string): Promise<boolean> {
    const holder = await store.users.findByLogin(email);
    return !holder || holder.id === user.id;
  }

  /**
   * Counts one e-mail change request against the account's and the source's hourly budgets; the refusal (with the
   * seconds until the fuller window ends) when either is spent, else undefined.
   */
  async function emailChangeLimited(actor: SecurityCentreActor): Promise<ChangeOutcome | undefined> {
    const source = readableIp(actor.ip);
    const budgets: [string, number][] = [
      [emailChangeCounterKey('account', actor.user.id), EMAIL_CHANGE_ACCOUNT_LIMIT],
    ];
    if (source) budgets.push([emailChangeCounterKey('source', source), EMAIL_CHANGE_SOURCE_LIMIT]);
    for (const [key, limit] of budgets) {
      const count = await deps.kv.increment(key, EMAIL_CHANGE_LIMIT_WINDOW_MS, 'fixed');
      // The window's start, kept beside the counter, says how long the refusal lasts (Retry-After).
      if (count === 1) await deps.kv.set(`${key}:since`, String(now()), EMAIL_CHANGE_LIMIT_WINDOW_MS);
      if (count <= limit) continue;
      const since = Number((await deps.kv.get(`${key}:since`)) ?? now());
      const leftMs = Math.min(EMAIL_CHANGE_LIMIT_WINDOW_MS, since + EMAIL_CHANGE_LIMIT_WINDOW_MS - now());
      return { kind: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
    }
    return undefined;
  }

  /** The new address waiting for its link to be opened, if any. */
  async function pendingEmailOf(user: User): Promise<string | null> {
    const raw = await deps.kv.get(pendingEmailKey(user.id));
    return raw ? (JSON.parse(raw) as { email: string }).email : null;
  }

  async function twoStepMethods(user: User): Promise<TwoStepMethod[]> {
    const methods = await deps.twoFactor.methodsOf(user.id, user);
    const factor = await store.secondFactors.find(user.id);
    return methods.map((method, index) => ({
      method,
      // methodsOf puts the preferred method first.
      isDefault: index === 0,
      ...(method === 'sms' && factor?.smsPhone ? { detail: maskPhone(factor.smsPhone) } : {}),
      ...(method === 'pin' && user.email ? { detail: user.email } : {}),
    }));
  }

  /** The browsers remembered for the account's second factor; `current` for an entry this browser holds. */
  async function rememberedBrowsersOf(
    actor: SecurityCentreActor,
    thisBrowser: readonly string[],
  ): Promise<RememberedBrowser[]> {
    const listed = await store.rememberedBrowsers.listForUser(
      actor.user.id,
      sha256(actor.user.securityStamp),
      now(),
    );
    return listed.map((b) => ({
      id: b.handle,
      current: thisBrowser.includes(b.entryKey),
      rememberedAt: b.rememberedAt,
      lastUsedAt: b.lastUsedAt,
      ip: b.ip,
      userAgent: b.userAgent,
    }));
  }

  /**
   * The account's live sessions as the page lists them (ADR 0049): this browser's first, then the others by last
   * activity, newest first (a session's row is touched at most every 30 s, so "newest" is to that grain). Each with
   * its network read coarsely, never the full address, and marked when it shares this browser's network.
   */
  async function sessionsOf(actor: SecurityCentreActor): Promise<AccountSession[]> {
    const listed = await deps.sessionIndex.sessionsOf(actor.user.id, actor.user.securityStamp);
    const read = listed.map((s) => ({
      session: s,
      current: s.sessionKey === actor.sessionKey,
      ...sessionNetwork(s.ip),
    }));
    const currentKey = read.find((s) => s.current)?.key ?? null;
    read.sort((a, b) => Number(b.current) - Number(a.current) || b.session.lastSeenAt - a.session.lastSeenAt);
    return read.map(({ session, current, network, key }) => ({
      id: session.handle,
      current,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      network,
      sameNetworkAsCurrent: !current && currentKey !== null && key === currentKey,
      userAgent: session.userAgent,
    }));
  }

  return {
    /** `SecurityCentreView`: everything the page shows. */
    async view(
      actor: SecurityCentreActor,
      browser: {
        /** Record keys of this browser's "remember this browser" entries for the account that verify. */
        rememberedEntryKeys: readonly string[];
        customerId: string | undefined;
      },
    ): Promise<SecurityCentreView> {
      const { user } = actor;
      const rememberedBrowsers = await rememberedBrowsersOf(actor, browser.rememberedEntryKeys);
      const customer = browser.customerId ? await store.customers.findById(browser.customerId) : undefined;
      return {
        profile: {
          userName: user.username,
          displayName: user.displayName,
          email: user.email ?? null,
          pendingEmail: await pendingEmailOf(user),
        },
        recentSignInUntil: (await isRecent(actor))
          ? actor.authTime * 1000 + deps.twoFactor.recentSignInMs
          : 0,
        twoStep: { methods: await twoStepMethods(user), required: await twoStepRequired(user) },
        passkeys: await deps.webauthn.devicesOf(user.id),
        recoveryCodes: { remaining: await store.recoveryCodes.remaining(user.id) },
        sessions: await sessionsOf(actor),
        browserRemembered: rememberedBrowsers.some((b) => b.current),
        rememberedBrowsers,
        passwordRules: await rulesOf(user, actor.host),
        customer: customer ? { id: customer.id, name: customer.name } : null,
        canSwitchCustomer: (await store.customers.countCustomersOf(user.id)) > 1,
        ...(user.vendorId
          ? {
              vendorAccount: {
                provider: (await store.identityProviders.findById(user.vendorId))?.name ?? user.vendorId,
              },
            }
          : {}),
      };
    },

    /** `RemoveTwoStepMethod`: refused for the last method when two-step verification is required. */
    removeTwoStepMethod(actor: SecurityCentreActor, method: TwoFactorMethod): Promise<ChangeOutcome> {
      return change(
        actor,
        async () => {
          const methods = await deps.twoFactor.methodsOf(actor.user.id, actor.user);
          if (!methods.includes(method)) return { kind: 'notFound' };
          const rest = methods.filter((m) => m !== method);
          if (rest.length === 0 && (await twoStepRequired(actor.user)))
            return { kind: 'invalid', errors: { '': ['lastTwoStepMethodRequired'] } };
          if (rest.length === 0) {
            // No second factor left: the recovery codes that stood in for it go too.
            await store.secondFactors.disable(actor.user.id);
            await store.recoveryCodes.replace(actor.user.id, []);
          } else {
            await removeSecondFactorMethod(store.database.db, actor.user.id, method, rest[0]!, now());
          }
          return { kind: 'done' };
        },
        { kind: 'two-factor.method-removed', mail: 'two-step-removed', data: { method } },
      );
    },

    /** `SetDefaultTwoStepMethod`: the method the sign-in asks for first. */
    setDefaultTwoStepMethod(actor: SecurityCentreActor, method: TwoFactorMethod): Promise<ChangeOutcome> {
      return change(
        actor,
        async () => {
          const methods = await deps.twoFactor.methodsOf(actor.user.id, actor.user);
          if (!methods.includes(method)) return { kind: 'notFound' };
          await setPreferredSecondFactor(store.database.db, actor.user.id, method, now());
          return { kind: 'done' };
        },
        { kind: 'two-factor.default-changed', mail: 'two-step-default', data: { method } },
      );
    },

    /** `RenamePasskey`: the passkey service's one path (audited and mailed there), after the recent sign-in. */
    async renamePasskey(actor: SecurityCentreActor, id: string, name: string): Promise<ChangeOutcome> {
      if (!(await isRecent(actor))) return { kind: 'recentSignInRequired' };
      return (await deps.webauthn.renamePasskey(actor.user, id, name))
        ? { kind: 'done' }
        : { kind: 'notFound' };
    },

    /** `DeletePasskey`: as {@link renamePasskey}. */
    async deletePasskey(actor: SecurityCentreActor, id: string): Promise<ChangeOutcome> {
      if (!(await isRecent(actor))) return { kind: 'recentSignInRequired' };
      return (await deps.webauthn.deletePasskey(actor.user, id)) ? { kind: 'done' } : { kind: 'notFound' };
    },

    /** `RegenerateRecoveryCodes`: a new set (the old one dies), answered once. */
    regenerateRecoveryCodes(actor: SecurityCentreActor): Promise<ChangeOutcome<string[]>> {
      if (actor.user.vendorId) return Promise.resolve(vendorCredentialsOnly());
      return change<string[]>(
        actor,
        async () => {
          const codes = await deps.twoFactor.regenerateRecoveryCodes(actor.user.id, actor.amr);
          return codes ? { kind: 'done', value: codes } : { kind: 'notFound' };
        },
        // two-factor.service records `two-factor.recovery-codes-regenerated` itself, and mails the account the new
        // way in with its browser (`sign-in-method-added`, ADR 0042) in place of the `recovery-codes` notice.
        { kind: 'security-centre.recovery-codes', mail: undefined },
      );
    },

    /**
     * `ChangePassword`: the current password again, a new one that passes the partner's rules and the common list
     * (S1, S2); set the one way there is (`setAccountPassword`), which rotates the security stamp and so ends every
     * other session and the OIDC sessions (S15). Answers the user as changed, with the new stamp, so the router can
     * keep this browser signed in.
     */
    changePassword(actor: SecurityCentreActor, body: unknown): Promise<ChangeOutcome<User>> {
      if (actor.user.vendorId) return Promise.resolve(vendorCredentialsOnly());
      return change<User>(
        actor,
        async () => {
          const { user } = actor;
          if (!user.passwordHash) return { kind: 'invalid', errors: { '': ['localLoginNotAllowed'] } };
          const parsed = changeExpiredPasswordRequestSchema(await rulesOf(user, actor.host)).safeParse(body);
          if (!parsed.success) return { kind: 'invalid', errors: errorsOf(parsed.error.issues) };
          const attempts = await deps.kv.increment(
            `security-centre:password:${user.id}`,
            PASSWORD_CHANGE_WINDOW_MS,
          );
          if (attempts > PASSWORD_CHANGE_ATTEMPT_LIMIT) return { kind: 'throttled' };
          if (!(await verifyPassword(user.passwordHash, parsed.data.currentPassword)))
            return { kind: 'invalid', errors: { currentPassword: ['currentPasswordIncorrect'] } };
          if (isCommonPassword(parsed.data.newPassword))
            return { kind: 'invalid', errors: { newPassword: ['passwordCommon'] } };
          await setAccountPassword(
            { store, now, revokeOidc: deps.revokeOidc },
            user,
            parsed.data.newPassword,
            {
              how: 'changed',
              ip: actor.ip,
            },
          );
          await deps.kv.delete(`security-centre:password:${user.id}`);
          const changed = await store.users.findById(user.id);
          return changed ? { kind: 'done', value: changed } : { kind: 'notFound' };
        },
        // setAccountPassword records `password.changed` itself.
        { kind: 'security-centre.password-changed', mail: 'password' },
      );
    },

    /** `SignOutSession`: ends one of the account's other sessions (its cookie is dead from now on: S27). */
    signOutSession(actor: SecurityCentreActor, handle: string): Promise<ChangeOutcome> {
      return change(
        actor,
        async () => {
          const sessions = await deps.sessionIndex.sessionsOf(actor.user.id, actor.user.securityStamp);
          const target = sessions.find((s) => s.handle === handle);
          if (!target || target.sessionKey === actor.sessionKey) return { kind: 'notFound' };
          await deps.sessionIndex.end(target.sessionKey);
          // Its applications are signed out too: only the OIDC sessions that browser's sign-in made.
          await deps.endOidcSessions?.(actor.user.id, { siteSessions: [target.sessionKey] });
          return { kind: 'done' };
        },
        { kind: 'security-centre.session-signed-out', mail: 'sessions-signed-out', data: { count: 1 } },
      );
    },

    /** `SignOutOtherSessions`: ends every session of the account but this browser's. */
    signOutOtherSessions(actor: SecurityCentreActor): Promise<ChangeOutcome<number>> {
      return change<number>(
        actor,
        async () => {
          const sessions = await deps.sessionIndex.sessionsOf(actor.user.id, actor.user.securityStamp);
          const others = sessions.filter((s) => s.sessionKey !== actor.sessionKey);
          for (const other of others) await deps.sessionIndex.end(other.sessionKey);
          // Every OIDC session of the account but this browser's ends with them (back-channel logout).
          await deps.endOidcSessions?.(actor.user.id, { exceptSiteSessions: [actor.sessionKey] });
          return { kind: 'done', value: others.length };
        },
        { kind: 'security-centre.sessions-signed-out', mail: 'sessions-signed-out' },
      );
    },

    /**
     * `ForgetRememberedBrowser`: the browser asks for the second factor at its next sign-in. Its cookie entry still
     * carries a valid MAC; the record it needs is gone (ADR 0036).
     */
    forgetRememberedBrowser(actor: SecurityCentreActor, handle: string): Promise<ChangeOutcome> {
      return change(
        actor,
        async () =>
          (await store.rememberedBrowsers.removeByHandle(actor.user.id, handle))
            ? { kind: 'done' }
            : { kind: 'notFound' },
        { kind: 'security-centre.remembered-browser-forgotten', mail: 'remembered-browser-forgotten' },
      );
    },

    /** `ForgetAllRememberedBrowsers`: every remembered browser of the account, this one included. */
    forgetAllRememberedBrowsers(actor: SecurityCentreActor): Promise<ChangeOutcome<number>> {
      return change<number>(
        actor,
        async () => ({ kind: 'done', value: await store.rememberedBrowsers.removeAllOf(actor.user.id) }),
        { kind: 'security-centre.remembered-browsers-forgotten', mail: 'remembered-browsers-forgotten' },
      );
    },

    /**
     * `RequestEmailChange`: mails a link to the NEW address (single use, {@link EMAIL_CHANGE_TTL_MS}, stored only as
     * a hash); the address changes only when the link is opened. Refused when it is the address already. Limited
     * per account ({@link EMAIL_CHANGE_ACCOUNT_LIMIT}) and per source ({@link EMAIL_CHANGE_SOURCE_LIMIT}) an hour:
     * 429 + Retry-After (S6). A newer request replaces the older one: only the latest link works.
     *
     * Whether another account uses the address is not said (issue 48, S10): the answer, the waiting address the
     * view shows and the work done are the same; a taken address gets a notice without a link instead of the link
     * (its holder learns that someone tried, nothing changed). Neither mail carries text the caller chose (no
     * display name): it goes to an address nobody has confirmed yet.
     */
    requestEmailChange(actor: SecurityCentreActor, email: string): Promise<ChangeOutcome> {
      if (actor.user.vendorId) return Promise.resolve(vendorCredentialsOnly());
      return change(
        actor,
        async () => {
          const { user } = actor;
          if (user.email && user.email.toLowerCase() === email.toLowerCase())
            return { kind: 'invalid', errors: { email: ['emailUnchanged'] } };
          const limited = await emailChangeLimited(actor);
          if (limited) return limited;
          const free = await available(user, email);
          const previous = await deps.kv.get(pendingEmailKey(user.id));
          if (previous)
            await deps.kv.delete(emailChangeKey((JSON.parse(previous) as { tokenHash: string }).tokenHash));
          const token = randomToken(32);
          const tokenHash = sha256(token);
          // Stored for a taken address too (its link is never mailed): the same writes, the same waiting address,
          // and a confirmation in a race still finds the address taken (confirmEmailChange checks again).
          await deps.kv.set(
            emailChangeKey(tokenHash),
            // The expiry is also kept in the value and checked against the service's clock: a store's own TTL
            // (Redis's) runs on its clock, which tests cannot move and a replica's clock may not match.
            JSON.stringify({ userId: user.id, email, expiresAt: now() + EMAIL_CHANGE_TTL_MS }),
            EMAIL_CHANGE_TTL_MS,
          );
          await deps.kv.set(
            pendingEmailKey(user.id),
            JSON.stringify({ email, tokenHash }),
            EMAIL_CHANGE_TTL_MS,
          );
          const link = new URL('/account/', deps.publicUrl);
          link.searchParams.set('confirmEmail', token);
          const partner = await deps.partners.forHost(actor.host);
          // Only our words: the partner's name, never the caller's display name (issue 48).
          const common = { partnerName: partnerDisplayName(partner?.name, 'Identity') };
          const rendered = free
            ? renderMail('email-change', actor.locale, {
                ...common,
                link: link.href,
                expiresInMinutes: EMAIL_CHANGE_TTL_MS / 60_000,
              })
            : renderMail('email-change-taken', actor.locale, common);
          await deps.mailer
            .send({ to: email, subject: rendered.subject, text: rendered.text, html: rendered.html })
            .catch((error: unknown) => deps.onBackgroundError?.(error));
          return { kind: 'done' };
        },
        // The old address hears of it when the change happens, not before (the request alone changes nothing).
        { kind: 'security-centre.email-change-requested', mail: undefined },
      );
    },

    /**
     * `ConfirmEmailChange`: the mailed link, opened while signed in as the account that asked (ADR 0036). Takes
     * the token once; the address must still be free. The old address gets a notice.
     */
    async confirmEmailChange(actor: SecurityCentreActor, token: string): Promise<ChangeOutcome<string>> {
      const { user } = actor;
      if (user.vendorId) return vendorCredentialsOnly();
      const invalid: ChangeOutcome<string> = {
        kind: 'invalid',
        errors: { token: ['emailChangeLinkInvalid'] },
      };
      const key = emailChangeKey(sha256(token));
      const waiting = await deps.kv.get(key);
      if (!waiting || (JSON.parse(waiting) as { userId: string }).userId !== user.id) return invalid;
      const taken = await deps.kv.take(key);
      if (!taken) return invalid;
      const { email, expiresAt } = JSON.parse(taken) as { email: string; expiresAt: number };
      if (!(now() < expiresAt)) return invalid;
      await deps.kv.delete(pendingEmailKey(user.id));
      if (!(await available(user, email)))
        return { kind: 'invalid', errors: { email: ['emailNotAvailable'] } };
      await store.users.update(user.id, { email });
      await audit(actor, 'security-centre.email-changed');
      await mail(actor, 'email-changed', user.email);
      return { kind: 'done', value: email };
    },

    /** `UpdateProfile`: the display name. */
    updateProfile(actor: SecurityCentreActor, displayName: string): Promise<ChangeOutcome> {
      return change(
        actor,
        async () => {
          await store.users.update(actor.user.id, { displayName });
          return { kind: 'done' };
        },
        { kind: 'security-centre.profile-updated', mail: 'profile-updated' },
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

/** The security centre's service. */
export type SecurityCentreService = ReturnType<typeof createSecurityCentreService>;
