import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { safeHttpUrl, UPSTREAM_KEPT_QUERY } from 'shared-contracts';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';
import { useLogoutViewQuery } from './logout.api';

const NS = 'mfe-login';

/**
 * `/account/loggedout`: "Signed out", "You have signed out." or, with `?reason=inactivity`, the inactivity message
 * (SPEC.md §8's meanings in issue 43's words, ADR 0038).
 * After an application's sign-out (`?logoutId=`), LogoutView answers — once, to this browser, from the server's
 * record — the application's name and its registered post-logout address. The browser then returns to the
 * application by itself, as Keycloak and Auth0 do; the "Return to <client>" link stays for the moment before, and
 * for a browser that does not follow. The address never comes from the query.
 * With `?upstream=kept` (issue 53), the person said yes to signing out of their company's provider, which has no
 * end-session endpoint: signed out here only, and the page says so (it names no provider, so a forged flag can
 * only show this general note).
 */
export function LoggedOutPage() {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const inactivity = search.get('reason') === 'inactivity';
  const [keptName, keptValue] = UPSTREAM_KEPT_QUERY.split('=');
  const upstreamKept = search.get(keptName!) === keptValue;
  // An upstream's end-session comes back with the application's logoutId as `state` (ADR 0018).
  const logoutId = search.get('logoutId') ?? search.get('state') ?? undefined;
  const { data: view } = useLogoutViewQuery({ logoutId }, { skip: !logoutId });
  // The server checked the address against the client's registration (S32); http(s) only, as a second guard.
  const returnTo = view?.loggedOut ? safeHttpUrl(view.postLogoutRedirectUri) : undefined;
  useEffect(() => {
    if (returnTo) globalThis.location.assign(returnTo);
  }, [returnTo]);
  return (
    <Page title={t('routes.loggedOut')} pageId="loggedout">
      <Card>
        <Stack>
          <Alert kind="info">{inactivity ? t('loggedOut.inactivity') : t('loggedOut.message')}</Alert>
          {upstreamKept ? <Alert kind="warning">{t('loggedOut.upstreamKept')}</Alert> : null}
          {returnTo ? (
            <a href={returnTo} data-testid="return-to-client">
              {t('loggedOut.returnTo', { client: view?.clientName ?? new URL(returnTo).host })}
            </a>
          ) : null}
          <Link to="/account/login">{t('loggedOut.signInAgain')}</Link>
        </Stack>
      </Card>
    </Page>
  );
}
