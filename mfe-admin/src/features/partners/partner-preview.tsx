import { useTranslation } from 'react-i18next';
import { contrastingTextColour, parseRgb, partnerDisplayName, safeCssColour } from 'shared-contracts';

/** The unsaved branding the preview shows. */
export interface PreviewBranding {
  name: string;
  backgroundColor: string;
  /** The chosen file's object URL, or the stored logo's address; null without a logo. */
  logoUrl: string | null;
  languages: readonly string[];
  showLanguageOptions: boolean;
  showLoginProviders: boolean;
}

const FRAMES = [
  { width: 'phone', theme: 'light' },
  { width: 'phone', theme: 'dark' },
  { width: 'desktop', theme: 'light' },
  { width: 'desktop', theme: 'dark' },
] as const;

/**
 * The partner's sign-in page as it will look with the form's unsaved values (ADR 0062): the sign-in frame rendered
 * here at phone and desktop width, light and dark. The colour goes through the shell's own check (S34) and text on
 * it takes the same contrast rule, so an unsafe value previews as no colour, as the sign-in page would show it.
 */
export function PartnerPreview({ branding }: { branding: PreviewBranding }) {
  const { t } = useTranslation('mfe-admin');
  const colour = safeCssColour(branding.backgroundColor);
  const rgb = colour ? parseRgb(colour) : undefined;
  const ink = rgb ? contrastingTextColour(rgb) : undefined;
  const name = partnerDisplayName(branding.name);
  return (
    <section className="admin-preview" aria-labelledby="partner-preview-title" data-testid="partner-preview">
      <h2 id="partner-preview-title">{t('partners.preview.title')}</h2>
      <p className="admin-muted">{t('partners.preview.intro')}</p>
      <div className="admin-preview__frames">
        {FRAMES.map(({ width, theme }) => (
          <figure
            key={`${width}-${theme}`}
            className={`admin-preview__frame admin-preview__frame--${width}`}
            data-theme={theme}
            data-testid={`partner-preview-${width}-${theme}`}
          >
            <div
              className="admin-preview__page"
              style={colour ? { backgroundColor: colour, color: ink } : undefined}
              aria-hidden="true"
            >
              <div className="admin-preview__card">
                {branding.logoUrl ? (
                  <img className="admin-preview__logo" src={branding.logoUrl} alt="" />
                ) : (
                  <span className="admin-preview__name">{name}</span>
                )}
                <span className="admin-preview__heading">{t('partners.preview.signIn')}</span>
                <span className="admin-preview__input" />
                <span className="admin-preview__input" />
                <span className="admin-preview__button">{t('partners.preview.continue')}</span>
                {branding.showLoginProviders ? (
                  <span className="admin-preview__provider">{t('partners.preview.provider')}</span>
                ) : null}
                {branding.showLanguageOptions && branding.languages.length > 1 ? (
                  <span className="admin-preview__languages">{branding.languages.join(' · ')}</span>
                ) : null}
              </div>
            </div>
            <figcaption>{t(`partners.preview.${width}-${theme}`)}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}
