/**
 * The browser, system and kind of device a user agent names, roughly: one reading for the security centre's lists
 * (shell) and the gateway's mails ("Chrome on Linux"), so a mail and the page name a browser alike. Proper names,
 * not translated; the device type is a key the page translates.
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

/** The kinds of device the security centre tells apart. */
export type DeviceType = 'desktop' | 'phone' | 'tablet';

/**
 * The kind of device. Tablets first: an iPad, an Android browser without "Mobile" (Google's rule for Android
 * tablets), or one that says "Tablet" (Firefox on Android tablets); then phones (iPhone, iPod, "Mobile"/"Mobi",
 * Windows Phone). Everything else is a desktop, including an iPad in "desktop site" mode, which sends a Mac's user
 * agent and cannot be told from one.
 */
function deviceTypeOf(userAgent: string): DeviceType {
  if (/iPad|Tablet/.test(userAgent)) return 'tablet';
  if (/Android/.test(userAgent) && !/Mobile/.test(userAgent)) return 'tablet';
  if (/iPhone|iPod|Mobi|Windows Phone/.test(userAgent)) return 'phone';
  return 'desktop';
}

/**
 * What a user agent names: its browser, its system and the kind of device. A type, not an interface: the pages pass
 * it straight to i18next as interpolation values, which need an object type with an implicit index signature.
 */
export type UserAgentDescription = {
  browser: string;
  os: string;
  deviceType: DeviceType;
};

/** The browser, system and device type a user agent names; undefined when the browser or system is unknown. */
export function describeUserAgent(userAgent: string | null): UserAgentDescription | undefined {
  if (!userAgent) return undefined;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return browser && os ? { browser, os, deviceType: deviceTypeOf(userAgent) } : undefined;
}
