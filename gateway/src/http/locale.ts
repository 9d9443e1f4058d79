import type { NextFunction, Request, Response } from 'express';
import {
  CULTURE_COOKIE,
  DEFAULT_LOCALE_HEADER,
  pickLocale,
  resolveLocale,
  type LocaleHints,
  type SupportedLocale,
} from 'shared-contracts';
import { requestContext } from '../infra/request-context.js';
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

/** Sets the request's locale, for the answers and for mail the services send (issue 48: the request context). */
function settle(res: Response, locale: SupportedLocale): void {
  res.locals.locale = locale;
  const context = requestContext.getStore();
  if (context) context.locale = locale;
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
      settle(res, own);
      next();
      return;
    }
    const known = partnerLanguage.peek(req.hostname);
    if (known) {
      settle(res, resolveLocale({ ...hints, partnerDefault: known.language }));
      next();
      return;
    }
    partnerLanguage
      .load(req.hostname)
      .then((partnerDefault) => {
        settle(res, resolveLocale({ ...hints, partnerDefault }));
        next();
      })
      .catch(() => {
        // A store hiccup must not turn a message into a 500: answer in the default language.
        settle(res, resolveLocale(hints));
        next();
      });
  };
}
