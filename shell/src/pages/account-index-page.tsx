import { useTranslation } from 'react-i18next';
import { Link, useRouteLoaderData } from 'react-router';
import { Card, Page } from 'shared-contracts/ui';
import type { GuardData } from '../router/guard';
import { LinkedAccounts } from './linked-accounts';
import { SignedInCard } from './signed-in-card';

/**
 * `/account/` (and `/account`): a signed-in person sees who is signed in and the ways on; a visitor the account pages
 * to start from.
 */
export function AccountIndexPage() {
  const { t } = useTranslation('common');
  const user = useRouteLoaderData<GuardData>('root')?.user;
  return (
    <Page title={t('routes.accountIndex')} pageId="account-index">
      {user?.isAuthenticated ? (
        <>
          <SignedInCard user={user} />
          <LinkedAccounts />
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
