// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { normalisePartnerMetadata, type PartnerMetadata } from 'shared-contracts';
import { applyPartnerBranding, contrastingTextColour, partnerBranding } from './branding.js';
import { documentTitle } from '../layout/page-announcer.js';
import { PartnerLogo, PrivacyPolicyLink } from './partner-branding.js';
import { renderWithPlatform } from '../testing/platform-harness.js';

afterEach(cleanup);

function partner(overrides: Record<string, unknown>): PartnerMetadata {
  return normalisePartnerMetadata({ partnerId: 'acme', partnerName: 'Acme Payroll', ...overrides });
}

describe('partner branding in the shell (SPEC.md §1, §3)', () => {
  it('titles the site "<partnerName> Identity", after the page title, and sets the background variable', () => {
    const branding = partnerBranding(partner({ themesBackgroundColor: '#0b6e4f' }));
    applyPartnerBranding(branding);
    expect(branding.title).toBe('Acme Payroll Identity');
    expect(documentTitle('Sign in', branding.title)).toBe('Sign in – Acme Payroll Identity');
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--partner-background')).toBe('#0b6e4f');
    expect(style.getPropertyValue('--partner-on-background')).toBe('#ffffff');
  });

  it.each([
    [[255, 255, 0], '#000000'],
    [[0, 0, 128], '#ffffff'],
    [[128, 128, 128], '#000000'],
  ] as const)('picks the readable text colour on rgb %j: %s', (rgb, expected) => {
    expect(contrastingTextColour(rgb)).toBe(expected);
  });
});

// SECURITY-CHECKLIST S34: the payload corpus through the real components and document.
describe('S34 branding payloads execute nothing', () => {
  it.each([
    'red;background:url(https://evil.example/x)',
    'expression(alert(1))',
    '"/><script>alert(1)</script>',
    "red' onload='alert(1)",
  ])('S34 drops the colour %s and clears the variable', (colour) => {
    applyPartnerBranding(partnerBranding(partner({ backgroundColor: '#123456' })));
    applyPartnerBranding(partnerBranding(partner({ backgroundColor: colour })));
    expect(document.documentElement.style.getPropertyValue('--partner-background')).toBe('');
    expect(document.documentElement.getAttribute('style') ?? '').not.toMatch(/url|expression|script/);
  });

  it('S34 shows a name with markup as text, in the title and the logo alt', async () => {
    const evil = partner({ partnerName: '<img src=x onerror=alert(1)><script>alert(2)</script>' });
    applyPartnerBranding(partnerBranding(evil));
    expect(partnerBranding(evil).title).toBe(
      '<img src=x onerror=alert(1)><script>alert(2)</script> Identity',
    );
    const { container } = await renderWithPlatform(<PartnerLogo partner={evil} />);
    expect(container.querySelectorAll('script')).toHaveLength(0);
    expect(container.querySelectorAll('img')).toHaveLength(1);
    expect(screen.getByTestId('partner-logo').getAttribute('alt')).toBe(
      '<img src=x onerror=alert(1)><script>alert(2)</script> logo',
    );
    expect(screen.getByTestId('partner-logo').getAttribute('src')).toBe(
      '/api/Account/GetPartnerLogo?partnerId=acme',
    );
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example',
  ])('S34 renders no privacy link for %s', async (privacyPolicyUrl) => {
    const { container } = await renderWithPlatform(
      <PrivacyPolicyLink partner={partner({ privacyPolicyUrl })} />,
    );
    expect(container.querySelector('a')).toBeNull();
  });

  it('S34 renders a valid https privacy link with noopener', async () => {
    await renderWithPlatform(
      <PrivacyPolicyLink partner={partner({ privacyPolicyUrl: 'https://acme.example/privacy' })} />,
    );
    const link = screen.getByRole('link', { name: 'Privacy policy' });
    expect(link.getAttribute('href')).toBe('https://acme.example/privacy');
    expect(link.getAttribute('rel')).toContain('noopener');
  });
});
