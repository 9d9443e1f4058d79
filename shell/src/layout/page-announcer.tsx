import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { partnerPageTitle, type RouteDefinition } from 'shared-contracts';
import { usePartnerMetadataQuery } from '../platform/platform.api';

/** The document title of a page: its own title, then the partner's ("Sign in – Acme Payroll Identity"). */
export function documentTitle(pageTitle: string, siteTitle: string): string {
  return pageTitle ? `${pageTitle} – ${siteTitle}` : siteTitle;
}

// The partner's title the gateway wrote into the first HTML, until the partner's metadata is known.
const firstTitle = typeof document === 'undefined' ? '' : document.title;

/**
 * Names each page in the document title, in the visitor's language, and after an in-app navigation moves focus to
 * the new page's heading (a screen reader reads it out, and the next Tab starts at the page, not the header),
 * unless the page has already put focus somewhere itself, such as its first field.
 */
export function PageAnnouncer({ route }: { route: RouteDefinition }) {
  const { t, i18n } = useTranslation('common');
  const { data: partner } = usePartnerMetadataQuery();
  const location = useLocation();
  const previousPath = useRef(location.pathname);
  const siteTitle = partner ? partnerPageTitle(partner.partnerName) : firstTitle;
  const pageTitle = t(route.titleKey, {
    ns: route.owner === 'shell' ? 'common' : route.owner,
    defaultValue: route.title,
  });

  useEffect(() => {
    document.title = documentTitle(pageTitle, siteTitle);
  }, [pageTitle, siteTitle, i18n.language]);

  useEffect(() => {
    if (previousPath.current === location.pathname) return;
    previousPath.current = location.pathname;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }, [location.pathname]);

  return null;
}
