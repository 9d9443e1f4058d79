import { hkdfSync } from 'node:crypto';
import type { Challenge } from 'altcha-lib';
import type { CaptchaAction, CaptchaProvider, CaptchaVersion, VerifyCaptchaRequest } from 'shared-contracts';
import { AltchaChallenges, type AltchaDifficulty } from '../../infra/captcha/altcha-challenges.js';
import { verifyRecaptcha } from '../../infra/captcha/recaptcha-verifier.js';
import type { Clock } from '../../infra/clock.js';
import { sha256 } from '../../infra/crypto/tokens.js';
import type { Browser } from '../browser.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { KnownDevices } from '../../infra/throttle/known-devices.js';
import type { LoginThrottle } from '../../infra/throttle/login-throttle.js';
import type { CaptchaSettings, CaptchaSettingsRepository } from '../../store/captcha-settings.repository.js';
import { defaultCaptchaSettings } from '../../store/captcha-settings.repository.js';
import { normaliseLogin, type UserRepository } from '../../store/user.repository.js';
import type { PartnerService } from '../partners/partner.service.js';
import { cachedValue, type CachedValue } from '../config-cache/ttl-cache.js';
import { findLoginOnce } from '../sign-in/login-lookup.js';

/** A solved challenge lets one call of its action through within this time. */
export const CAPTCHA_PASS_TTL_MS = 2 * 60_000;
/** A verified token is remembered this long, so it cannot be handed in twice (longer than any token lives). */
const USED_TOKEN_TTL_MS = 10 * 60_000;

/**
 * When "on risk" asks for a challenge (ADR 0014). Sign-in and linking read the sign-in throttle's counters: the
 * failures of this account from this source (or known device), and strangers' failures on the account and from
 * the source. Recover and SendOTP count their own requests per source. Past the "high" marks the work grows.
 */
export const CAPTCHA_RISK = {
  ownFailures: 3,
  accountFailures: 10,
  sourceFailures: 25,
  highOwnFailures: 6,
  highSharedFailures: 50,
  /** Recover / SendOTP requests per source answered without a challenge in the window. */
  freeRequests: 10,
  highRequests: 30,
  requestWindowMs: 3_600_000,
} as const;

const VERSION_OF: Record<CaptchaSettings['provider'], CaptchaVersion | undefined> = {
  altcha: 1,
  'recaptcha-v2': 2,
  'recaptcha-v3': 3,
  off: undefined,
};

/** Google's origins a page needs for reCAPTCHA (https://developers.google.com/recaptcha/docs/faq#csp). */
export const RECAPTCHA_CSP = {
  script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  connect: ['https://www.google.com/recaptcha/'],
} as const;

/** Who asks: the request (known-device cookie), its host (the partner), source address and session. */
export interface CaptchaContext {
  /** The caller's browser (its known-device cookie; the per-request account lookup keys on it). */
  browser: Pick<Browser, 'cookie'>;
  host: string;
  ip: string;
  sessionId: string;
}

/** The decision for one guarded call. */
export interface CaptchaAssessment {
  required: boolean;
  difficulty: AltchaDifficulty;
}

/** Outcome of {@link CaptchaService.verify}. */
export type CaptchaVerifyOutcome = { ok: true } | { ok: false; reason: string };

/** What {@link CaptchaService} is built from. */
export interface CaptchaServiceDeps {
  users: Pick<UserRepository, 'findByLogin'>;
  settings: Pick<CaptchaSettingsRepository, 'find' | 'onChange'>;
  partners: Pick<PartnerService, 'forHost' | 'peekForHost'>;
  kv: KeyValueStore;
  throttle: LoginThrottle;
  clock: Clock;
  knownDevices?: KnownDevices | undefined;
  /** SECRET_KEY: the ALTCHA signing keys are derived from it (HKDF), so replicas agree without a new secret. */
  secretKey: Buffer;
  /** Google's siteverify, or a local stand-in (tests). */
  recaptchaVerifyUrl: string;
  /**
   * Settings for partners without a row of their own (default: the proof-of-work on risk). Suites that prove the
   * throttle alone set `when: 'never'`; the captcha suite proves what stands in front of it.
   */
  fallback?: Partial<Pick<CaptchaSettings, 'provider' | 'when'>> | undefined;
}

function derive(secretKey: Buffer, label: string): string {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), label, 32)).toString('hex');
}

/**
 * The captcha (SPEC.md §4 "Captcha", §7 VerifyCaptcha, S9): decides per partner whether a guarded call needs a
 * challenge (always, never, or on risk from the throttle's counters), issues proof-of-work challenges, verifies
 * tokens of the partner's provider once each, and turns a verified token into a pass for one call of the action
 * in the session it was solved in.
 */
export class CaptchaService {
  private readonly altcha: AltchaChallenges;
  private readonly cache = new Map<string, CachedValue<CaptchaSettings>>();

  constructor(private readonly deps: CaptchaServiceDeps) {
    this.altcha = new AltchaChallenges(
      {
        signature: derive(deps.secretKey, 'altcha-challenge-signature'),
        keySignature: derive(deps.secretKey, 'altcha-key-signature'),
      },
      deps.clock,
    );
    deps.settings.onChange(() => this.cache.clear());
  }

  /** The captcha settings of the host's partner (kept in process a few seconds, like the partner list). */
  async settingsFor(host: string): Promise<CaptchaSettings> {
    const partnerId = (await this.deps.partners.forHost(host))?.id ?? '';
    if (!partnerId) return this.settingsWithoutPartner();
    return this.cachedSettings(partnerId).get();
  }

  /**
   * {@link settingsFor} without a promise while the partner list and the partner's settings are loaded and fresh,
   * else undefined (then `settingsFor` loads them).
   */
  peekSettingsFor(host: string): CaptchaSettings | undefined {
    const found = this.deps.partners.peekForHost(host);
    if (!found) return undefined;
    const partnerId = found.partner?.id ?? '';
    if (!partnerId) return this.settingsWithoutPartner();
    return this.cachedSettings(partnerId).peek()?.value;
  }

  private settingsWithoutPartner(): CaptchaSettings {
    return { ...defaultCaptchaSettings(''), ...this.deps.fallback };
  }

  private cachedSettings(partnerId: string): CachedValue<CaptchaSettings> {
    let cached = this.cache.get(partnerId);
    if (!cached) {
      const fallback = this.deps.fallback ?? {};
      cached = cachedValue(() => this.deps.settings.find(partnerId, fallback));
      this.cache.set(partnerId, cached);
    }
    return cached;
  }

  /** The provider the sign-in pages show (absent when the partner turned the captcha off). */
  async providerFor(host: string): Promise<CaptchaProvider | undefined> {
    return providerIn(this.peekSettingsFor(host) ?? (await this.settingsFor(host)));
  }

  /** True when the host's partner uses reCAPTCHA: its pages' CSP must allow Google's origins. */
  async usesRecaptcha(host: string): Promise<boolean> {
    return recaptchaIn(await this.settingsFor(host));
  }

  /**
   * {@link usesRecaptcha} without a promise while the settings are in process, else undefined: the CSP middleware
   * asks on every request (app.ts) and waits for `usesRecaptcha` only when this says nothing.
   */
  peekUsesRecaptcha(host: string): boolean | undefined {
    const settings = this.peekSettingsFor(host);
    return settings && recaptchaIn(settings);
  }

  private requestCounterKey(action: CaptchaAction, ip: string): string {
    return `captcha:requests:${action}:${sha256(ip)}`;
  }

  private passKey(sessionId: string, action: string): string {
    return `captcha:pass:${sha256(sessionId)}:${action}`;
  }

  /** The risk of a login attempt from the throttle's counters, without reserving anything. */
  private async loginRisk(ctx: CaptchaContext, login: string | undefined): Promise<CaptchaAssessment> {
    const user = login ? await findLoginOnce(ctx.browser, this.deps.users, login) : undefined;
    // The same account key the sign-in throttle counts on (SignInService.passwordSignIn).
    const account = user ? `user:${user.id}` : `login:${normaliseLogin(login ?? '')}`;
    const device = user ? this.deps.knownDevices?.recognise(ctx.browser, user) : undefined;
    const counts = await this.deps.throttle.peek({ account, source: ctx.ip, device });
    const required =
      (login !== undefined && counts.own >= CAPTCHA_RISK.ownFailures) ||
      (login !== undefined && counts.account >= CAPTCHA_RISK.accountFailures) ||
      counts.source >= CAPTCHA_RISK.sourceFailures;
    const high =
      counts.own >= CAPTCHA_RISK.highOwnFailures ||
      counts.account >= CAPTCHA_RISK.highSharedFailures ||
      counts.source >= CAPTCHA_RISK.highSharedFailures;
    return { required, difficulty: high ? 'high' : 'normal' };
  }

  private requestRisk(count: number): CaptchaAssessment {
    return {
      required: count > CAPTCHA_RISK.freeRequests,
      difficulty: count > CAPTCHA_RISK.highRequests ? 'high' : 'normal',
    };
  }

  /**
   * Whether the next call of `action` will need a challenge (LoginView's `captchaRequired`, and the difficulty of
   * a challenge asked for now). Reads counters only.
   */
  async assess(ctx: CaptchaContext, action: CaptchaAction, login?: string): Promise<CaptchaAssessment> {
    const settings = await this.settingsFor(ctx.host);
    if (settings.provider === 'off' || settings.when === 'never')
      return { required: false, difficulty: 'normal' };
    let risk: CaptchaAssessment;
    if (action === 'login' || action === 'link') risk = await this.loginRisk(ctx, login);
    else {
      const count = Number((await this.deps.kv.get(this.requestCounterKey(action, ctx.ip))) ?? 0);
      // The next request is the one judged.
      risk = this.requestRisk(count + 1);
    }
    return settings.when === 'always' ? { ...risk, required: true } : risk;
  }

  /**
   * The check in front of a guarded call: counts the request (Recover, SendOTP), decides, and when a challenge is
   * required spends the session's pass for the action (single use). `false`: answer `captchaRequired`.
   */
  async admit(ctx: CaptchaContext, action: CaptchaAction, login?: string): Promise<boolean> {
    const settings = await this.settingsFor(ctx.host);
    if (settings.provider === 'off' || settings.when === 'never') return true;
    let risk: CaptchaAssessment;
    if (action === 'login' || action === 'link') risk = await this.loginRisk(ctx, login);
    else {
      const count = await this.deps.kv.increment(
        this.requestCounterKey(action, ctx.ip),
        CAPTCHA_RISK.requestWindowMs,
      );
      risk = this.requestRisk(count);
    }
    if (settings.when !== 'always' && !risk.required) return true;
    return (await this.deps.kv.take(this.passKey(ctx.sessionId, action))) !== undefined;
  }

  /** A proof-of-work challenge for the action, bound to the session, as hard as the risk says (version 1 only). */
  async challenge(ctx: CaptchaContext, action: CaptchaAction): Promise<Challenge | undefined> {
    const settings = await this.settingsFor(ctx.host);
    if (settings.provider !== 'altcha') return undefined;
    const { difficulty } = await this.assess(ctx, action);
    return this.altcha.issue({ action, session: sha256(ctx.sessionId) }, difficulty);
  }

  /**
   * `VerifyCaptcha`: the token must be of the partner's provider, valid, made for this action (and, for the
   * proof-of-work, this session), unexpired and never seen before (S9). Then one call of the action may pass.
   */
  async verify(ctx: CaptchaContext, request: VerifyCaptchaRequest): Promise<CaptchaVerifyOutcome> {
    const settings = await this.settingsFor(ctx.host);
    // The partner's provider only: a client may not pick a weaker one.
    if (VERSION_OF[settings.provider] !== request.version) return { ok: false, reason: 'version' };
    let tokenId: string;
    if (request.version === 1) {
      const result = await this.altcha.verify(request.token);
      if (!result.ok) return { ok: false, reason: result.reason };
      if (result.binding.action !== request.action) return { ok: false, reason: 'action' };
      if (result.binding.session !== sha256(ctx.sessionId)) return { ok: false, reason: 'session' };
      tokenId = result.id;
    } else {
      tokenId = request.token;
    }
    // Once per token (atomic: of two racing calls exactly one counts 1).
    const uses = await this.deps.kv.increment(`captcha:used:${sha256(tokenId)}`, USED_TOKEN_TTL_MS);
    if (uses !== 1) return { ok: false, reason: 'replayed' };
    if (request.version !== 1) {
      if (!settings.secret) return { ok: false, reason: 'unconfigured' };
      const result = await verifyRecaptcha(
        this.deps.recaptchaVerifyUrl,
        settings.secret,
        request.token,
        ctx.ip,
        {
          version: request.version,
          hostname: ctx.host,
          action: request.action,
          minScore: settings.minScore,
        },
      );
      if (!result.ok) return { ok: false, reason: result.reason };
    }
    await this.deps.kv.set(this.passKey(ctx.sessionId, request.action), '1', CAPTCHA_PASS_TTL_MS);
    return { ok: true };
  }
}

/** The provider settings put on the sign-in pages (absent when the partner turned the captcha off). */
function providerIn(settings: CaptchaSettings): CaptchaProvider | undefined {
  const version = VERSION_OF[settings.provider];
  if (version === undefined || settings.when === 'never') return undefined;
  return version === 1
    ? { version }
    : { version, ...(settings.siteKey ? { siteKey: settings.siteKey } : {}) };
}

/** True when the settings' provider is reCAPTCHA (v2 or v3) and the captcha is on: its origins join the CSP. */
function recaptchaIn(settings: CaptchaSettings): boolean {
  const version = providerIn(settings)?.version;
  return version === 2 || version === 3;
}
