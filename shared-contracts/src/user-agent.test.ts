import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent.js';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  operaMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroidTablet:
    'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeAndroidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  firefoxAndroidTablet: 'Mozilla/5.0 (Android 14; Tablet; rv:133.0) Gecko/133.0 Firefox/133.0',
  firefoxAndroidPhone: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
};

describe('describeUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Chrome', 'Windows', 'desktop'],
    [UA.edgeWindows, 'Edge', 'Windows', 'desktop'],
    [UA.safariIphone, 'Safari', 'iOS', 'phone'],
    [UA.chromeIphone, 'Chrome', 'iOS', 'phone'],
    [UA.firefoxLinux, 'Firefox', 'Linux', 'desktop'],
    [UA.samsungAndroid, 'Samsung Internet', 'Android', 'phone'],
    [UA.operaMac, 'Opera', 'macOS', 'desktop'],
    [UA.headless, 'Chrome', 'Linux', 'desktop'],
    [UA.chromebook, 'Chrome', 'ChromeOS', 'desktop'],
    [UA.firefoxWindows, 'Firefox', 'Windows', 'desktop'],
    [UA.safariIpad, 'Safari', 'iOS', 'tablet'],
    [UA.chromeAndroidTablet, 'Chrome', 'Android', 'tablet'],
    [UA.chromeAndroidPhone, 'Chrome', 'Android', 'phone'],
    [UA.firefoxAndroidTablet, 'Firefox', 'Android', 'tablet'],
    [UA.firefoxAndroidPhone, 'Firefox', 'Android', 'phone'],
    [UA.safariMac, 'Safari', 'macOS', 'desktop'],
  ])('names the browser, system and device type of %s', (ua, browser, os, deviceType) => {
    expect(describeUserAgent(ua)).toEqual({ browser, os, deviceType });
  });

  it('says nothing it cannot read', () => {
    expect(describeUserAgent(null)).toBeUndefined();
    expect(describeUserAgent('curl/8.5.0')).toBeUndefined();
  });
});
