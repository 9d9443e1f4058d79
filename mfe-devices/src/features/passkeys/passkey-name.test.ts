import { describe, expect, it } from 'vitest';
import { describeBrowser } from './passkey-name';

describe('describeBrowser', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0',
      undefined,
      { browser: 'Edge', platform: 'Windows' },
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
      undefined,
      { browser: 'Safari', platform: 'macOS' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      undefined,
      { browser: 'Safari', platform: 'iPhone' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      undefined,
      { browser: 'Firefox', platform: 'Linux' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
      'Android',
      { browser: 'Chrome', platform: 'Android' },
    ],
    ['something else entirely', undefined, {}],
  ])('%s → %j', (userAgent, platform, expected) => {
    expect(describeBrowser({ userAgent, platform })).toEqual(expected);
  });
});
