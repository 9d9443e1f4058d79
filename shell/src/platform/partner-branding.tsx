import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PartnerMetadata } from 'shared-contracts';
import { partnerBranding } from './branding.js';

/** The partner's logo from `GetPartnerLogo`; hidden when the partner has none (404). */
export function PartnerLogo({ partner }: { partner: PartnerMetadata }) {
  const { t } = useTranslation('common');
  const branding = useMemo(() => partnerBranding(partner), [partner]);
  // Remembers which logo failed, so a partner with another logo URL gets its logo tried again.
  const [failedUrl, setFailedUrl] = useState<string>();
  if (failedUrl === branding.logoUrl) return null;
  return (
    <img
      className="platform-partner-logo"
      data-testid="partner-logo"
      src={branding.logoUrl}
      alt={t('platform.branding.logoAlt', { name: branding.name })}
      onError={() => setFailedUrl(branding.logoUrl)}
    />
  );
}

/** The partner's privacy policy link, only when it is an http(s) URL (S34); nothing otherwise. */
export function PrivacyPolicyLink({ partner }: { partner: PartnerMetadata }) {
  const { t } = useTranslation('common');
  const url = useMemo(() => partnerBranding(partner).privacyPolicyUrl, [partner]);
  if (!url) return null;
  return (
    <a
      className="platform-privacy-link"
      data-testid="privacy-policy-link"
      href={url}
      rel="noopener noreferrer"
      target="_blank"
    >
      {t('platform.branding.privacyPolicy')}
    </a>
  );
}
