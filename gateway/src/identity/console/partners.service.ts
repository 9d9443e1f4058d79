import {
  matchSupportedLocale,
  partnerLogoUrl,
  resolvePasswordRules,
  safeCssColour,
  safeHttpUrl,
  type ErrorCode,
} from 'shared-contracts';
import {
  MAX_PARTNER_LOGO_BYTES,
  type PartnerLogoType,
  type PartnerSettings,
  type PartnerSummary,
  type UpdatePartnerRequest,
} from 'shared-contracts/console';
import type { AuditRepository } from '../../store/audit.repository.js';
import type { CaptchaSettings, CaptchaSettingsRepository } from '../../store/captcha-settings.repository.js';
import type { Partner, PartnerRepository } from '../../store/partner.repository.js';
import type { PasswordPolicyRepository } from '../../store/password-policy.repository.js';
import type { ConsoleActor } from './console-actor.js';

/** A change the service refuses: the field it is about and the error code (with values) shown there. */
export class PartnerChangeError extends Error {
  constructor(
    readonly field: string,
    readonly code: ErrorCode,
    readonly values: Record<string, string | number> = {},
  ) {
    super(`${field}: ${code}`);
  }
}

/** Dependencies of {@link PartnersConsoleService}: the store's repositories (writes reach every replica, ADR 0062). */
export interface PartnersConsoleDeps {
  partners: Pick<PartnerRepository, 'list' | 'findById' | 'update'>;
  passwordPolicies: Pick<PasswordPolicyRepository, 'find' | 'set'>;
  captchaSettings: Pick<CaptchaSettingsRepository, 'find' | 'update'>;
  audit: Pick<AuditRepository, 'record'>;
  now?: () => number;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((b, i) => bytes[at + i] === b);
}

/**
 * What an SVG may not carry: script elements, event handler attributes, `javascript:` links, embedded documents or
 * entity declarations (ADR 0062). Checked on the text; a refused SVG is never stored.
 */
const SVG_ACTIVE_CONTENT =
  /<\s*script|\son[a-z]+\s*=|javascript\s*:|<\s*foreignObject|<\s*iframe|<\s*embed|<\s*object|<!ENTITY|<\s*use\b[^>]*href\s*=\s*["']?\s*(?!#)/i;

/**
 * The logo's type by its first bytes, not by the declared type alone: PNG, JPEG, WebP, or an SVG (text starting with
 * an XML declaration or `<svg`) without active content. Throws a {@link PartnerChangeError} on the `logo` field.
 */
export function checkedLogo(bytes: Uint8Array, declared: string | undefined): PartnerLogoType {
  if (bytes.length === 0) throw new PartnerChangeError('logo', 'required');
  if (bytes.length > MAX_PARTNER_LOGO_BYTES)
    throw new PartnerChangeError('logo', 'partnerLogoTooLarge', { max: MAX_PARTNER_LOGO_BYTES / 1024 });
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const sniffed: PartnerLogoType | undefined = startsWith(bytes, PNG)
    ? 'image/png'
    : startsWith(bytes, JPEG)
      ? 'image/jpeg'
      : startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
        ? 'image/webp'
        : undefined;
  if (sniffed) {
    if (type !== sniffed) throw new PartnerChangeError('logo', 'partnerLogoType');
    return sniffed;
  }
  if (type !== 'image/svg+xml') throw new PartnerChangeError('logo', 'partnerLogoType');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text))
    throw new PartnerChangeError('logo', 'partnerLogoType');
  if (SVG_ACTIVE_CONTENT.test(text)) throw new PartnerChangeError('logo', 'partnerLogoScript');
  return 'image/svg+xml';
}

function summaryOf(p: Partner): PartnerSummary {
  return {
    id: p.id,
    name: p.name,
    domains: p.domains,
    isDefault: p.isDefault,
    backgroundColor: p.backgroundColor,
    logoUrl: p.logo ? partnerLogoUrl(p.id) : null,
  };
}

function captchaOf(c: CaptchaSettings): PartnerSettings['captcha'] {
  return {
    provider: c.provider,
    when: c.when,
    siteKey: c.siteKey ?? null,
    hasSecret: c.secret !== undefined,
    minScore: c.minScore,
  };
}

/**
 * The console's partner settings (issue 52, ADR 0062) over the store the admin CLI writes too: reads every setting
 * of `admin partners update` and changes them after the same checks, recording `console.partners.updated` /
 * `console.partners.logo` with the actor, the partner and the reason. The repositories' writes drop this process's
 * cached partners at once; other replicas read them again within the config cache's TTL (config-cache/ttl-cache.ts).
 */
export class PartnersConsoleService {
  private readonly now: () => number;

  constructor(private readonly deps: PartnersConsoleDeps) {
    this.now = deps.now ?? Date.now;
  }

  async list(): Promise<PartnerSummary[]> {
    return (await this.deps.partners.list()).map(summaryOf);
  }

  /** One partner's settings; undefined when there is no such partner. */
  async settings(id: string): Promise<PartnerSettings | undefined> {
    const partner = await this.deps.partners.findById(id);
    if (!partner) return undefined;
    const policy = await this.deps.passwordPolicies.find(id);
    return {
      ...summaryOf(partner),
      privacyPolicyUrl: partner.privacyPolicyUrl,
      defaultLanguage: partner.defaultLanguage,
      availableLanguages: partner.availableLanguages,
      showLoginProviders: partner.showLoginProviders,
      showLanguageOptions: partner.showLanguageOptions,
      showBackgroundImages: partner.showBackgroundImages,
      requireTwoFactor: partner.requireTwoFactor,
      rememberTwoFactorBrowser: partner.rememberTwoFactorBrowser,
      idleSignOutMinutes: partner.idleSignOutMinutes,
      passwordRules: resolvePasswordRules(policy?.rules),
      passwordMaxAgeDays: policy?.maxAgeDays ?? 0,
      captcha: captchaOf(await this.deps.captchaSettings.find(id)),
    };
  }

  /**
   * Applies the fields given, everything checked before anything is stored; undefined when there is no such
   * partner. Throws a {@link PartnerChangeError} for a value the CLI would refuse too.
   */
  async update(request: UpdatePartnerRequest, actor: ConsoleActor): Promise<PartnerSettings | undefined> {
    const { id, reason, passwordRules, passwordMaxAgeDays, captcha, ...fields } = request;
    const partner = await this.deps.partners.findById(id);
    if (!partner) return undefined;
    const changes: Partial<Omit<Partner, 'id'>> = {};
    if (fields.name !== undefined) changes.name = fields.name;
    if (fields.backgroundColor !== undefined)
      changes.backgroundColor =
        fields.backgroundColor === null ? null : safeCssColour(fields.backgroundColor)!;
    if (fields.privacyPolicyUrl !== undefined)
      changes.privacyPolicyUrl =
        fields.privacyPolicyUrl === null ? null : safeHttpUrl(fields.privacyPolicyUrl)!;
    const languages = fields.availableLanguages ?? partner.availableLanguages;
    if (fields.availableLanguages !== undefined) {
      fields.availableLanguages.forEach((language) => {
        if (!matchSupportedLocale(language.name))
          throw new PartnerChangeError('availableLanguages', 'partnerLanguageUntranslated', {
            language: language.name,
          });
      });
      changes.availableLanguages = fields.availableLanguages;
    }
    const defaultLanguage = fields.defaultLanguage ?? partner.defaultLanguage;
    if (fields.defaultLanguage !== undefined) {
      if (!matchSupportedLocale(fields.defaultLanguage))
        throw new PartnerChangeError('defaultLanguage', 'partnerLanguageUntranslated', {
          language: fields.defaultLanguage,
        });
      changes.defaultLanguage = fields.defaultLanguage;
    }
    if (
      (fields.defaultLanguage !== undefined || fields.availableLanguages !== undefined) &&
      !languages.some((l) => l.name === defaultLanguage)
    )
      throw new PartnerChangeError('defaultLanguage', 'partnerDefaultLanguageNotOffered');
    for (const key of [
      'showLoginProviders',
      'showLanguageOptions',
      'showBackgroundImages',
      'requireTwoFactor',
      'rememberTwoFactorBrowser',
    ] as const)
      if (fields[key] !== undefined) changes[key] = fields[key];
    if (fields.idleSignOutMinutes !== undefined) changes.idleSignOutMinutes = fields.idleSignOutMinutes;

    let policy: Awaited<ReturnType<PasswordPolicyRepository['find']>> | undefined;
    if (passwordRules !== undefined || passwordMaxAgeDays !== undefined) {
      const stored = (await this.deps.passwordPolicies.find(id)) ?? {
        partnerId: id,
        rules: {},
        maxAgeDays: 0,
      };
      const rules = { ...stored.rules, ...passwordRules };
      const resolved = resolvePasswordRules(rules);
      if (resolved.minLength > resolved.maxLength)
        throw new PartnerChangeError('passwordRules', 'partnerPasswordMinAboveMax', {
          min: resolved.minLength,
          max: resolved.maxLength,
        });
      policy = { partnerId: id, rules, maxAgeDays: passwordMaxAgeDays ?? stored.maxAgeDays };
    }
    let captchaChanges: Partial<Omit<CaptchaSettings, 'partnerId'>> | undefined;
    if (captcha !== undefined && Object.keys(captcha).length > 0) {
      const next = { ...(await this.deps.captchaSettings.find(id)), ...captcha };
      if (next.provider.startsWith('recaptcha') && (!next.siteKey || !next.secret))
        throw new PartnerChangeError('captcha', 'partnerCaptchaNeedsKeys');
      captchaChanges = captcha;
    }

    await this.deps.partners.update(id, changes);
    if (policy) await this.deps.passwordPolicies.set(policy);
    if (captchaChanges) await this.deps.captchaSettings.update(id, captchaChanges);
    const changed = [
      ...Object.keys(changes),
      ...(passwordRules ? Object.keys(passwordRules).map((k) => `passwordRules.${k}`) : []),
      ...(passwordMaxAgeDays !== undefined ? ['passwordMaxAgeDays'] : []),
      // Never a captcha secret in the audit: only that it changed.
      ...(captchaChanges ? Object.keys(captchaChanges).map((k) => `captcha.${k}`) : []),
    ];
    await this.deps.audit.record({
      at: this.now(),
      kind: 'console.partners.updated',
      userId: actor.userId,
      ip: null,
      partnerId: id,
      data: { actor: actor.name, subject: id, reason: reason?.trim() || null, changed },
    });
    return this.settings(id);
  }

  /** Stores a checked logo ({@link checkedLogo}); undefined when there is no such partner. */
  async setLogo(
    id: string,
    bytes: Uint8Array,
    declaredType: string | undefined,
    actor: ConsoleActor,
    reason: string | undefined,
  ): Promise<PartnerSettings | undefined> {
    if (!(await this.deps.partners.findById(id))) return undefined;
    const type = checkedLogo(bytes, declaredType);
    await this.deps.partners.update(id, {
      logo: Buffer.from(bytes).toString('base64'),
      logoContentType: type,
    });
    await this.deps.audit.record({
      at: this.now(),
      kind: 'console.partners.logo',
      userId: actor.userId,
      ip: null,
      partnerId: id,
      data: { actor: actor.name, subject: id, reason: reason?.trim() || null, type, bytes: bytes.length },
    });
    return this.settings(id);
  }
}
