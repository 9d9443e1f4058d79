import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, FormErrors, Page, Stack } from 'shared-contracts/ui';
import { useUpstreamLogoutMutation, useUpstreamLogoutViewQuery } from './external.api';

const NS = 'mfe-login';

/**
 * `/account/logout/upstream`: the browser has signed out here; it had signed in through an upstream provider, so
 * the page asks whether to sign out there too (UpstreamLogout with `yes` or `no`, S27). Yes goes to the upstream's
 * end-session, which sends the browser back to `/account/loggedout`.
 */
export function UpstreamLogoutPage() {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const logoutId = search.get('logoutId') ?? undefined;
  const { data: view, isLoading } = useUpstreamLogoutViewQuery({ logoutId });
  const [answer, { isLoading: answering, error, originalArgs }] = useUpstreamLogoutMutation();
  const errors = useFormErrors(error);
  const loggedOut = `/account/loggedout${logoutId ? `?logoutId=${encodeURIComponent(logoutId)}` : ''}`;
  return (
    <Page title={t('routes.logoutUpstream')} pageId="logout-upstream">
      <Card>
        <Stack>
          <Alert kind="info">{t('errors:loggedOut')}</Alert>
          {isLoading ? <p aria-live="polite">{t('login.loading')}</p> : null}
          <FormErrors messages={errors.form} />
          {view?.upstream ? (
            <>
              <p>{t('upstreamLogout.question', { provider: view.upstream })}</p>
              <Button
                loading={answering && originalArgs?.button === 'yes'}
                onClick={() => void answer({ button: 'yes' })}
              >
                {t('upstreamLogout.yes', { provider: view.upstream })}
              </Button>
              <Button
                variant="secondary"
                loading={answering && originalArgs?.button === 'no'}
                onClick={() => void answer({ button: 'no' })}
              >
                {t('upstreamLogout.no')}
              </Button>
            </>
          ) : null}
          {view && !view.upstream ? <Link to={loggedOut}>{t('upstreamLogout.continue')}</Link> : null}
        </Stack>
      </Card>
    </Page>
  );
}
