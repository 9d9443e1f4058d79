import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigation, useRouteLoaderData } from 'react-router';
import { findRoute, ROUTES } from 'shared-contracts';
import { ProgressBar, SiteFrame } from 'shared-contracts/ui';
import { useIdleSignOut } from '../platform/idle-sign-out';
import { PageAfterFrame } from '../platform/page-after-frame';
import { IdleWarning } from './idle-warning';
import { PartnerFooter, PartnerHeader } from '../platform/partner-header';
import { UntranslatedNotice } from '../platform/untranslated-notice';
import type { GuardData } from '../router/guard';
import { PageAnnouncer } from './page-announcer';
import { useSignedInName } from './signed-in-name';
import { ScrollManager } from './scroll-manager';

const NOT_FOUND = ROUTES.find((r) => r.path === '*')!;

/**
 * The page frame: the navbar by the route's layout flags (SPEC.md §2: `/devops` has none; no page draws a side
 * panel, ADR 0037), the navigation progress bar and the scroll rules. Branding, title, theme and
 * language come from the platform (PlatformRoot, PartnerHeader, PartnerFooter).
 */
export function AppLayout() {
  const { t } = useTranslation('common');
  const location = useLocation();
  const navigation = useNavigation();
  const route = findRoute(location.pathname) ?? NOT_FOUND;
  // The partner's idle sign-out (ADR 0020): inside the router, so its 209 navigates in-app.
  const { signOutAt } = useIdleSignOut();
  // The header's account menu (issue 49) is for a signed-in person; a pending sign-in is not one yet.
  const signedInName = useSignedInName(useRouteLoaderData<GuardData>('root')?.user);

  return (
    <>
      <SiteFrame
        skipLabel={t('app.skipToContent')}
        layout={route.layout}
        top={
          <>
            <ProgressBar active={navigation.state !== 'idle'} label={t('app.loading')} />
            <ScrollManager />
            <PageAnnouncer route={route} />
          </>
        }
        header={<PartnerHeader signedInName={signedInName} />}
        footer={<PartnerFooter />}
      >
        <PageAfterFrame>
          <Outlet />
        </PageAfterFrame>
        {signOutAt !== undefined ? <IdleWarning key={signOutAt} signOutAt={signOutAt} /> : null}
      </SiteFrame>
      {/* After the page, not above it: the drawn first paint has no notice, so one above would move the form. Drawn
        here, in the same commit as the page, not beside the router: drawn before the route's page, it sat at the
        top and the page then pushed it down (a layout shift in every untranslated language). */}
      <UntranslatedNotice />
    </>
  );
}
