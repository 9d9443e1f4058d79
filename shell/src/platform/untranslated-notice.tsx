import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { findPartnerLanguage, isTranslatedLocale } from './language.js';
import { usePartner } from './partner-context.js';

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  return () => observer.disconnect();
}

/** The document's language, following `lang` on `<html>` (the chosen locale, even one without translations). */
function useDocumentLanguage(): string {
  return useSyncExternalStore(
    subscribe,
    () => document.documentElement.lang,
    () => '',
  );
}

/**
 * The polite notice of a language without translations (issue 43): the page is in the language the visitor chose
 * (its direction, its `lang`) but its text is en-GB's, and the page says so instead of leaving them to wonder.
 * Announced politely (role="status"); nothing for a translated language.
 */
export function UntranslatedNotice() {
  const { t } = useTranslation('common');
  const partner = usePartner();
  const locale = useDocumentLanguage();
  if (!locale || isTranslatedLocale(locale)) return null;
  const language = findPartnerLanguage(partner.availableLanguages, locale)?.description || locale;
  return (
    <div className="platform-untranslated-notice" role="status" data-testid="untranslated-notice">
      {t('platform.language.untranslatedNotice', { language })}
    </div>
  );
}
