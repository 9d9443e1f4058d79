import { describe, expect, it } from 'vitest';
import type { Partner } from '../../store/partner.repository.js';
import { PartnerService, partnerMetadataOf } from './partner.service.js';

const base: Partner = {
  id: 'acme',
  name: 'Acme Payroll',
  domains: ['acme.example'],
  backgroundColor: '#1f4e79',
  logo: null,
  logoContentType: null,
  privacyPolicyUrl: 'https://acme.example/privacy',
  defaultLanguage: 'de',
  availableLanguages: [{ name: 'de', description: 'Deutsch' }],
  showLoginProviders: true,
  showLanguageOptions: false,
  showBackgroundImages: true,
  isDefault: true,
  requireTwoFactor: false,
  rememberTwoFactorBrowser: false,
  idleSignOutMinutes: 0,
};

describe('partner metadata answer (SPEC.md §3)', () => {
  it('serves both readings: colour under both names, flags flat and under behaviour', () => {
    const meta = partnerMetadataOf(base);
    expect(meta).toMatchObject({
      backgroundColor: '#1f4e79',
      themesBackgroundColor: '#1f4e79',
      showLoginProviders: true,
      showBackgroundImages: true,
      defaultLanguage: 'de',
      behaviour: { showLoginProviders: true, showLanguageOption: false, showBackgroundImages: true },
    });
  });

  // SECURITY-CHECKLIST S34: payloads stored by any path leave as text or not at all.
  it.each([
    ['backgroundColor', 'red;background:url(https://evil.example/x)', { backgroundColor: null }],
    ['backgroundColor', 'expression(alert(1))', { backgroundColor: null }],
    ['backgroundColor', '"#fff"', { backgroundColor: null }],
    ['privacyPolicyUrl', 'javascript:alert(1)', { privacyPolicyUrl: '' }],
    ['privacyPolicyUrl', 'data:text/html,<script>alert(1)</script>', { privacyPolicyUrl: '' }],
    ['name', '<script>alert(1)</script>', { partnerName: '<script>alert(1)</script>' }],
    ['defaultLanguage', 'de"><script>', { defaultLanguage: 'en-GB' }],
  ] as const)('S34 %s = %s', (field, value, expected) => {
    expect(partnerMetadataOf({ ...base, [field]: value })).toMatchObject(expected);
  });
});

describe('PartnerService metadata cache', () => {
  function service() {
    let stored: Partner = { ...base };
    let listener = () => {};
    let at = 0;
    const repository = {
      // Like the repository: every load brings new objects.
      list: () => Promise.resolve([{ ...stored }]),
      onChange: (l: () => void) => {
        listener = l;
      },
    };
    const partners = new PartnerService(repository, { ttlMs: 5_000, now: () => at });
    return {
      partners,
      rename(name: string) {
        stored = { ...stored, name };
      },
      writeHere: () => listener(),
      advance: (ms: number) => (at += ms),
    };
  }

  it('answers the same metadata while the list is cached, and a change made elsewhere after the reload', async () => {
    const s = service();
    const first = await s.partners.metadataForHost('acme.example');
    expect(await s.partners.metadataForHost('acme.example')).toBe(first);
    s.rename('Acme Renamed');
    s.advance(4_000);
    expect((await s.partners.metadataForHost('acme.example')).partnerName).toBe('Acme Payroll');
    s.advance(1_000);
    expect((await s.partners.metadataForHost('acme.example')).partnerName).toBe('Acme Renamed');
  });

  it('answers a change written through this process at once', async () => {
    const s = service();
    expect((await s.partners.metadataForHost('acme.example')).partnerName).toBe('Acme Payroll');
    s.rename('Acme Now');
    s.writeHere();
    expect((await s.partners.metadataForHost('acme.example')).partnerName).toBe('Acme Now');
  });
});
