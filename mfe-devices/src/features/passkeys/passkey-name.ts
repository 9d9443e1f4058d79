/** What the browser tells about itself, as far as naming a device goes. */
export interface BrowserIdentity {
  userAgent: string;
  /** `navigator.userAgentData.platform` where the browser has it (Chromium). */
  platform?: string | undefined;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const PLATFORMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS|Chrome OS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac ?OS|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/**
 * The browser and platform a device name is prefilled from ("Chrome", "Windows"), or undefined for what cannot be
 * told; the page words them in the visitor's language and the user may change the name.
 */
export function describeBrowser(identity: BrowserIdentity): { browser?: string; platform?: string } {
  const browser = BROWSERS.find(([pattern]) => pattern.test(identity.userAgent))?.[1];
  const source = `${identity.platform ?? ''} ${identity.userAgent}`;
  const platform = PLATFORMS.find(([pattern]) => pattern.test(source))?.[1];
  return { ...(browser ? { browser } : {}), ...(platform ? { platform } : {}) };
}

/** This browser's identity (empty outside a browser). */
export function currentBrowser(): BrowserIdentity {
  const nav = globalThis.navigator as (Navigator & { userAgentData?: { platform?: string } }) | undefined;
  return { userAgent: nav?.userAgent ?? '', platform: nav?.userAgentData?.platform };
}
