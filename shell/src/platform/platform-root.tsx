import './platform.css';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { partnerDisplayName } from 'shared-contracts';
import { CaptchaOutlet } from '../captcha/captcha-outlet.js';
import { applyPartnerBranding, partnerBranding } from './branding.js';
import { InlineToasts } from './inline-toasts.js';
import { OfflineNotice } from './offline-notice.js';
import { PartnerContext } from './partner-context.js';
import { FALLBACK_PARTNER, usePartnerMetadataQuery } from './platform.api.js';
import { PlatformToaster } from './platform-toaster.js';
import { rememberedPartner, rememberPartner } from './remembered-partner.js';
import { useDocumentDirection, useDocumentTheme } from './use-document-attributes.js';
import { usePartnerLocale } from './use-partner-locale.js';
import { useToastEvents } from './use-toast-events.js';
import { applyTheme, followSystemTheme, readColorScheme } from './theme.js';

/** Props of {@link PlatformRoot}. */
export interface PlatformRootProps {
  children: ReactNode;
  /** Registers the offline worker; off in the dev server and unit tests. */
  offlineWorker?: boolean;
}

/**
 * The shell platform around the router: loads the partner (SPEC.md §4 start-up), applies its branding and
 * locale, keeps the theme painted, registers the offline worker with its update toast, shows the offline
 * notice, the notice of a language without translations and the toast outlets (sonner's on wider screens, the
 * inline one on phones: ADR 0031). Every remote
 * inherits all of it through the document and {@link usePartner}.
 */
export function PlatformRoot({ children, offlineWorker = true }: PlatformRootProps) {
  const { i18n } = useTranslation('common');
  const { data: answered, isError } = usePartnerMetadataQuery();
  // Offline (or the call failed), the partner this host answered last keeps the page branded, never "Partner".
  const partner = answered ?? (isError ? rememberedPartner() : undefined);
  useEffect(() => {
    if (answered) rememberPartner(answered);
  }, [answered]);
  const theme = useDocumentTheme();
  const dir = useDocumentDirection();
  useEffect(() => {
    applyTheme(readColorScheme());
    // Reads the saved choice on each system change, so a choice made in the theme switch is honoured.
    return followSystemTheme(() => readColorScheme());
  }, []);
  usePartnerLocale(partner);
  useToastEvents();

  // The first HTML already carries the partner's title and colour; apply only real metadata, never the
  // fallback, so the page does not flash "Partner Identity" while the call is in flight.
  useEffect(() => {
    if (partner) applyPartnerBranding(partnerBranding(partner));
  }, [partner]);

  const displayName = partnerDisplayName(
    partner?.partnerName ?? (document.title.replace(/ Identity$/, '') || undefined),
  );
  // The worker is registered once per page, but its update toast names the partner known when it shows.
  const productName = useRef(displayName);
  useEffect(() => {
    productName.current = displayName;
  }, [displayName]);

  // After the page's load event, as a chunk of its own: the first screen does not need the worker (nor
  // workbox-window's ≈ 2 KB), and registering it then keeps its precache off the page's own start (issue 10).
  useEffect(() => {
    if (!offlineWorker) return;
    let cancelled = false;
    const start = () => {
      import('./offline-worker.js').then(
        ({ registerOfflineWorker }) => {
          if (!cancelled) registerOfflineWorker({ i18n, productName: () => productName.current });
        },
        (error: unknown) => console.error('[shell] the offline worker could not load', error),
      );
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', start);
    };
  }, [offlineWorker, i18n]);

  return (
    <PartnerContext.Provider value={partner ?? FALLBACK_PARTNER}>
      <OfflineNotice />
      {children}
      <CaptchaOutlet />
      <InlineToasts />
      <PlatformToaster theme={theme} dir={dir} />
    </PartnerContext.Provider>
  );
}
