import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleAccess, PartnerSettings } from 'shared-contracts/console';
import { renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { PartnersPage } from './partners-page';

afterEach(cleanup);

const PLATFORM_ADMIN: ConsoleAccess = {
  grants: [{ role: 'platformAdmin', partnerId: null, customerId: null }],
  permissions: ['console.partners.read', 'console.partners.change'],
  secondFactorReady: true,
};

const ACME: PartnerSettings = {
  id: 'demo',
  name: 'Acme Payroll',
  domains: ['acme.example'],
  isDefault: true,
  backgroundColor: '#204080',
  logoUrl: null,
  privacyPolicyUrl: null,
  defaultLanguage: 'en-GB',
  availableLanguages: [
    { name: 'en-GB', description: 'English' },
    { name: 'de', description: 'Deutsch' },
  ],
  showLoginProviders: false,
  showLanguageOptions: true,
  showBackgroundImages: false,
  requireTwoFactor: false,
  rememberTwoFactorBrowser: false,
  idleSignOutMinutes: 0,
  passwordRules: {
    minLength: 8,
    maxLength: 256,
    requireCharacterClasses: false,
    maxConsecutive: 0,
    invalidCharacters: '',
  },
  passwordMaxAgeDays: 0,
  captcha: { provider: 'altcha', when: 'risk', siteKey: null, hasSecret: false, minScore: 0.5 },
};

async function renderPage(answers: StubAnswers = {}, options: { lng?: string; access?: ConsoleAccess } = {}) {
  let stored = ACME;
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(options.access ?? PLATFORM_ADMIN),
    ConsolePartners: () =>
      Response.json({
        partners: [
          {
            id: stored.id,
            name: stored.name,
            domains: stored.domains,
            isDefault: true,
            backgroundColor: stored.backgroundColor,
            logoUrl: stored.logoUrl,
          },
        ],
      }),
    ConsolePartner: () => Response.json(stored),
    UpdatePartner: ({ body }) => {
      stored = { ...stored, ...(body as Partial<PartnerSettings>) };
      return Response.json(stored);
    },
    UploadPartnerLogo: () => Response.json(stored),
    ...answers,
  });
  const result = await renderWithProviders(<PartnersPage />, {
    path: '/admin/partners',
    fetch: gateway.fetch,
    lng: options.lng ?? 'en-GB',
    resources: { 'en-GB': { 'mfe-admin': enGB }, de: { 'mfe-admin': de } },
  });
  return { calls: gateway.calls, ...result };
}

const colourOf = (testId: string) =>
  (screen.getByTestId(testId).querySelector('.admin-preview__page') as HTMLElement).style.backgroundColor;

describe('/admin/partners', () => {
  it('previews the unsaved colour at phone and desktop width, light and dark, before saving', async () => {
    const { calls } = await renderPage();
    const colour = await screen.findByLabelText('Background colour');
    expect((colour as HTMLInputElement).value).toBe('#204080');
    fireEvent.change(colour, { target: { value: '#ff0000' } });
    for (const frame of ['phone-light', 'phone-dark', 'desktop-light', 'desktop-dark'])
      expect(colourOf(`partner-preview-${frame}`)).toBe('rgb(255, 0, 0)');
    // An unsafe value previews as no colour, as the sign-in page would show it.
    fireEvent.change(colour, { target: { value: 'red; background: url(x)' } });
    expect(colourOf('partner-preview-phone-dark')).toBe('');
    expect(calls.some((c) => c.call === 'UpdatePartner')).toBe(false);
  });

  it('saves only what changed once confirmed with a reason, and says so beside the form', async () => {
    const { calls } = await renderPage();
    fireEvent.change(await screen.findByLabelText('Background colour'), { target: { value: '#00aa00' } });
    fireEvent.click(screen.getByLabelText('Require two-step verification'));
    fireEvent.click(screen.getByTestId('partner-save'));
    const dialog = await screen.findByTestId('partner-dialog');
    expect(within(dialog).getByTestId('partner-dialog-summary').textContent).toContain(
      'Background colour, Require two-step verification',
    );
    fireEvent.change(within(dialog).getByLabelText('Reason (optional, recorded in the history)'), {
      target: { value: 'rebrand' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('partner-result').textContent).toBe(
        'Acme Payroll saved. A fresh sign-in page shows the changes.',
      ),
    );
    const update = calls.find((c) => c.call === 'UpdatePartner');
    expect(update?.body).toEqual({
      id: 'demo',
      backgroundColor: '#00aa00',
      requireTwoFactor: true,
      reason: 'rebrand',
    });
  });

  it('offers the translated languages and the captcha, and saves only what changed', async () => {
    const { calls } = await renderPage({ UpdatePartner: () => Response.json(ACME) });
    const languages = await screen.findByTestId('partner-languages');
    fireEvent.click(within(languages).getByLabelText('Español'));
    fireEvent.click(within(languages).getByLabelText('Deutsch'));
    fireEvent.change(screen.getByLabelText('Default language'), { target: { value: 'es' } });
    const captcha = screen.getByTestId('partner-captcha');
    fireEvent.change(within(captcha).getByLabelText('Captcha provider'), {
      target: { value: 'recaptcha-v3' },
    });
    fireEvent.change(within(captcha).getByLabelText('When it is asked'), { target: { value: 'always' } });
    fireEvent.change(within(captcha).getByLabelText('reCAPTCHA site key'), {
      target: { value: 'site-key_1' },
    });
    fireEvent.change(within(captcha).getByLabelText('reCAPTCHA secret'), { target: { value: 'sec' } });
    fireEvent.change(within(captcha).getByLabelText('Minimum score'), { target: { value: '0.7' } });
    fireEvent.click(screen.getByTestId('partner-save'));
    const dialog = await screen.findByTestId('partner-dialog');
    expect(within(dialog).getByTestId('partner-dialog-summary').textContent).toContain(
      'Languages offered, Default language, Captcha',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.call === 'UpdatePartner')).toBe(true));
    expect(calls.find((c) => c.call === 'UpdatePartner')?.body).toEqual({
      id: 'demo',
      availableLanguages: [
        { name: 'en-GB', description: 'English' },
        { name: 'es', description: 'Español' },
      ],
      defaultLanguage: 'es',
      captcha: {
        provider: 'recaptcha-v3',
        when: 'always',
        siteKey: 'site-key_1',
        secret: 'sec',
        minScore: 0.7,
      },
    });
  });

  it('shows a refused captcha and default language on their fields', async () => {
    await renderPage({
      UpdatePartner: () =>
        Response.json(
          {
            title: 'One or more validation errors occurred.',
            errors: {
              captcha: ['partnerCaptchaNeedsKeys'],
              defaultLanguage: ['partnerDefaultLanguageNotOffered'],
            },
          },
          { status: 400 },
        ),
    });
    const captcha = await screen.findByTestId('partner-captcha');
    fireEvent.change(within(captcha).getByLabelText('Captcha provider'), {
      target: { value: 'recaptcha-v2' },
    });
    fireEvent.click(screen.getByTestId('partner-save'));
    fireEvent.click(
      within(await screen.findByTestId('partner-dialog')).getByRole('button', { name: 'Save' }),
    );
    expect(await within(captcha).findByText('reCAPTCHA needs a site key and a secret.')).toBeTruthy();
    expect(screen.getByText('The default language must be one of the languages offered.')).toBeTruthy();
  });

  it('shows the gateway’s refusal of a logo on the logo field', async () => {
    await renderPage({
      UploadPartnerLogo: () =>
        Response.json(
          { title: 'One or more validation errors occurred.', errors: { logo: ['partnerLogoScript'] } },
          { status: 400 },
        ),
    });
    const input = await screen.findByTestId('partner-logo');
    const svg = new File(['<svg><script>alert(1)</script></svg>'], 'logo.svg', { type: 'image/svg+xml' });
    fireEvent.change(input, { target: { files: [svg] } });
    fireEvent.click(screen.getByTestId('partner-save'));
    fireEvent.click(
      within(await screen.findByTestId('partner-dialog')).getByRole('button', { name: 'Save' }),
    );
    expect((await screen.findByTestId('partner-logo-errors')).textContent).toBe(
      'An SVG logo must not contain scripts, event handlers or embedded content.',
    );
  });

  it('reads in German', async () => {
    await renderPage({}, { lng: 'de' });
    expect(await screen.findByLabelText('Hintergrundfarbe')).toBeTruthy();
    expect(screen.getByText('Vorschau der Anmeldeseite')).toBeTruthy();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPage();
    await screen.findByTestId('partner-form');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });

  it('is not offered to an account without the partners permission', async () => {
    const { calls } = await renderPage(
      {},
      {
        access: {
          grants: [{ role: 'releaseManager', partnerId: null, customerId: null }],
          permissions: ['console.releases.read', 'console.releases.change'],
          secondFactorReady: true,
        },
      },
    );
    await waitFor(() => expect(calls.some((c) => c.call === 'ConsoleAccess')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('partner-form')).toBeNull());
    expect(calls.some((c) => c.call === 'ConsolePartners')).toBe(false);
  });
});
