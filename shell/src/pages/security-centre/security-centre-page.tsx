import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { ProgressBar, Stack } from 'shared-contracts/ui';
import { ConfirmEmailChange } from './confirm-email-change';
import { CustomerSection } from './customer';
import { EmailSection } from './email';
import { PasswordSection } from './password';
import { ProfileSection } from './profile';
import { ProtectionSummary } from './protection-summary';
import { RecentSignInProvider } from './recent-sign-in';
import { RememberedBrowsersSection } from './remembered-browsers';
import { useSecurityCentreViewQuery } from './security-centre.api';
import { SectionMenu, useCentreSections } from './section-menu';
import { SessionsSection } from './sessions';
import { SECURITY_CENTRE_NS, useSecurityCentreStrings } from './security-centre-strings';
import { PasskeysSection } from './passkeys';
import { RecoveryCodesSection } from './recovery-codes';
import { TwoStepSection } from './two-step';
import { VendorAccountSection } from './vendor-account';
import './security-centre.css';

/**
 * The security centre (issue 43, ADR 0036): the signed-in home's own account settings. Loaded lazily by the account
 * page, with its own strings, so the sign-in page's bytes do not grow. `linkedAccounts` is the page's existing
 * linked-accounts card, passed in so this module does not import it twice.
 */
export function SecurityCentre({ linkedAccounts }: { linkedAccounts?: React.ReactNode }) {
  const ready = useSecurityCentreStrings();
  const { data: view } = useSecurityCentreViewQuery();
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  if (!ready || !view) return <ProgressBar active label="…" />;
  return (
    <section aria-labelledby="security-centre-heading" className="security-centre">
      <Stack>
        <h2 id="security-centre-heading" className="security-centre__heading">
          {t('heading')}
        </h2>
        {/* Issue 49: what protects the account, then a way to each section, before the long column of cards. */}
        <ProtectionSummary view={view} />
        <CentreMenu view={view} withLinkedAccounts={linkedAccounts !== undefined} />
        <ConfirmEmailChange />
        <RecentSignInProvider recent={view.recentSignInUntil > 0}>
          <Stack>
            <ProfileSection view={view} />
            {view.vendorAccount ? (
              // A vendor account's credentials are its provider's (ADR 0041): why, instead of the actions.
              <>
                <VendorAccountSection vendorAccount={view.vendorAccount} />
                <CustomerSection view={view} />
              </>
            ) : (
              <>
                <EmailSection view={view} />
                <CustomerSection view={view} />
                <TwoStepSection view={view} />
                <PasskeysSection view={view} />
                <RecoveryCodesSection view={view} />
                <PasswordSection view={view} />
              </>
            )}
            <SessionsSection view={view} />
            {view.vendorAccount ? null : (
              <>
                <RememberedBrowsersSection view={view} />
                {linkedAccounts}
              </>
            )}
          </Stack>
        </RecentSignInProvider>
      </Stack>
    </section>
  );
}

/** The in-page menu for the sections this view shows. */
function CentreMenu({ view, withLinkedAccounts }: { view: SecurityCentreView; withLinkedAccounts: boolean }) {
  return <SectionMenu sections={useCentreSections(view, withLinkedAccounts)} />;
}
