import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useRouteLoaderData } from 'react-router';
import { withReturnUrl } from 'shared-contracts';
import { Card, Page, ProgressBar } from 'shared-contracts/ui';
import type { GuardData } from '../router/guard';
import { LinkedAccounts } from './linked-accounts';
import { SignedInCard } from './signed-in-card';

// The security centre (ADR 0036) loads only for a signed-in person who opens this page: the sign-in page's first
// load carries none of its code, styles or strings.
const SecurityCentre = lazy(() =>
  import('./security-centre/security-centre-page').then((m) => ({ default: m.SecurityCentre })),
);

/**
 * `/account/` (and `/account`): a signed-in person sees who is signed in, the ways on and the security centre; a
 * visitor the account pages to start from.
 */
export function AccountIndexPage() {
  const { t } = useTranslation('common');
  const user = useRouteLoaderData<GuardData>('root')?.user;
  const location = useLocation();
  // An e-mail change link (ADR 0036) opened while signed out: sign in, then come back to it.
  const signIn = location.search.includes('confirmEmail=')
    ? withReturnUrl('/account/login', `/account/${location.search}`)
    : '/account/login';
  return (
    <Page title={t('routes.accountIndex')} pageId="account-index">
      {user?.isAuthenticated ? (
        <>
          <SignedInCard user={user} />
          <Suspense fallback={<ProgressBar active label="…" />}>
            <SecurityCentre linkedAccounts={<LinkedAccounts />} />
          </Suspense>
        </>
      ) : (
        <Card>
          <ul className="hr-stack">
            <li>
              <Link to={signIn}>{t('accountIndex.signIn')}</Link>
            </li>
            <li>
              <Link to="/account/recover">{t('accountIndex.recover')}</Link>
            </li>
          </ul>
        </Card>
      )}
    </Page>
  );
}
