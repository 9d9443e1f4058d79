import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, withReturnUrl } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, FormErrors, Page, Stack } from 'shared-contracts/ui';
import { useVendorLoginMutation } from '../shared/vendor-login.api';
import { useVendorLoginViewQuery } from './external.api';

const NS = 'mfe-login';

/**
 * `/account/login/vendor?vendorId=`: the provider's name and a continue button (VendorLoginView, VendorLogin). The
 * sign-in itself happens at the vendor's own identity provider; the gateway's callback brings the browser back.
 */
export function VendorLoginPage() {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const vendorId = search.get('vendorId') ?? '';
  const returnUrl = returnUrlOf(search);
  const { data: view, isLoading, isError } = useVendorLoginViewQuery({ vendorId }, { skip: !vendorId });
  const [vendorLogin, { isLoading: starting, error }] = useVendorLoginMutation();
  // SPEC.md §7: vendor and one-time-token login ignore empty failures (no raw "Internal Server Error").
  const errors = useFormErrors(error, { ignoreEmpty: true });
  const unknown = !vendorId || isError;
  return (
    <Page title={t('routes.loginVendor')} pageId="login-vendor">
      <Card>
        <Stack>
          {isLoading ? <p aria-live="polite">{t('login.loading')}</p> : null}
          {unknown ? <Alert kind="error">{t('vendor.unknown')}</Alert> : null}
          {view ? (
            <>
              <p>{t('vendor.intro', { name: view.name })}</p>
              <FormErrors messages={errors.form} />
              <Button
                loading={starting}
                onClick={() => void vendorLogin({ vendorId: view.vendorId, returnUrl })}
              >
                {t('vendor.continue', { name: view.name })}
              </Button>
            </>
          ) : null}
          <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
        </Stack>
      </Card>
    </Page>
  );
}
