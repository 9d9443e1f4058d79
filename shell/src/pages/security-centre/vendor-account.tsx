import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { Card, Stack } from 'shared-contracts/ui';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * A vendor account's sign-in (issue 48, ADR 0041): it signs in through its provider only, so the centre says why
 * instead of offering a password, an e-mail address, passkeys, two-step verification or recovery codes (the server
 * refuses each with `vendorCredentialsOnly` anyway).
 */
export function VendorAccountSection({
  vendorAccount,
}: {
  vendorAccount: NonNullable<SecurityCentreView['vendorAccount']>;
}) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  return (
    <Card>
      <section aria-labelledby="vendor-account-heading" data-testid="vendor-account">
        <Stack>
          <h2 id="vendor-account-heading">{t('vendorAccount.heading')}</h2>
          <p>{t('vendorAccount.managedThere', { provider: vendorAccount.provider })}</p>
          <p>{t('vendorAccount.nothingHere')}</p>
        </Stack>
      </section>
    </Card>
  );
}
