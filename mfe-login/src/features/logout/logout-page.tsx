import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Page, Stack } from 'shared-contracts/ui';
import { useLogoutMutation, useLogoutViewQuery } from './logout.api';

const NS = 'mfe-login';

/**
 * `/account/logout?logoutId=`: asks for confirmation when LogoutView says so (a sign-out not proven by the
 * client, S32), otherwise signs out at once. Logout answers 209, which the base query follows.
 */
export function LogoutPage() {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const logoutId = search.get('logoutId') ?? undefined;
  const { data: view, isLoading: viewLoading, error: viewError } = useLogoutViewQuery({ logoutId });
  const [logout, { isLoading, error }] = useLogoutMutation();
  const errors = useFormErrors(error ?? viewError);
  const started = useRef(false);

  const signOut = useCallback(() => {
    started.current = true;
    void logout({ logoutId });
  }, [logout, logoutId]);

  // Without a prompt the page signs out by itself, once: the ref keeps a re-run (a refetched view, Strict
  // Mode's double effect) from sending Logout twice.
  useEffect(() => {
    if (view && !view.showLogoutPrompt && !started.current) signOut();
  }, [view, signOut]);

  const prompt = view?.showLogoutPrompt === true;
  return (
    <Page title={t('routes.logout')} pageId="logout">
      <Card>
        <Stack>
          {errors.form.length > 0 ? <Alert kind="error">{errors.form.join(' ')}</Alert> : null}
          {viewLoading || (!prompt && !errors.any) ? (
            <p aria-live="polite">{t('logout.signingOut')}</p>
          ) : null}
          {prompt ? (
            <>
              {view.clientName ? <p>{t('logout.clientAsked', { client: view.clientName })}</p> : null}
              <p>{t('logout.confirm')}</p>
              <Button onClick={signOut} loading={isLoading}>
                {t('logout.yes')}
              </Button>
              <Link to="/">{t('logout.cancel')}</Link>
            </>
          ) : null}
        </Stack>
      </Card>
    </Page>
  );
}
