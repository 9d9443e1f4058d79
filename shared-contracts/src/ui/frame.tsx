import type { ReactNode } from 'react';

/** Props of {@link BrandBand}. */
export interface BrandBandProps {
  /** The partner's display name, plain text. */
  name: string;
  /**
   * Same-origin URL of the partner's logo, only when the partner has one: a partner without a logo gets its name
   * and no image request (a request that can only answer 404 is waste on the first screen).
   */
  logoUrl?: string | undefined;
  /** Text alternative of the logo; the name when not given. */
  logoAlt?: string | undefined;
  /** Called when the logo cannot be shown, so the caller can fall back to the name. */
  onLogoError?: () => void;
}

/**
 * The partner's logo, or its name when it has none, at the inline start of the header. It stays visible at every
 * width, so a phone, where the side panel is hidden, still shows whose sign-in page this is above the form.
 */
export function BrandBand({ name, logoUrl, logoAlt, onLogoError }: BrandBandProps) {
  return (
    <div className="hr-brand" data-testid="brand-band">
      {logoUrl ? (
        <img
          className="hr-brand__logo"
          data-testid="partner-logo"
          src={logoUrl}
          alt={logoAlt ?? name}
          onError={onLogoError}
        />
      ) : (
        <span className="hr-brand__name" data-testid="partner-name" title={name}>
          {name}
        </span>
      )}
    </div>
  );
}

/** Props of {@link SiteHeader}. */
export interface SiteHeaderProps {
  brand: ReactNode;
  /** The header's controls (language, theme); their row keeps its height while they are not there yet. */
  controls?: ReactNode;
}

/** The branded header: brand at the inline start, controls at the inline end (a row of their own on phones). */
export function SiteHeader({ brand, controls }: SiteHeaderProps) {
  return (
    <header className="platform-header" data-testid="partner-header">
      {brand}
      <div className="platform-controls">{controls}</div>
    </header>
  );
}

/** Props of {@link SiteFrame}. */
export interface SiteFrameProps {
  /** Text of the skip link ("Skip to content"). */
  skipLabel: string;
  /**
   * Layout switches of the route (SPEC.md §2), kept on the frame as `data-sidebar` / `data-navbar`. No page fills a
   * side panel, so none is drawn: a sign-in page is one centred card under the partner's header (ADR 0037).
   */
  layout: { sidebar: boolean; navbar: boolean };
  /** Shown above the header (the navigation progress bar, scroll rules). */
  top?: ReactNode;
  header?: ReactNode;
  footer?: ReactNode;
  children?: ReactNode;
}

/**
 * The page frame around every page: skip link, header, main area, footer. The shell renders it around
 * its router, and a remote's build-time render of a first page renders the very same frame, so the HTML the
 * gateway sends first and the page the app then shows are laid out by one component.
 */
export function SiteFrame({ skipLabel, layout, top, header, footer, children }: SiteFrameProps) {
  return (
    <div className="shell" data-sidebar={layout.sidebar} data-navbar={layout.navbar}>
      <a className="shell__skip" href="#main">
        {skipLabel}
      </a>
      {top}
      {layout.navbar ? header : null}
      <div className="shell__body">
        <main id="main" className="shell__main" tabIndex={-1}>
          {children}
        </main>
      </div>
      {layout.navbar ? footer : null}
    </div>
  );
}
