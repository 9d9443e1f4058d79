import { partnerDisplayName } from 'shared-contracts';
import type { Clock } from '../../../infra/clock.js';
import type { KeyValueStore } from '../../../infra/kv/key-value-store.js';
import type { Mailer } from '../../../infra/mail/mailer.js';
import { renderMail, type SecurityChange } from '../../../infra/mail/templates.js';
import type { SessionIndex } from '../../../infra/sessions/session-index.js';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import type { TwoFactorService } from '../../two-factor/two-factor.service.js';
import type { PartnerService } from '../../partners/partner.service.js';
import type { WebauthnService } from '../../passkeys/webauthn.service.js';

/** The one options object of `createSecurityCentreService`; each area takes the parts it needs from it. */
export interface SecurityCentreOptions {
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

/** What a change writes once it is done: its audit entry and, when the account is told, the mail. */
export interface ChangeRecord {
  kind: string;
  mail: SecurityChange | 'password' | undefined;
  data?: Record<string, unknown>;
}

/** What every area of the centre shares: the clock, the recent-sign-in rule, the audit trail and the mail. */
export interface SecurityCentreContext {
  now: () => number;
  /** S21: a recent full sign-in ({@link TwoFactorService.recentFullSignIn}). */
  isRecent(actor: SecurityCentreActor): Promise<boolean>;
  /** Epoch ms until which changes need no new sign-in; 0 when one is needed now. */
  recentSignInUntil(actor: SecurityCentreActor): Promise<number>;
  audit(actor: SecurityCentreActor, kind: string, data?: Record<string, unknown>): Promise<void>;
  /** Mails the change to the account; the change stands whatever the mail does (a fault is reported). */
  mail(actor: SecurityCentreActor, change: SecurityChange | 'password', to?: string | null): Promise<void>;
  /** Runs a change: recent sign-in first, then the change, then the audit and the mail when it was done. */
  change<T>(
    actor: SecurityCentreActor,
    run: () => Promise<ChangeOutcome<T>>,
    record: ChangeRecord,
  ): Promise<ChangeOutcome<T>>;
}

/** The shared part of the centre, built from the options it reads. */
export function securityCentreContext(
  options: Pick<
    SecurityCentreOptions,
    'store' | 'clock' | 'mailer' | 'partners' | 'twoFactor' | 'onBackgroundError'
  >,
): SecurityCentreContext {
  const { store, clock, mailer, partners, twoFactor, onBackgroundError } = options;
  const now = () => clock.now();

  const isRecent = (actor: SecurityCentreActor) =>
    twoFactor.recentFullSignIn(actor.user.id, actor.authTime, actor.amr);

  async function audit(actor: SecurityCentreActor, kind: string, data: Record<string, unknown> = {}) {
    await store.audit.record({ at: now(), kind, userId: actor.user.id, ip: actor.ip, data });
  }

  async function mail(
    actor: SecurityCentreActor,
    change: SecurityChange | 'password',
    to: string | null = actor.user.email,
  ) {
    if (!to) return;
    const partner = await partners.forHost(actor.host);
    const common = {
      partnerName: partnerDisplayName(partner?.name, 'Identity'),
      displayName: actor.user.displayName,
      changedAt: now(),
    };
    const rendered =
      change === 'password'
        ? renderMail('password-changed', actor.locale, common)
        : renderMail('security-change', actor.locale, { ...common, change });
    await mailer
      .send({ to, subject: rendered.subject, text: rendered.text, html: rendered.html })
      .catch((error: unknown) => onBackgroundError?.(error));
  }

  return {
    now,
    isRecent,
    async recentSignInUntil(actor) {
      return (await isRecent(actor)) ? actor.authTime * 1000 + twoFactor.recentSignInMs : 0;
    },
    audit,
    mail,
    async change(actor, run, record) {
      if (!(await isRecent(actor))) return { kind: 'recentSignInRequired' };
      const outcome = await run();
      if (outcome.kind === 'done') {
        await audit(actor, record.kind, record.data);
        if (record.mail) await mail(actor, record.mail);
      }
      return outcome;
    },
  };
}
