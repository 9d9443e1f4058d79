import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { findRoute, ROUTES } from 'shared-contracts';
import { ProgressBar } from 'shared-contracts/ui';
import { usePartner } from '../platform/partner-context';
import { PartnerFooter, PartnerHeader } from '../platform/partner-header';
import { ScrollManager } from './scroll-manager';

const NOT_FOUND = ROUTES.find((r) => r.path === '*')!;

/**
 * The page frame: navbar and sidebar by the route's layout flags (SPEC.md §2: `/` has no sidebar, `/devops`
 * neither sidebar nor navbar), the navigation progress bar and the scroll rules. Branding, title, theme and
 * language come from the platform (PlatformRoot, PartnerHeader, PartnerFooter).
 */
export function AppLayout() {
  const { t } = useTranslation('common');
  const location = useLocation();
  const navigation = useNavigation();
  const partner = usePartner();
  const route = findRoute(location.pathname) ?? NOT_FOUND;

  return (
    <div className="shell" data-sidebar={route.layout.sidebar} data-navbar={route.layout.navbar}>
      <a className="shell__skip" href="#main">
        {t('app.skipToContent')}
      </a>
      <ProgressBar active={navigation.state !== 'idle'} label={t('app.loading')} />
      <ScrollManager />
      {route.layout.navbar ? <PartnerHeader /> : null}
      <div className="shell__body">
        {route.layout.sidebar ? (
          <aside className="shell__sidebar" aria-label={t('app.sidebarLabel')}>
            <p className="shell__sidebar-name">{partner.partnerName}</p>
          </aside>
        ) : null}
        <main id="main" className="shell__main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      {route.layout.navbar ? <PartnerFooter /> : null}
    </div>
  );
}
