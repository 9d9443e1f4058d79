import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ConfirmItsYouHere, useConsoleAccessQuery } from 'shared-contracts/account-ui';
import type { ConsolePermissionName } from 'shared-contracts/console';
import { Page, ProgressBar } from 'shared-contracts/ui';
import 'shared-contracts/account-ui/account-ui.css';
import '../../admin.css';
import { pagesFor } from './console-pages';

/** The security centre, where a second factor or a passkey is set up (ADR 0036). */
const SECURITY_CENTRE_PATH = '/account/';

/** Props of {@link ConsoleLayout}. */
export interface ConsoleLayoutProps {
  /** The page's title key in this remote's namespace (`routes.releases`). */
  titleKey: string;
  /** What the page needs; a caller without it gets the "no access" page, never the page or a raw Forbidden. */
  permission: ConsolePermissionName;
  /** Where this page is (the "Confirm it's you" way out comes back here). */
  path: string;
  children: ReactNode;
}

/** "You don't have access to the console": a signed-in account without the permission a page needs. */
export function NoConsoleAccess() {
  const { t } = useTranslation('mfe-admin');
  return (
    <Page title={t('access.deniedTitle')} pageId="console-denied">
      <p>{t('access.deniedBody')}</p>
      <p>
        <Link to="/">{t('access.home')}</Link>
      </p>
    </Page>
  );
}

/**
 * Every console page inside its frame (ADR 0060): ConsoleAccess decides. Without the page's permission, the "no
 * access" page; with grants but neither a second factor nor a passkey, the page that says to set one up (the
 * gateway refuses every console call until then); else the console's navigation (built from the permissions) and
 * the page, with "Confirm it's you" mounted once for its changes.
 */
export function ConsoleLayout({ titleKey, permission, path, children }: ConsoleLayoutProps) {
  const { t } = useTranslation('mfe-admin');
  const { pathname } = useLocation();
  const { data: access, isLoading } = useConsoleAccessQuery();
  if (isLoading || !access) return <ProgressBar active label={t('console.loading')} />;
  if (!access.permissions.includes(permission)) return <NoConsoleAccess />;
  if (!access.secondFactorReady) {
    return (
      <Page title={t('access.secondFactorTitle')} pageId="console-second-factor">
        <p>{t('access.secondFactorBody')}</p>
        <p>
          <Link to={SECURITY_CENTRE_PATH}>{t('access.securityCentre')}</Link>
        </p>
      </Page>
    );
  }
  return (
    <div className="admin-console">
      <nav className="admin-console__nav" aria-label={t('console.navLabel')}>
        <ul>
          {pagesFor(access.permissions).map((page) => (
            <li key={page.path}>
              {/* react-router's NavLink is not in the shared narrow router (bytes of every page): aria-current here. */}
              <Link to={page.path} aria-current={page.path === pathname ? 'page' : undefined}>
                {t(page.titleKey)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Page title={t(titleKey)} pageId="console-page">
        {children}
      </Page>
      <ConfirmItsYouHere namespace="mfe-admin" returnUrl={path} />
    </div>
  );
}
