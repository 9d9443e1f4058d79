import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  MAX_IDLE_SIGN_OUT_MINUTES,
  PASSWORD_RULE_BOUNDS,
  passwordRulesSchema,
  resolvePasswordRules,
  matchSupportedLocale,
  safeCssColour,
  safeHttpUrl,
  SUPPORTED_LOCALES,
  type PartnerLanguage,
  type PasswordRules,
} from 'shared-contracts';
import type { Partner } from '../../store/partner.repository.js';
import type { PasswordPolicy } from '../../store/password-policy.repository.js';
import type { Store } from '../../store/store.js';
import { cliActor } from '../../identity/console/console-actor.js';
import { recordConsoleAction } from '../../identity/console/console-audit.js';
import { defineCommand, type OptionValues } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { flag, list } from '../option-values.js';
import {
  captchaOptions,
  captchaSummary,
  changedCaptchaSettings,
  describeCaptcha,
} from './partner-captcha.js';

/** The branding options `partners add` and `partners update` share. */
const brandingOptions = {
  domains: { type: 'string', value: 'a.example,b.example' },
  'background-color': { type: 'string', value: '#123456' },
  'privacy-url': { type: 'string', value: 'URL' },
  'default-language': { type: 'string', value: 'en-GB' },
  languages: { type: 'string', value: 'en-GB:English,de:Deutsch' },
  /** Offer a language the interface has no translation for (its pages then show en-GB's words), on purpose. */
  'allow-untranslated': { type: 'boolean' },
  /** A logo file, or `none` to take the logo away (the sign-in page then shows the partner's name). */
  logo: { type: 'string', value: 'FILE|none' },
  'show-login-providers': { type: 'string', value: 'true|false' },
  'show-language-options': { type: 'string', value: 'true|false' },
  'show-background-images': { type: 'string', value: 'true|false' },
  default: { type: 'boolean' },
} as const;

/** `partners update --require-two-factor`: every user of the partner sets up a second factor at the next sign-in. */
const twoFactorOptions = {
  'require-two-factor': { type: 'string', value: 'true|false' },
  'remember-two-factor-browser': { type: 'string', value: 'true|false' },
} as const;

/** `partners update --idle-sign-out-minutes N`: the shell signs an idle user out after N minutes (0 = off, ADR 0020). */
const idleSignOutOptions = {
  'idle-sign-out-minutes': { type: 'string', value: 'N' },
} as const;

/** The password policy options of `partners update` (ADR 0010); each changes only its own value. */
const passwordPolicyOptions = {
  'password-min-length': { type: 'string', value: 'N' },
  'password-max-length': { type: 'string', value: 'N' },
  'password-require-classes': { type: 'string', value: 'true|false' },
  'password-max-repeat': { type: 'string', value: 'N' },
  'password-invalid-characters': { type: 'string', value: 'CHARS' },
  'password-max-age-days': { type: 'string', value: 'N' },
} as const;

/** A whole number within the rule's bounds (those of shared-contracts' schema). */
function ruleNumber(text: string, option: string, min: number, max: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(`--${option} must be a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

/** The bounds the shared rule schema puts on a numeric rule (so the CLI and the service agree). */
function boundsOf(rule: keyof typeof PASSWORD_RULE_BOUNDS): [number, number] {
  const [least, most] = PASSWORD_RULE_BOUNDS[rule];
  return [least, most];
}

/** The largest maximum age accepted, in days (ten years). */
const MAX_AGE_DAYS_LIMIT = 3650;

/**
 * The partner's stored password policy with the options given applied; undefined when none was given. Checked
 * against the same bounds as the service's rules, and a minimum above the maximum is refused.
 */
async function changedPasswordPolicy(
  store: Store,
  partnerId: string,
  values: OptionValues<typeof passwordPolicyOptions>,
): Promise<PasswordPolicy | undefined> {
  const given = Object.keys(passwordPolicyOptions).some(
    (key) => values[key as keyof typeof passwordPolicyOptions] !== undefined,
  );
  if (!given) return undefined;
  const policy = (await store.passwordPolicies.find(partnerId)) ?? { partnerId, rules: {}, maxAgeDays: 0 };
  const rules: Partial<PasswordRules> = { ...policy.rules };
  const min = values['password-min-length'];
  if (min !== undefined) rules.minLength = ruleNumber(min, 'password-min-length', ...boundsOf('minLength'));
  const max = values['password-max-length'];
  if (max !== undefined) rules.maxLength = ruleNumber(max, 'password-max-length', ...boundsOf('maxLength'));
  const classes = flag(values['password-require-classes'], 'password-require-classes');
  if (classes !== undefined) rules.requireCharacterClasses = classes;
  const repeat = values['password-max-repeat'];
  if (repeat !== undefined)
    rules.maxConsecutive = ruleNumber(repeat, 'password-max-repeat', ...boundsOf('maxConsecutive'));
  const invalid = values['password-invalid-characters'];
  if (invalid !== undefined) {
    if (!passwordRulesSchema.shape.invalidCharacters.safeParse(invalid).success)
      throw new UsageError('--password-invalid-characters must be at most 256 characters');
    rules.invalidCharacters = invalid;
  }
  const resolved = resolvePasswordRules(rules);
  if (resolved.minLength > resolved.maxLength)
    throw new UsageError(
      `the minimum password length (${resolved.minLength}) may not exceed the maximum (${resolved.maxLength})`,
    );
  const age = values['password-max-age-days'];
  const maxAgeDays =
    age === undefined ? policy.maxAgeDays : ruleNumber(age, 'password-max-age-days', 0, MAX_AGE_DAYS_LIMIT);
  return { partnerId, rules, maxAgeDays };
}

/** One line describing a partner's password policy, as `partners update` reports it. */
function describePolicy(policy: PasswordPolicy): string {
  const rules = resolvePasswordRules(policy.rules);
  return [
    `password policy of ${policy.partnerId}: ${rules.minLength}–${rules.maxLength} characters`,
    rules.requireCharacterClasses ? 'all four character classes' : 'no character classes',
    rules.maxConsecutive > 0 ? `at most ${rules.maxConsecutive} identical in a row` : 'no repeat limit',
    rules.invalidCharacters ? `refusing ${JSON.stringify(rules.invalidCharacters)}` : 'no refused characters',
    policy.maxAgeDays > 0 ? `expires after ${policy.maxAgeDays} days` : 'never expires',
  ].join(', ');
}

const LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

function partnerFields(
  values: OptionValues<typeof brandingOptions> & { name?: string },
): Partial<Omit<Partner, 'id'>> {
  const fields: Partial<Omit<Partner, 'id'>> = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values.domains !== undefined) fields.domains = list(values.domains).map((d) => d.toLowerCase());
  const colour = values['background-color'];
  // The same checks the shell applies before using a value (S34, shared-contracts/src/branding.ts).
  if (colour !== undefined) {
    const safe = safeCssColour(colour);
    if (!safe)
      throw new UsageError(
        `--background-color: "${colour}" is not a colour (#rgb, #rrggbb, rgb(), hsl() or a name)`,
      );
    fields.backgroundColor = safe;
  }
  const privacy = values['privacy-url'];
  if (privacy !== undefined) {
    const safe = safeHttpUrl(privacy);
    if (!safe)
      throw new UsageError(`--privacy-url: "${privacy}" is not an absolute http(s) URL without user info`);
    fields.privacyPolicyUrl = safe;
  }
  // A language without translations would show its visitors en-GB's words under their language's name (issue 43):
  // refused unless the operator says it is on purpose (a right-to-left preview).
  const translated = (option: string, code: string) => {
    if (values['allow-untranslated'] || matchSupportedLocale(code)) return;
    throw new UsageError(
      `${option}: "${code}" has no translation (translated: ${SUPPORTED_LOCALES.join(', ')}); add --allow-untranslated to offer it with en-GB's texts`,
    );
  };
  if (values['default-language'] !== undefined) {
    translated('--default-language', values['default-language']);
    fields.defaultLanguage = values['default-language'];
  }
  if (values.languages !== undefined) {
    fields.availableLanguages = list(values.languages).map((entry): PartnerLanguage => {
      const [name, description] = entry.split(':');
      if (!name || !description) throw new UsageError(`--languages: "${entry}" must be code:Description`);
      translated('--languages', name);
      return { name, description };
    });
  }
  if (values.logo === 'none') {
    fields.logo = null;
    fields.logoContentType = null;
  } else if (values.logo !== undefined) {
    const file = path.resolve(values.logo);
    const type = LOGO_TYPES[path.extname(file).toLowerCase()];
    if (!type) throw new UsageError('--logo must be a .png, .jpg, .svg or .webp file');
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      throw new UsageError(`--logo: cannot read ${file}`);
    }
    if (bytes.length > 512 * 1024) throw new UsageError('--logo must be at most 512 KB');
    fields.logo = bytes.toString('base64');
    fields.logoContentType = type;
  }
  const login = flag(values['show-login-providers'], 'show-login-providers');
  if (login !== undefined) fields.showLoginProviders = login;
  const languages = flag(values['show-language-options'], 'show-language-options');
  if (languages !== undefined) fields.showLanguageOptions = languages;
  const images = flag(values['show-background-images'], 'show-background-images');
  if (images !== undefined) fields.showBackgroundImages = images;
  if (values.default) fields.isDefault = true;
  return fields;
}

export const partnersCommands = [
  defineCommand({
    area: 'partners',
    name: 'add',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N', required: true },
      ...brandingOptions,
    },
    async run({ store, out }, values) {
      const partner = await store.partners.create({
        id: values.id,
        name: values.name,
        ...partnerFields(values),
      });
      out(`partner ${partner.id} added`);
    },
  }),
  defineCommand({
    area: 'partners',
    name: 'update',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N' },
      ...brandingOptions,
      ...passwordPolicyOptions,
      ...captchaOptions,
      ...twoFactorOptions,
      ...idleSignOutOptions,
    },
    summary: [
      'changes only the options given',
      'password policy: --password-max-repeat 0 = no limit, --password-max-age-days 0 = never expires',
      '--require-two-factor true: every user of the partner sets up a second factor at the next sign-in',
      '--remember-two-factor-browser true: the 2FA page offers "remember this browser" for 30 days',
      `--idle-sign-out-minutes N: sign users out after N idle minutes in every tab (0 = off, max ${MAX_IDLE_SIGN_OUT_MINUTES})`,
      ...captchaSummary,
    ],
    async run({ store, out }, values) {
      if (!(await store.partners.findById(values.id))) throw new UsageError(`no partner "${values.id}"`);
      // Everything is checked before anything is stored.
      const policy = await changedPasswordPolicy(store, values.id, values);
      const captcha = changedCaptchaSettings(await store.captchaSettings.find(values.id), values);
      const requireTwoFactor = flag(values['require-two-factor'], 'require-two-factor');
      const rememberTwoFactorBrowser = flag(
        values['remember-two-factor-browser'],
        'remember-two-factor-browser',
      );
      const idle = values['idle-sign-out-minutes'];
      const idleSignOutMinutes =
        idle === undefined
          ? undefined
          : ruleNumber(idle, 'idle-sign-out-minutes', 0, MAX_IDLE_SIGN_OUT_MINUTES);
      await store.partners.update(values.id, {
        ...partnerFields(values),
        ...(idleSignOutMinutes === undefined ? {} : { idleSignOutMinutes }),
        ...(requireTwoFactor === undefined ? {} : { requireTwoFactor }),
        ...(rememberTwoFactorBrowser === undefined ? {} : { rememberTwoFactorBrowser }),
      });
      if (policy) await store.passwordPolicies.set(policy);
      if (captcha) out(describeCaptcha(await store.captchaSettings.update(values.id, captcha)));
      // The same record as the console's UpdatePartner (ADR 0062): which options changed, never a secret.
      const changed = Object.keys(values).filter(
        (key) => key !== 'id' && values[key as keyof typeof values] !== undefined,
      );
      await recordConsoleAction(store.audit, {
        kind: 'console.partners.updated',
        actor: cliActor(),
        subject: values.id,
        partnerId: values.id,
        data: { changed },
      });
      out(`partner ${values.id} updated`);
      if (policy) out(describePolicy(policy));
      if (idleSignOutMinutes !== undefined)
        out(
          idleSignOutMinutes === 0
            ? `idle sign-out of ${values.id}: off`
            : `idle sign-out of ${values.id}: after ${idleSignOutMinutes} minute(s) without input`,
        );
    },
  }),
  defineCommand({
    area: 'partners',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const p of await store.partners.list())
        out(`${p.id}\t${p.name}\t${p.domains.join(',') || '-'}${p.isDefault ? '\tdefault' : ''}`);
    },
  }),
];
