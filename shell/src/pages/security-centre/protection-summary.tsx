import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { Card } from 'shared-contracts/ui';
import { SectionLink } from './section-menu';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * At or below this many recovery codes left the summary warns (issue 49, ADR 0047): a set has ten, and one lost
 * phone can take a code a day for a few days before a new one is set up.
 */
export const RECOVERY_CODES_LOW = 3;

/** One warning of the summary: its text and the section that fixes it (its heading's id and name). */
interface ProtectionWarning {
  key: string;
  text: string;
  section: string;
  sectionName: string;
}

/**
 * What the summary says of the account's protection, derived from the view the centre already loads, so it changes
 * with every change (the view is refetched through the shared `Account` tag). A vendor account's factors are its
 * provider's (ADR 0041): no two-step or passkey counts, no warnings about them.
 */
export function useProtectionSummary(view: SecurityCentreView) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const facts: string[] = [];
  const warnings: ProtectionWarning[] = [];
  if (view.vendorAccount) {
    facts.push(t('summary.vendor', { provider: view.vendorAccount.provider }));
  } else {
    const twoStepOn = view.twoStep.methods.length > 0;
    facts.push(t(twoStepOn ? 'summary.twoStepOn' : 'summary.twoStepOff'));
    facts.push(t('summary.passkeys', { count: view.passkeys.length }));
    if (!twoStepOn) {
      warnings.push({
        key: 'twoStepOff',
        text: t('summary.warnTwoStepOff'),
        section: 'two-step-heading',
        sectionName: t('twoStep.heading'),
      });
    } else if (view.recoveryCodes.remaining <= RECOVERY_CODES_LOW) {
      warnings.push({
        key: 'codesLow',
        text: t('summary.warnCodesLow', { count: view.recoveryCodes.remaining }),
        section: 'recovery-codes-heading',
        sectionName: t('recoveryCodes.heading'),
      });
    }
  }
  facts.push(t('summary.sessions', { count: view.sessions.length }));
  return { facts, warnings };
}

/**
 * The top of the centre (issue 49): the account's protection in one line ("Two-step verification on · 2 passkeys ·
 * signed in on 3 devices") and a warning, with a link to the section that fixes it, when two-step verification is
 * off or few recovery codes are left. A warning says "Warning" in words, not only in colour.
 */
export function ProtectionSummary({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const { facts, warnings } = useProtectionSummary(view);
  return (
    <Card className="security-centre__summary-card">
      <section aria-labelledby="security-summary-heading" data-testid="security-summary">
        <h2 id="security-summary-heading" className="security-centre__summary-heading">
          {t('summary.heading')}
        </h2>
        <ul className="security-centre__summary" data-testid="security-summary-facts">
          {facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
        {warnings.map((warning) => (
          <p
            key={warning.key}
            className="security-centre__warning"
            data-testid={`summary-warning-${warning.key}`}
          >
            <strong>{t('summary.warning')}</strong> {warning.text}{' '}
            <SectionLink id={warning.section}>
              {t('summary.goTo', { section: warning.sectionName })}
            </SectionLink>
          </p>
        ))}
      </section>
    </Card>
  );
}
