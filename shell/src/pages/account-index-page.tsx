import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteLoaderData } from 'react-router';
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
              <Link to="/account/login">{t('accountIndex.signIn')}</Link>
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
