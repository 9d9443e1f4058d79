/**
 * The browser and system a user agent names, roughly: one reading for the security centre's lists (shell) and the
 * gateway's mails ("Chrome on Linux"), so a mail and the page name a browser alike. Proper names, not translated.
 */

/** Browsers by the token their user agent carries, most specific first (Edge and Opera also say "Chrome"). */
const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrom(e|ium)\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

/** Systems by the token their user agent carries (Android and iOS before Linux and macOS, which they also name). */
const SYSTEMS: readonly [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** The browser and system a user agent names; undefined when either is unknown. */
export function describeUserAgent(userAgent: string | null): { browser: string; os: string } | undefined {
  if (!userAgent) return undefined;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return browser && os ? { browser, os } : undefined;
}
