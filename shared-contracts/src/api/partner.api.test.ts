// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { configureApiClient } from './client-config.js';
import { FALLBACK_PARTNER, partnerApi, readPartnerMetadata } from './partner.api.js';
import { createAppStore } from './store.js';

afterEach(() => configureApiClient({ fetch: (...args) => globalThis.fetch(...args) }));

describe('readPartnerMetadata', () => {
  it('folds the nested reading and applies the defaults', () => {
    const partner = readPartnerMetadata({
      partnerId: 'acme',
      partnerName: 'Acme',
      themesBackgroundColor: '#123456',
      behaviour: { showLoginProviders: true, showLanguageOption: true },
    });
    expect(partner).toMatchObject({
      partnerId: 'acme',
      backgroundColor: '#123456',
      showLoginProviders: true,
      showLanguageOptions: true,
      showBackgroundImages: false,
      defaultLanguage: 'en-GB',
    });
  });

  it.each([
    [
      'a colour that would end the declaration',
      { backgroundColor: 'red;background:url(https://evil.test/x)' },
      'backgroundColor',
      undefined,
    ],
    ['a javascript: privacy link', { privacyPolicyUrl: 'javascript:alert(1)' }, 'privacyPolicyUrl', ''],
    [
      'a name with control characters',
      { partnerName: 'Ac\u0000me\n<script>' },
      'partnerName',
      'Ac me <script>',
    ],
  ])('refuses %s (S34)', (_name, extra, field, expected) => {
    const partner = readPartnerMetadata({ partnerId: 'p', partnerName: 'P', ...extra });
    expect(partner[field as keyof typeof partner]).toEqual(expected);
  });

  it('answers the fallback partner for an unreadable body', () => {
    expect(readPartnerMetadata({ partnerName: 42 })).toBe(FALLBACK_PARTNER);
    expect(readPartnerMetadata('<html>')).toBe(FALLBACK_PARTNER);
  });
});

describe('partnerMetadata endpoint', () => {
  it('fetches GetPartnerMetaData once per store however many readers ask', async () => {
    const calls: string[] = [];
    configureApiClient({
      fetch: (input) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        calls.push(url);
        return Promise.resolve(Response.json({ partnerId: 'demo', partnerName: 'Acme Payroll' }));
      },
    });
    const store = createAppStore();
    const first = store.dispatch(partnerApi.endpoints.partnerMetadata.initiate());
    const second = store.dispatch(partnerApi.endpoints.partnerMetadata.initiate());
    await Promise.all([first, second]);
    const third = await store.dispatch(partnerApi.endpoints.partnerMetadata.initiate());
    expect(third.data?.partnerName).toBe('Acme Payroll');
    expect(calls.filter((url) => url.includes('/GetPartnerMetaData'))).toHaveLength(1);
  });
});
