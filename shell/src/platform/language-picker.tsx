import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PartnerMetadata } from 'shared-contracts';
import { findPartnerLanguage, isTranslatedLocale } from './language.js';
import { changeLocale } from './locale-change.js';
import { useSetLanguageMutation } from './platform.api.js';

/**
 * The language picker, shown only when the partner allows it (SPEC.md §3 showLanguageOptions), listing the
 * partner's languages. A choice is saved (storage + culture cookie) and sent to the server with `SetLanguage`. A
 * language the interface has no text in is marked "(not yet translated)"; chosen, it shows en-GB text in its own
 * direction under the untranslated notice (untranslated-notice.tsx).
 */
export function LanguagePicker({ partner }: { partner: PartnerMetadata }) {
  const { t, i18n } = useTranslation('common');
  const [setLanguage] = useSetLanguageMutation();
  const id = useId();
  if (!partner.showLanguageOptions || partner.availableLanguages.length === 0) return null;

  const current =
    findPartnerLanguage(partner.availableLanguages, document.documentElement.lang)?.name ??
    findPartnerLanguage(partner.availableLanguages, i18n.language)?.name ??
    partner.defaultLanguage;

  const onChange = async (locale: string) => {
    await changeLocale(i18n, locale, { persist: true });
    // The server's own messages follow the culture; a failed call only delays that, the page already switched.
    await setLanguage(locale);
  };

  return (
    <div className="platform-control platform-language-picker">
      {/* Compact: a globe in place of the word, which stays the select's accessible name. */}
      <label htmlFor={id} className="platform-control__label">
        <svg className="platform-control__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9M12 3c-2.5 2.6-3.8 5.6-3.8 9s1.3 6.4 3.8 9" />
        </svg>
        <span className="platform-visually-hidden">{t('platform.language.label')}</span>
      </label>
      {/* The closed control shows the language's short tag (EN-GB, DE): a full name never fits a phone's header
          and was cut ("English (United King"). The native select lies over it, so the list it opens, the
          keyboard and the accessible name are the select's own (ADR 0037). */}
      <span className="platform-control__field">
        <span className="platform-control__value" aria-hidden="true" lang={current}>
          {current.toUpperCase()}
        </span>
        <select
          id={id}
          data-testid="language-picker"
          className="platform-control__select"
          value={current}
          onChange={(event) => onChange(event.target.value)}
        >
          {/* A language without translations says so in the language shown now, and is then not tagged as its own
              language (most of its text is not). */}
          {partner.availableLanguages.map((language) => {
            const label = language.description || language.name;
            return isTranslatedLocale(language.name) ? (
              <option key={language.name} value={language.name} lang={language.name}>
                {label}
              </option>
            ) : (
              <option key={language.name} value={language.name} data-untranslated="">
                {t('platform.language.untranslatedOption', { language: label })}
              </option>
            );
          })}
        </select>
      </span>
    </div>
  );
}
