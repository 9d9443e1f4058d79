import { useTranslation } from 'react-i18next';
import { SUPPORTED_LOCALES } from 'shared-contracts';
import {
  PARTNER_CAPTCHA_PROVIDERS,
  PARTNER_CAPTCHA_WHEN,
  type PartnerSettings,
  type UpdatePartnerRequest,
} from 'shared-contracts/console';
import { Checkbox, FormErrors, TextField } from 'shared-contracts/ui';
import { SelectField } from '../shared/select-field';

/**
 * What a language is called in its own language, for a language a partner does not offer yet (the sign-in page's
 * language choice shows it; the demo partner's seed names them so).
 */
const OWN_NAMES: Record<string, string> = {
  'en-GB': 'English (United Kingdom)',
  en: 'English (United States)',
  de: 'Deutsch',
  'fr-CA': 'Français (Canada)',
  es: 'Español',
};

/** The languages and captcha part of the partner form, as typed. */
export interface LanguagesCaptchaDraft {
  /** The languages offered, by code. */
  languages: string[];
  defaultLanguage: string;
  captchaProvider: PartnerSettings['captcha']['provider'];
  captchaWhen: PartnerSettings['captcha']['when'];
  captchaSiteKey: string;
  /** Write-only: empty keeps the stored secret. */
  captchaSecret: string;
  captchaMinScore: string;
}

/** The draft of a stored partner. */
export function languagesCaptchaDraftOf(p: PartnerSettings): LanguagesCaptchaDraft {
  return {
    languages: p.availableLanguages.map((l) => l.name),
    defaultLanguage: p.defaultLanguage,
    captchaProvider: p.captcha.provider,
    captchaWhen: p.captcha.when,
    captchaSiteKey: p.captcha.siteKey ?? '',
    captchaSecret: '',
    captchaMinScore: String(p.captcha.minScore),
  };
}

/** Every language the form offers: the five with sign-in translations, and any other the partner offers now. */
function choicesOf(p: PartnerSettings): { name: string; description: string }[] {
  const offered = new Map(p.availableLanguages.map((l) => [l.name, l.description]));
  const names = [...SUPPORTED_LOCALES, ...p.availableLanguages.map((l) => l.name)];
  return [...new Set<string>(names)].map((name) => ({
    name,
    description: offered.get(name) ?? OWN_NAMES[name] ?? name,
  }));
}

/** The languages and captcha UpdatePartner takes: only what differs from the stored partner. */
export function languagesCaptchaChangesOf(
  p: PartnerSettings,
  d: LanguagesCaptchaDraft,
): Pick<UpdatePartnerRequest, 'availableLanguages' | 'defaultLanguage' | 'captcha'> {
  const changes: Pick<UpdatePartnerRequest, 'availableLanguages' | 'defaultLanguage' | 'captcha'> = {};
  const stored = p.availableLanguages.map((l) => l.name);
  const chosen = choicesOf(p).filter((c) => d.languages.includes(c.name));
  if (chosen.map((c) => c.name).join() !== stored.join()) changes.availableLanguages = chosen;
  if (d.defaultLanguage !== p.defaultLanguage) changes.defaultLanguage = d.defaultLanguage;
  const captcha: NonNullable<UpdatePartnerRequest['captcha']> = {};
  if (d.captchaProvider !== p.captcha.provider) captcha.provider = d.captchaProvider;
  if (d.captchaWhen !== p.captcha.when) captcha.when = d.captchaWhen;
  if (d.captchaSiteKey.trim() !== (p.captcha.siteKey ?? '') && d.captchaSiteKey.trim())
    captcha.siteKey = d.captchaSiteKey.trim();
  if (d.captchaSecret) captcha.secret = d.captchaSecret;
  if (d.captchaMinScore !== String(p.captcha.minScore)) captcha.minScore = Number(d.captchaMinScore);
  if (Object.keys(captcha).length > 0) changes.captcha = captcha;
  return changes;
}

/** Props of {@link PartnerLanguagesCaptcha}. */
export interface PartnerLanguagesCaptchaProps {
  partner: PartnerSettings;
  draft: LanguagesCaptchaDraft;
  set: (patch: Partial<LanguagesCaptchaDraft>) => void;
  /** The translated errors of a field of UpdatePartner. */
  errorsOf: (field: string) => string[];
}

/**
 * A partner's languages (which of those with sign-in translations it offers, and its default) and captcha (provider,
 * when it is asked, reCAPTCHA's keys and v3's minimum score), as `admin partners update` offers them. The captcha
 * secret is write-only: the form says whether one is stored, and an empty field keeps it.
 */
export function PartnerLanguagesCaptcha({ partner, draft, set, errorsOf }: PartnerLanguagesCaptchaProps) {
  const { t } = useTranslation('mfe-admin');
  const choices = choicesOf(partner);
  const recaptcha = draft.captchaProvider.startsWith('recaptcha');
  return (
    <>
      <fieldset className="admin-flags" data-testid="partner-languages">
        <legend>{t('partners.fields.availableLanguages')}</legend>
        {choices.map((choice) => (
          <Checkbox
            key={choice.name}
            label={choice.description}
            lang={choice.name}
            checked={draft.languages.includes(choice.name)}
            onChange={(event) =>
              set({
                languages: event.target.checked
                  ? [...draft.languages, choice.name]
                  : draft.languages.filter((name) => name !== choice.name),
              })
            }
          />
        ))}
        <FormErrors messages={errorsOf('availableLanguages')} />
      </fieldset>
      <SelectField
        label={t('partners.fields.defaultLanguage')}
        value={draft.defaultLanguage}
        onChange={(value) => set({ defaultLanguage: value })}
        errors={errorsOf('defaultLanguage')}
        testId="partner-default-language"
      >
        {choices
          .filter((c) => draft.languages.includes(c.name) || c.name === draft.defaultLanguage)
          .map((c) => (
            <option key={c.name} value={c.name} lang={c.name}>
              {c.description}
            </option>
          ))}
      </SelectField>
      <fieldset className="admin-flags" data-testid="partner-captcha">
        <legend>{t('partners.fields.captcha')}</legend>
        <SelectField
          label={t('partners.captcha.provider')}
          value={draft.captchaProvider}
          onChange={(value) => set({ captchaProvider: value as LanguagesCaptchaDraft['captchaProvider'] })}
        >
          {PARTNER_CAPTCHA_PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {t(`partners.captcha.providers.${p}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('partners.captcha.when')}
          value={draft.captchaWhen}
          onChange={(value) => set({ captchaWhen: value as LanguagesCaptchaDraft['captchaWhen'] })}
        >
          {PARTNER_CAPTCHA_WHEN.map((w) => (
            <option key={w} value={w}>
              {t(`partners.captcha.whens.${w}`)}
            </option>
          ))}
        </SelectField>
        {recaptcha ? (
          <>
            <TextField
              label={t('partners.captcha.siteKey')}
              dir="ltr"
              autoComplete="off"
              value={draft.captchaSiteKey}
              onChange={(event) => set({ captchaSiteKey: event.target.value })}
            />
            <TextField
              label={t('partners.captcha.secret')}
              hint={t(
                partner.captcha.hasSecret ? 'partners.captcha.secretStored' : 'partners.captcha.secretNone',
              )}
              type="password"
              dir="ltr"
              autoComplete="new-password"
              value={draft.captchaSecret}
              onChange={(event) => set({ captchaSecret: event.target.value })}
            />
          </>
        ) : null}
        {draft.captchaProvider === 'recaptcha-v3' ? (
          <TextField
            label={t('partners.captcha.minScore')}
            hint={t('partners.captcha.minScoreHint')}
            type="number"
            inputMode="decimal"
            min={0}
            max={1}
            step={0.1}
            value={draft.captchaMinScore}
            onChange={(event) => set({ captchaMinScore: event.target.value })}
          />
        ) : null}
        <FormErrors messages={errorsOf('captcha')} />
      </fieldset>
    </>
  );
}
