import { useTranslation } from 'react-i18next';
import { useRouteLoaderData } from 'react-router';
import { Page, ProgressBar } from 'shared-contracts/ui';
import { onDemand } from '../platform/on-demand';
import { PartUnavailable } from '../platform/part-unavailable';
import type { GuardData } from '../router/guard';
import { LinkedAccounts } from './linked-accounts';
import { SignedInCard } from './signed-in-card';

// The security centre (ADR 0036) loads only for a signed-in person who opens this page: the sign-in page's first
// load carries none of its code, styles or strings. Code that cannot load says so in its place, with Try again.
const SecurityCentre = onDemand(
  'security-centre',
  () => import('./security-centre/security-centre-page').then((m) => ({ default: m.SecurityCentre })),
  { loading: <ProgressBar active label="…" />, Failed: PartUnavailable },
);

/**
 * `/account/` (and `/account`): a signed-in person sees who is signed in, the ways on and the security centre. A
 * visitor never sees it: the guard, which loads the user before every navigation, sends them to sign in and back
 * here (issue 49, `accountSignInPath` in router/guard.ts).
 */
export function AccountIndexPage() {
  const { t } = useTranslation('common');
  const user = useRouteLoaderData<GuardData>('root')?.user;
  if (!user?.isAuthenticated) return null;
  return (
    <Page title={t('routes.accountIndex')} pageId="account-index">
      <SignedInCard user={user} securityCentreLink={false} />
      {/* The centre's place keeps its distance from the card whatever fills it: the centre, its progress bar or its
          fallback (the centre's own styles arrive with its chunk, so the spacing lives in the first load). */}
      <div className="shell__account-centre">
        <SecurityCentre linkedAccounts={<LinkedAccounts />} />
      </div>
    </Page>
  );
}
