import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigation, useRouteLoaderData } from 'react-router';
import { findRoute, ROUTES } from 'shared-contracts';
import { useUserQuery } from 'shared-contracts/api';
import { ProgressBar, SiteFrame } from 'shared-contracts/ui';
import { onDemand } from '../platform/on-demand';
import { PageAfterFrame } from '../platform/page-after-frame';
import { usePartner } from '../platform/partner-context';
import { PartnerFooter, PartnerHeader } from '../platform/partner-header';
import { UntranslatedNotice } from '../platform/untranslated-notice';
import type { GuardData } from '../router/guard';
import { PageAnnouncer } from './page-announcer';
import { useSignedInName } from './signed-in-name';
import { ScrollManager } from './scroll-manager';

const NOT_FOUND = ROUTES.find((r) => r.path === '*')!;

// One that cannot load leaves the partner's shorter limit to the server's own idle timeout (S28, ADR 0020).
const IdleSignOut = onDemand('idle-sign-out', () =>
  import('./idle-warning.js').then((m) => ({ default: m.IdleSignOut })),
);

/**
 * The partner's idle sign-out (ADR 0020), its code loaded now: the limit runs from when this mounted (someone signed
 * in, a limit set), not from when the code arrived. Input before it arrives is not heard: the limit only starts
 * earlier.
 */
function IdleSignOutFromNow({ minutes }: { minutes: number }) {
  const [since] = useState(() => Date.now());
  return <IdleSignOut minutes={minutes} since={since} />;
}

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
  // The partner's idle sign-out (ADR 0020): inside the router, so its 209 navigates in-app; only for a signed-in
  // person whose partner sets a limit.
  const idleMinutes = usePartner().idleSignOutMinutes;
  const signedIn = useUserQuery().data?.isAuthenticated === true;
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
        {signedIn && idleMinutes > 0 ? <IdleSignOutFromNow key={idleMinutes} minutes={idleMinutes} /> : null}
      </SiteFrame>
      {/* After the page, not above it: the drawn first paint has no notice, so one above would move the form. Drawn
        here, in the same commit as the page, not beside the router: drawn before the route's page, it sat at the
        top and the page then pushed it down (a layout shift in every untranslated language). */}
      <UntranslatedNotice />
    </>
  );
}
