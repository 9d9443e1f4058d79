import type { Request } from 'express';
import {
  chooseLocale,
  CULTURE_COOKIE,
  cultureCookieLocale,
  DEFAULT_LOCALE,
  escapeHtmlText,
  findRoute,
  isRtlLocale,
  matchSupportedLocale,
  parseAcceptLanguage,
  partnerDisplayName,
  partnerLogoUrl,
  type RemoteId,
  type SupportedLocale,
} from 'shared-contracts';
import type { PartnerService } from '../identity/partners/partner.service.js';
import type { ReleaseRegistry } from '../releases/release-registry.js';
import { readCookie } from './cookies.js';

// Placeholders of the build-time render (mfe-login/src/first-paint/render.tsx) and its file layout
// (shared-contracts/build/first-paint.mjs): dist/first-paint/pages.json and <folder>/<locale>[.logo].html.
const NAME_SLOT = '__HR_FIRST_PAINT_PARTNER_NAME__';
const LOGO_SLOT = '__HR_FIRST_PAINT_PARTNER_LOGO__';
const APPLICATION_SLOT = '__HR_FIRST_PAINT_APPLICATION_NAME__';

/** What the first HTML needs of the request's partner. */
export interface FirstPaintPartner {
  partnerId: string;
  partnerName: string;
  defaultLanguage?: string | null | undefined;
  availableLanguages?: readonly { name: string }[] | null | undefined;
  /** Whether `GetPartnerLogo` has an image for this partner. */
  hasLogo: boolean;
}

/** The page drawn ahead for one request, with the document language it is written for. */
export interface FirstPaint {
  /** Markup for the shell's root element, partner values filled in and escaped. */
  html: string;
  /** The document's `lang` (the language the shell will choose) and its direction. */
  lang: string;
  dir: 'ltr' | 'rtl';
  /** The locale the text is written in: not `lang` when that language has no shipped text (en-GB then). */
  textLang: SupportedLocale;
  /** The logo URL when the partner has a logo (the shell then shows it without asking whether it exists). */
  logoUrl: string | undefined;
}

/**
 * The language the shell will choose for this visitor ({@link chooseLocale}, the same function the shell runs): the
 * culture cookie when the partner offers it, else the first language of Accept-Language the partner offers, else
 * the partner's default, else en-GB. The shell's saved choice in local storage is not visible here; the cookie
 * carries the same choice.
 */
export function firstPaintLanguage(
  partner: FirstPaintPartner,
  cultureCookie: string | undefined,
  acceptLanguage?: string,
): string {
  return chooseLocale({
    availableLanguages: partner.availableLanguages,
    defaultLanguage: partner.defaultLanguage,
    cookie: cultureCookieLocale(cultureCookie),
    accepted: parseAcceptLanguage(acceptLanguage),
  });
}

/**
 * The locale whose text the shell shows for a language: the shipped locale that fits it (the remotes' own rule,
 * `matchSupportedLocale`), else en-GB, its fallback.
 */
export function textLocaleOf(lang: string): SupportedLocale {
  return matchSupportedLocale(lang) ?? DEFAULT_LOCALE;
}

/**
 * Fills the placeholders of a drawn page: the partner's name and the application's as text, the logo URL as an
 * attribute, all escaped.
 */
export function fillFirstPaint(markup: string, partner: FirstPaintPartner, applicationName?: string): string {
  return markup
    .replaceAll(NAME_SLOT, escapeHtmlText(partnerDisplayName(partner.partnerName)))
    .replaceAll(LOGO_SLOT, escapeHtmlText(partnerLogoUrl(partner.partnerId)))
    .replaceAll(APPLICATION_SLOT, escapeHtmlText(applicationName ?? ''));
}

/**
 * Reads the pages a remote drew at build time from the release registry: the version the manifest gives this
 * browser (its bucket cookie, which the shell router gives a browser without one before this runs, ADR 0059; the
 * active version when there is none), whose files this replica holds in
 * memory whenever the manifest names it (ADR 0033).
 */
export class FirstPaintPages {
  constructor(
    private readonly releases: Pick<ReleaseRegistry, 'manifest' | 'file'>,
    private readonly bucketCookie: string,
  ) {}

  private read(owner: RemoteId, version: string, file: string): string | undefined {
    return this.releases.file(owner, version, `first-paint/${file}`)?.body.toString('utf8');
  }

  /**
   * The drawn page for this request, or undefined when the path has none (every other page stays as today). With
   * `applicationName` (the application the sign-in goes on to, as LoginView names it), the variant with the line
   * "to continue to …"; a build without that variant gives the page without it.
   */
  forRequest(req: Request, partner: FirstPaintPartner, applicationName?: string): FirstPaint | undefined {
    const route = findRoute(req.path);
    if (!route || route.owner === 'shell') return undefined;
    const owner = route.owner;
    const bucket = Number(readCookie(req, this.bucketCookie));
    const entry = this.releases.manifest(
      Number.isInteger(bucket) && bucket >= 0 && bucket <= 99 ? bucket : 99,
    ).remotes[owner];
    if (!entry) return undefined;
    const index = this.read(owner, entry.version, 'pages.json');
    if (!index) return undefined;
    let folder: unknown;
    try {
      folder = (JSON.parse(index) as { pages?: Record<string, unknown> }).pages?.[route.path];
    } catch {
      return undefined;
    }
    if (typeof folder !== 'string' || !/^[a-z0-9-]+$/.test(folder)) return undefined;
    const lang = firstPaintLanguage(partner, readCookie(req, CULTURE_COOKIE), req.get('accept-language'));
    const textLang = textLocaleOf(lang);
    const file = `${textLang}${partner.hasLogo ? '.logo' : ''}`;
    const named = applicationName
      ? this.read(owner, entry.version, `${folder}/${file}.application.html`)
      : undefined;
    const markup = named ?? this.read(owner, entry.version, `${folder}/${file}.html`);
    if (!markup) return undefined;
    return {
      html: fillFirstPaint(markup, partner, named ? applicationName : undefined),
      lang,
      dir: isRtlLocale(lang) ? 'rtl' : 'ltr',
      textLang,
      logoUrl: partner.hasLogo ? partnerLogoUrl(partner.partnerId) : undefined,
    };
  }
}

/** The partner of the request's host as the first HTML needs it (metadata plus whether it has a logo). */
export function firstPaintPartner(partners: PartnerService): (req: Request) => Promise<FirstPaintPartner> {
  return async (req) => {
    const metadata = await partners.metadataForHost(req.hostname);
    const hasLogo = Boolean(metadata.partnerId) && (await partners.logo(metadata.partnerId)) !== undefined;
    return {
      partnerId: metadata.partnerId,
      partnerName: metadata.partnerName,
      defaultLanguage: metadata.defaultLanguage,
      availableLanguages: metadata.availableLanguages,
      hasLogo,
    };
  };
}
