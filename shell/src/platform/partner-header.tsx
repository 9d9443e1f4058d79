import { LanguagePicker } from './language-picker.js';
import { PartnerLogo, PrivacyPolicyLink } from './partner-branding.js';
import { usePartner } from './partner-context.js';
import { ThemeSwitch } from './theme-switch.js';

/**
 * The branded header: the partner's logo at the inline start (left in LTR, right in RTL), the language picker
 * (when the partner allows it) and the theme switch at the inline end.
 */
export function PartnerHeader() {
  const partner = usePartner();
  return (
    <header className="platform-header" data-testid="partner-header">
      <PartnerLogo partner={partner} />
      <div className="platform-controls">
        <LanguagePicker partner={partner} />
        <ThemeSwitch />
      </div>
    </header>
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
