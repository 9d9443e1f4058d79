import { describe, expect, it } from 'vitest';
import {
  escapeHtmlText,
  isSafeCssColour,
  partnerDisplayName,
  partnerLogoUrl,
  partnerPageTitle,
  safeCssColour,
  safeHttpUrl,
} from './branding.js';

describe('partner branding values (S34)', () => {
  it.each([
    '#fff',
    '#FFFFFF',
    '#11223344',
    'rebeccapurple',
    'Transparent',
    'rgb(10, 20, 30)',
    'rgba(10,20,30,0.5)',
    'rgb(10 20 30 / 50%)',
    'hsl(210deg 40% 20%)',
    ' #0a0b0c ',
  ])('S34 accepts the colour %s', (value) => {
    expect(isSafeCssColour(value)).toBe(true);
  });

  // The payload corpus: each would end the declaration, load a resource or run script if written into CSS.
  it.each([
    'red;background:url(https://evil.example/x.png)',
    'red; background: url(javascript:alert(1))',
    'expression(alert(1))',
    'url(javascript:alert(1))',
    '"red"',
    "'red'",
    'red</style><script>alert(1)</script>',
    '<script>alert(1)</script>',
    'var(--x)',
    'rgb(1,2,3);color:red',
    'red /* */',
    'red\\;',
    'currentcolor',
    '#12345',
    'notacolour',
    '',
    'a'.repeat(100),
  ])('S34 refuses the colour payload %s', (value) => {
    expect(isSafeCssColour(value)).toBe(false);
    expect(safeCssColour(value)).toBeUndefined();
  });

  it('S34 refuses non-string colours', () => {
    expect(isSafeCssColour(undefined)).toBe(false);
    expect(isSafeCssColour({ toString: () => 'red' })).toBe(false);
  });

  it.each([
    ['https://acme.example/privacy', 'https://acme.example/privacy'],
    ['http://acme.example/p?q=1#x', 'http://acme.example/p?q=1#x'],
    ['HTTPS://ACME.example', 'https://acme.example/'],
  ])('S34 accepts the privacy link %s', (value, normalised) => {
    expect(safeHttpUrl(value)).toBe(normalised);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '/privacy',
    '//evil.example/privacy',
    'https://user:pass@evil.example/',
    'https://ok.example@evil.example/',
    'https:\\\\evil.example',
    'https://evil.example/\nSet-Cookie:x',
    '',
  ])('S34 refuses the link payload %s', (value) => {
    expect(safeHttpUrl(value)).toBeUndefined();
  });

  it('S34 percent-encodes quotes so a link cannot break out of an attribute', () => {
    expect(safeHttpUrl('https://evil.example/"onmouseover="alert(1)')).toBe(
      'https://evil.example/%22onmouseover=%22alert(1)',
    );
  });

  it('S34 keeps a name with markup as text and bounds it', () => {
    expect(partnerDisplayName('<script>alert(1)</script>')).toBe('<script>alert(1)</script>');
    expect(partnerDisplayName('Acme\n\u0000Payroll')).toBe('Acme Payroll');
    expect(partnerDisplayName('x'.repeat(500))).toHaveLength(100);
    expect(partnerDisplayName('   ')).toBe('Partner');
    expect(partnerPageTitle('Acme Payroll')).toBe('Acme Payroll Identity');
  });

  it('S34 escapes text for HTML', () => {
    expect(escapeHtmlText(`<script>"a" & 'b'</script>`)).toBe(
      '&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;',
    );
  });

  it('builds a same-origin logo URL with the id encoded', () => {
    expect(partnerLogoUrl('a b&c')).toBe('/api/Account/GetPartnerLogo?partnerId=a%20b%26c');
  });
});
