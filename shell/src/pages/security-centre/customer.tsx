import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { withReturnUrl, type SecurityCentreView } from 'shared-contracts';
import { Card, Stack } from 'shared-contracts/ui';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * The customer chosen for this session, and the way to customer selection. Choosing one in mfe-tenant invalidates
 * the shared `Account` tag, so coming back shows the new customer without a reload.
 */
export function CustomerSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  if (!view.customer && !view.canSwitchCustomer) return null;
  return (
    <Card>
      <section aria-labelledby="customer-heading" data-testid="customer">
        <Stack>
          <h2 id="customer-heading">{t('customer.heading')}</h2>
          <p>{view.customer ? t('customer.current', { name: view.customer.name }) : t('customer.none')}</p>
          {view.canSwitchCustomer ? (
            <Link
              className="hr-button hr-button--secondary"
              to={withReturnUrl('/account/select', '/account/')}
            >
              {t('customer.switch')}
            </Link>
          ) : null}
        </Stack>
      </section>
    </Card>
  );
}
