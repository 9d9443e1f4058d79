import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { AuditEvent } from '../../store/audit.repository.js';
import type { User } from '../../store/user.repository.js';
import type { Browser } from '../browser.js';
import { StepId, type PassedMark } from './sign-in-step.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import type { SignInWalk } from './sign-in-walk.js';

/** An upstream sign-in whose identity is linked to `user` (ADR 0018). */
export interface ExternalSignIn {
  returnUrl: string;
  ip: string;
  providerId: string;
  issuer: string;
  /** The methods the upstream reported (`amr`), recorded; `fed` is what the local session says. */
  upstreamAmr: string[];
  /** The partner trusts the upstream's second factor and the upstream reported one: the local 2FA step is passed. */
  secondFactorByUpstream: boolean;
  idToken: string;
  /**
   * The ID token's `auth_time` (epoch seconds): when the upstream last authenticated the person, which may be long
   * before this answer when the upstream reused its own session. Absent when the upstream did not say.
   */
  upstreamAuthTime?: number | undefined;
}

/**
 * When an upstream sign-in proved its credential (ADR 0005): the upstream's own `auth_time` when it gave one, never
 * later than now; without one, now — the upstream answered this browser's own authorization request (state, nonce,
 * PKCE, ≤ 10 minutes, S35) and the partner chose to trust it as a first factor; OIDC makes `auth_time` optional
 * unless asked for, so the answer itself is the only time there is.
 */
export function upstreamProvedAt(upstreamAuthTime: number | undefined, now: number): number {
  if (upstreamAuthTime === undefined || !Number.isFinite(upstreamAuthTime)) return now;
  return Math.min(upstreamAuthTime * 1000, now);
}

/** An upstream sign-in (ADR 0018) as the first factor, and as the second when the partner trusts it. */
export function externalEntry(ctx: SignInContext, walk: Pick<SignInWalk, 'begin'>) {
  const { clock } = ctx;
  const { begin } = walk;

  /**
   * An upstream sign-in (ADR 0018): the upstream's ID token, already validated, named an identity linked to `user`
   * by (issuer, subject). The upstream stands for the password (amr `fed`); the local steps still apply — the second
   * factor too, unless the provider's partner trusts the upstream's and the upstream reported one. The session id
   * is replaced (S24).
   */
  async function externalSignIn(
    browser: Browser,
    session: Session,
    user: User,
    input: ExternalSignIn,
  ): Promise<SignInOutcome> {
    if (user.disabled) return { kind: 'invalidCredentials' };
    const passed: AuditEvent = {
      at: clock.now(),
      kind: 'sign-in.external',
      userId: user.id,
      ip: input.ip,
      data: { provider: input.providerId, issuer: input.issuer, upstreamAmr: input.upstreamAmr },
    };
    const pending: PendingSignIn = {
      userId: user.id,
      returnUrl: input.returnUrl,
      rememberMe: false,
      amr: input.secondFactorByUpstream ? ['fed', 'mfa'] : ['fed'],
      // "password" stands for the first factor; the local password was not used, so its expiry does not apply.
      passed: [
        'password',
        StepId.expiredPassword,
        ...(input.secondFactorByUpstream ? [StepId.twoFactor, StepId.twoFactorSetup] : []),
      ] satisfies PassedMark[],
      current: undefined,
      startedAt: clock.now(),
      provedAt: upstreamProvedAt(input.upstreamAuthTime, clock.now()),
      upstream: { providerId: input.providerId, idToken: input.idToken },
    };
    return begin(browser, session, user, pending, passed);
  }

  return { externalSignIn };
}
