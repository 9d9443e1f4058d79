import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { PartnerMetadata } from 'shared-contracts';
import { partnerLocale } from './language.js';
import { changeLocale } from './locale-change.js';

/**
 * Once the partner is known, shows the locale it should get: the saved choice or the culture cookie when the
 * partner offers it, else the partner's default language (see {@link partnerLocale}). Nothing is saved here: only
 * a choice the user makes in the picker is kept.
 */
export function usePartnerLocale(partner: PartnerMetadata | undefined): void {
  const { i18n } = useTranslation('common');
  useEffect(() => {
    if (!partner) return;
    void changeLocale(i18n, partnerLocale(partner), { persist: false });
  }, [partner, i18n]);
}
