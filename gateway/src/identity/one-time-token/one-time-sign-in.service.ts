import { OTT_CODE_LENGTH, OTT_LOGIN_PATH, OTT_TTL_MINUTES, partnerDisplayName } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import { hmac, randomToken, safeEqual, sha256 } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail } from '../../infra/mail/templates.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { Browser } from '../browser.js';
import type { KnownDevices } from '../../infra/throttle/known-devices.js';
import { ThrottleUnavailableError, type LoginThrottle } from '../../infra/throttle/login-throttle.js';
import type { OneTimeSignInRecord } from '../../store/one-time-token.repository.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { randomDigits } from '../two-factor/delivered-codes.js';
import type { PartnerService } from '../partners/partner.service.js';
import type { ReturnUrls } from '../applications/return-urls.service.js';
import type { SignInOutcome, SignInService } from '../sign-in/sign-in.service.js';

/** A one-time sign-in token (code and link) lives this long (issue 15: ≤ 10 min). */
export const OTT_TTL_MS = OTT_TTL_MINUTES * 60_000;
/** Link tokens: 32 bytes from the CSPRNG = 256 bits (issue 15 asks for ≥ 128). */
export const OTT_LINK_BYTES = 32;
/** Wrong codes a token takes before it is dead (with 6 digits: 5 in 10^6 to guess it, bound to one browser). */
export const OTT_CODE_ATTEMPTS = 5;
/** How often `SendOTP` may mail, per source address and per account, in {@link OTT_REQUEST_WINDOW_MS} (S6). */
export const OTT_REQUEST_LIMITS = { perSource: 20, perAccount: 5 } as const;
/** The window of the `SendOTP` counters. */
export const OTT_REQUEST_WINDOW_MS = 60 * 60_000;
/** The longest an administrator may make a CLI-issued link live: the same bound as a mailed one. */
export const OTT_MAX_MINUTES = OTT_TTL_MINUTES;

// Mail work of `SendOTP` still running after its answer went out, across every service instance of the process.
const inFlight = new Set<Promise<void>>();

/** Resolves when the mail work of earlier `SendOTP` calls has finished (tests). */
export async function oneTimeTokenMailsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/** The mailed link of a sign-in token: PUBLIC_URL's origin only, never the request's Host (S13). */
export function oneTimeSignInLink(publicUrl: string, token: string): string {
  const link = new URL(OTT_LOGIN_PATH, publicUrl);
  link.searchParams.set('token', token);
  return link.toString();
}

/**
 * Issues a link-only sign-in token for `user` that any browser may use once within `minutes` (the admin CLI's
 * `ott issue`, for support handing a link to the user: ADR 0019). It replaces the account's older unbound links
 * and leaves the tokens browsers asked for alone. Returns the link.
 */
export async function issueUnboundSignInLink(
  store: Pick<Store, 'oneTimeTokens' | 'audit'>,
  input: { user: User; minutes: number; publicUrl: string; now: number },
): Promise<{ link: string; expiresAt: number }> {
  if (!Number.isInteger(input.minutes) || input.minutes < 1 || input.minutes > OTT_MAX_MINUTES)
    throw new RangeError(`minutes must be a whole number from 1 to ${OTT_MAX_MINUTES}`);
  const token = randomToken(OTT_LINK_BYTES);
  const record = await store.oneTimeTokens.issueSignIn({
    userId: input.user.id,
    tokenHash: sha256(token),
    codeHash: null,
    bindingHash: null,
    ttlMs: input.minutes * 60_000,
    data: {},
  });
  await store.audit.record({
    at: input.now,
    kind: 'sign-in.ott-issued',
    userId: input.user.id,
    ip: null,
    data: { by: 'admin-cli', minutes: input.minutes },
  });
  return { link: oneTimeSignInLink(input.publicUrl, token), expiresAt: record.expiresAt };
}

/** Dependencies of {@link createOneTimeSignInService}. */
export interface OneTimeSignInDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  mailer: Mailer;
  partners: PartnerService;
  returnUrls: ReturnUrls;
  signIn: SignInService;
  throttle: LoginThrottle;
  knownDevices?: KnownDevices | undefined;
  /** PUBLIC_URL: the only origin a mailed link may carry (S13). */
  publicUrl: string;
  /** SECRET_KEY: the keyed hashes of the typed code and of the browser binding are made with it. */
  secretKey: Buffer;
  /** Where faults of work done after the answer go (the mail of `SendOTP`). */
  onBackgroundError?: ((error: unknown) => void) | undefined;
}

/** Outcome of `SendOTP` on the one-time-token page: never depends on whether the account exists (S10). */
export type OttRequestOutcome = { kind: 'accepted' } | { kind: 'throttled' } | { kind: 'unavailable' };

/** Outcome of `LoginWithOTT`: the sign-in's next step, or why not. */
export type OttSignInOutcome =
  | SignInOutcome
  /** The typed code is wrong, used, expired, spent by wrong guesses, or not this browser's. */
  | { kind: 'invalidCode' }
  /** The link's token is unknown, used or expired. */
  | { kind: 'linkInvalid' }
  /** The link is live but bound to another browser (it stays usable there). */
  | { kind: 'otherBrowser' };

/**
 * One-time-token sign-in (issue 15, ADR 0019): `SendOTP` mails a 6-digit code and a 256-bit link, both one use,
 * ≤ 10 minutes, kept as keyed hashes, bound to the browser (session) that asked; `LoginWithOTT` signs in with
 * either and goes on through the sign-in state machine, so the second factor and every later step still apply.
 */
export function createOneTimeSignInService(deps: OneTimeSignInDeps) {
  const { store, kv, clock } = deps;

  /** The browser binding of a session: keyed, so the stored value leads back to no session id. */
  const bindingOf = (session: Session) => hmac(deps.secretKey, 'ott-binding', session.id);
  /** The stored form of a typed code: keyed (a stolen table alone cannot try the 10^6 codes) and per token. */
  const codeHashOf = (tokenHash: string, code: string) => hmac(deps.secretKey, 'ott-code', tokenHash, code);

  /** Counts one event under `key`; true while within `limit`. Store errors propagate (callers fail closed: S8). */
  async function within(key: string, limit: number): Promise<boolean> {
    return (await kv.increment(key, OTT_REQUEST_WINDOW_MS)) <= limit;
  }

  /** The account's part of `SendOTP`, run after the answer went out so nothing of it shows in the answer (S10, S11). */
  async function mailToken(input: {
    login: string;
    bindingHash: string;
    returnUrl: string | undefined;
    host: string | undefined;
    locale: string | undefined;
    ip: string;
  }) {
    const user = await store.users.findByLogin(input.login);
    // A vendor account signs in through its provider only (ADR 0041); the answer is the same (S10).
    if (!user || user.disabled || !user.email || user.vendorId) return;
    if (!(await within(`ott:account:${user.id}`, OTT_REQUEST_LIMITS.perAccount))) return;
    const token = randomToken(OTT_LINK_BYTES);
    const code = randomDigits(OTT_CODE_LENGTH);
    const tokenHash = sha256(token);
    await store.oneTimeTokens.issueSignIn({
      userId: user.id,
      tokenHash,
      codeHash: codeHashOf(tokenHash, code),
      bindingHash: input.bindingHash,
      ttlMs: OTT_TTL_MS,
      data: input.returnUrl ? { returnUrl: input.returnUrl } : {},
    });
    const partner = await deps.partners.forHost(input.host);
    const mail = renderMail('one-time-token', input.locale, {
      partnerName: partnerDisplayName(partner?.name, 'Identity'),
      displayName: user.displayName,
      code,
      link: oneTimeSignInLink(deps.publicUrl, token),
      expiresInMinutes: OTT_TTL_MINUTES,
    });
    await deps.mailer.send({ to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
    await store.audit.record({
      at: clock.now(),
      kind: 'sign-in.ott-mailed',
      userId: user.id,
      ip: input.ip,
      data: {},
    });
  }

  /** The sign-in's returnUrl: the page's, else the one SendOTP was given, checked again either way (S31). */
  async function returnUrlFor(given: string | undefined, record: OneTimeSignInRecord): Promise<string> {
    const stored = typeof record.data.returnUrl === 'string' ? record.data.returnUrl : undefined;
    return deps.returnUrls.safe(given ?? stored ?? '/');
  }

  return {
    /**
     * `SendOTP` with a username: the same answer, status, body, headers and timing whether the account exists (S10,
     * S11), as `Recover` does. Only the per-source counter runs before the answer; looking the account up, its own
     * counter, the token and the mail happen after the answer has gone.
     */
    async request(input: {
      login: string;
      session: Session;
      returnUrl: string | undefined;
      host: string | undefined;
      locale: string | undefined;
      ip: string;
    }): Promise<OttRequestOutcome> {
      try {
        if (!(await within(`ott:source:${input.ip}`, OTT_REQUEST_LIMITS.perSource)))
          return { kind: 'throttled' };
      } catch {
        return { kind: 'unavailable' };
      }
      const returnUrl =
        input.returnUrl === undefined ? undefined : await deps.returnUrls.safe(input.returnUrl);
      const job = {
        login: input.login,
        bindingHash: bindingOf(input.session),
        returnUrl,
        host: input.host,
        locale: input.locale,
        ip: input.ip,
      };
      // Started on a later turn of the event loop: SQLite answers synchronously, so work started now would run
      // before this answer is written and show in its timing.
      const work = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => mailToken(job))
        .catch((error: unknown) => deps.onBackgroundError?.(error))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
      return { kind: 'accepted' };
    },

    /**
     * `LoginWithOTT`: the typed code (looked up by this browser's binding, so another browser's code is never
     * found) or the link's token (refused in another browser unless the CLI issued it). Every attempt reserves its
     * place in the sign-in throttle first (S6, one budget with the password per account), a code is compared after
     * an atomic per-token count, and the token is used once, atomically. Then the sign-in goes on like a password
     * sign-in: new session id (S24), then the state machine's steps (second factor, …) and the returnUrl.
     */
    async signIn(
      browser: Browser,
      session: Session,
      input: {
        code?: string | undefined;
        token?: string | undefined;
        returnUrl: string | undefined;
        ip: string;
      },
    ): Promise<OttSignInOutcome> {
      const binding = bindingOf(session);
      const byCode = input.code !== undefined && input.code !== '';
      const record = byCode
        ? await store.oneTimeTokens.findLiveSignInByBinding(binding)
        : await store.oneTimeTokens.findLiveSignIn(sha256(input.token ?? ''));
      const user = record ? await store.users.findById(record.userId) : undefined;

      let decision;
      try {
        decision = await deps.throttle.begin({
          // A token that matches nobody is counted on this browser's key: its guesses still meet the source's budget.
          account: user ? `user:${user.id}` : `ott:${binding}`,
          source: input.ip,
          device: user ? deps.knownDevices?.recognise(browser, user) : undefined,
        });
      } catch (error) {
        if (error instanceof ThrottleUnavailableError) return { kind: 'unavailable' };
        throw error;
      }
      if (!decision.allowed) {
        const { retryAfterSeconds, challenge } = decision;
        return challenge
          ? { kind: 'throttled', retryAfterSeconds, challenge }
          : { kind: 'throttled', retryAfterSeconds };
      }

      const refuse = async (
        reason: string,
        outcome: Extract<OttSignInOutcome, { kind: 'invalidCode' | 'linkInvalid' | 'otherBrowser' }>,
      ) => {
        await Promise.all([
          deps.throttle.failed(decision.attempt).catch(() => {
            // The attempt failed anyway; the next one will meet the store error and fail closed.
          }),
          store.audit.record({
            at: clock.now(),
            kind: 'sign-in.failed',
            userId: user?.id ?? null,
            ip: input.ip,
            data: { reason },
          }),
        ]);
        return outcome;
      };

      if (!record || !user || user.disabled || user.vendorId)
        return refuse(
          byCode ? 'ott-code' : 'ott-link',
          byCode ? { kind: 'invalidCode' } : { kind: 'linkInvalid' },
        );
      if (byCode) {
        // Counted before it is compared, so parallel guesses cannot try more than the limit (S5, S6).
        const counted = await store.oneTimeTokens.countAttempt(record.id, OTT_CODE_ATTEMPTS);
        const expected = record.codeHash;
        const right =
          counted && expected !== null && safeEqual(expected, codeHashOf(record.tokenHash, input.code!));
        if (!right) return refuse('ott-code', { kind: 'invalidCode' });
      } else if (record.bindingHash !== null && record.bindingHash !== binding) {
        // Not used up: the link still works in the browser that asked (a mail scanner or a forwarded mail elsewhere
        // cannot spend it, nor sign a stranger's browser in).
        return refuse('ott-other-browser', { kind: 'otherBrowser' });
      }
      if (!(await store.oneTimeTokens.consume(record.id)))
        return refuse(
          byCode ? 'ott-code' : 'ott-link',
          byCode ? { kind: 'invalidCode' } : { kind: 'linkInvalid' },
        );

      try {
        await deps.throttle.succeeded(decision.attempt);
      } catch {
        return { kind: 'unavailable' };
      }
      return deps.signIn.oneTimeTokenSignIn(browser, session, user, {
        returnUrl: await returnUrlFor(input.returnUrl, record),
        ip: input.ip,
        via: byCode ? 'code' : 'link',
      });
    },
  };
}

/** The one-time-token sign-in service. */
export type OneTimeSignInService = ReturnType<typeof createOneTimeSignInService>;
