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
};

describe('describeUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Chrome', 'Windows'],
    [UA.edgeWindows, 'Edge', 'Windows'],
    [UA.safariIphone, 'Safari', 'iOS'],
    [UA.chromeIphone, 'Chrome', 'iOS'],
    [UA.firefoxLinux, 'Firefox', 'Linux'],
    [UA.samsungAndroid, 'Samsung Internet', 'Android'],
    [UA.operaMac, 'Opera', 'macOS'],
    [UA.headless, 'Chrome', 'Linux'],
    [UA.chromebook, 'Chrome', 'ChromeOS'],
  ])('names the browser and system of %s', (ua, browser, os) => {
    expect(describeUserAgent(ua)).toEqual({ browser, os });
  });

  it('says nothing it cannot read', () => {
    expect(describeUserAgent(null)).toBeUndefined();
    expect(describeUserAgent('curl/8.5.0')).toBeUndefined();
  });
});
