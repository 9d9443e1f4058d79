import type { NextFunction, Request, Response } from 'express';
import {
  CULTURE_COOKIE,
  DEFAULT_LOCALE_HEADER,
  pickLocale,
  resolveLocale,
  type LocaleHints,
  type SupportedLocale,
} from 'shared-contracts';
import { readCookie } from './cookies.js';

/** The partner default language for a host (the store's partner, or the default partner). */
export interface PartnerLanguageLookup {
  /** The language when the partner list is in process (`{ language }`), else undefined: then `load` is asked. */
  peek(host: string): { language: string | undefined } | undefined;
  load(host: string): Promise<string | undefined>;
}

/** The locale the answers to this request are written in (set by {@link requestLocale}); en-GB when unset. */
export function localeOf(res: Response): SupportedLocale | undefined {
  return (res.locals as { locale?: SupportedLocale }).locale;
}

function hintsOf(req: Request): LocaleHints {
  const header = req.headers[DEFAULT_LOCALE_HEADER];
  return {
    cultureCookie: readCookie(req, CULTURE_COOKIE),
    acceptLanguage: req.headers['accept-language'],
    defaultLocaleHeader: typeof header === 'string' ? header : undefined,
  };
}

/**
 * Resolves the visitor's language for the API's messages: the culture cookie's `c=`, Accept-Language, `x-default-locale`, then the partner's default language,
 * then en-GB. The partner is looked up only when the request itself names no supported locale.
 */
export function requestLocale(partnerLanguage: PartnerLanguageLookup) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const hints = hintsOf(req);
    const own = pickLocale(hints);
    if (own) {
      res.locals.locale = own;
      next();
      return;
    }
    const known = partnerLanguage.peek(req.hostname);
    if (known) {
      res.locals.locale = resolveLocale({ ...hints, partnerDefault: known.language });
      next();
      return;
    }
    partnerLanguage
      .load(req.hostname)
      .then((partnerDefault) => {
        res.locals.locale = resolveLocale({ ...hints, partnerDefault });
        next();
      })
      .catch(() => {
        // A store hiccup must not turn a message into a 500: answer in the default language.
        res.locals.locale = resolveLocale(hints);
        next();
      });
  };
}
