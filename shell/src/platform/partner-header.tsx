import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandBand, SiteHeader } from 'shared-contracts/ui';
import { partnerLogoFromDocument } from './branding.js';
import { LanguagePicker } from './language-picker.js';
import { onDemand } from './on-demand.js';
import { PrivacyPolicyLink } from './partner-branding.js';
import { usePartner } from './partner-context.js';
import { ThemeSwitch } from './theme-switch.js';

// The account menu is for a signed-in person only: loaded when one is shown, so the sign-in page's bytes (budgeted,
// bench/budget.json) carry none of its code or styles. A menu that cannot load leaves the header without it; the
// signed-in card's Sign out stays.
const AccountMenu = onDemand('account-menu', () =>
  import('../layout/account-menu.js').then((m) => ({ default: m.AccountMenu })),
);

/**
 * The partner's logo when the gateway said it has one, else its name; a logo that fails to load falls back to
 * the name, so the page always says whose it is.
 */
function PartnerBrand() {
  const { t } = useTranslation('common');
  const partner = usePartner();
  const logoUrl = partnerLogoFromDocument(partner.partnerId);
  const [failedUrl, setFailedUrl] = useState<string>();
  return (
    <BrandBand
      name={partner.partnerName}
      logoUrl={failedUrl === logoUrl ? undefined : logoUrl}
      logoAlt={t('platform.branding.logoAlt', { name: partner.partnerName })}
      onLogoError={() => setFailedUrl(logoUrl)}
    />
  );
}

/**
 * The branded header: the partner's brand at the inline start (left in LTR, right in RTL), the language picker
 * (when the partner allows it), the theme switch and, for a signed-in person (`signedInName`), the account menu at
 * the inline end.
 */
export function PartnerHeader({ signedInName }: { signedInName?: string }) {
  const partner = usePartner();
  return (
    <SiteHeader
      brand={<PartnerBrand />}
      controls={
        <>
          <LanguagePicker partner={partner} />
          <ThemeSwitch />
          {signedInName !== undefined ? <AccountMenu name={signedInName} /> : null}
        </>
      }
    />
  );
}

/** The branded footer: the partner's privacy policy link when it has a valid one. */
export function PartnerFooter() {
  const partner = usePartner();
  return (
    <footer className="platform-footer">
      <PrivacyPolicyLink partner={partner} />
    </footer>
  );
}
