// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalisePartnerMetadata } from 'shared-contracts';
import { LanguagePicker } from './language-picker.js';
import { PartnerContext } from './partner-context.js';
import { UntranslatedNotice } from './untranslated-notice.js';
import { renderWithPlatform } from '../testing/platform-harness.js';

const languages = [
  { name: 'en-GB', description: 'English' },
  { name: 'de', description: 'Deutsch' },
  { name: 'ar', description: 'العربية' },
];

beforeEach(() => {
  localStorage.clear();
  document.documentElement.lang = 'en-GB';
  document.documentElement.dir = 'ltr';
});
afterEach(cleanup);

describe('language picker (SPEC.md §1, §3, §7 SetLanguage)', () => {
  it('is hidden when the partner does not show language options', async () => {
    const partner = normalisePartnerMetadata({
      partnerId: 'p',
      partnerName: 'P',
      availableLanguages: languages,
    });
    const { container } = await renderWithPlatform(<LanguagePicker partner={partner} />);
    expect(container.querySelector('select')).toBeNull();
  });

  it('lists the partner languages (flag under behaviour, showLanguageOption alias)', async () => {
    const partner = normalisePartnerMetadata({
      partnerId: 'p',
      partnerName: 'P',
      availableLanguages: languages,
      behaviour: { showLanguageOption: true },
    });
    await renderWithPlatform(<LanguagePicker partner={partner} />);
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['English', 'Deutsch', 'العربية (not yet translated)']);
  });

  it('a choice switches text, saves it, sets the cookie and calls SetLanguage; ar mirrors with en-GB text', async () => {
    const partner = normalisePartnerMetadata({
      partnerId: 'p',
      partnerName: 'P',
      availableLanguages: languages,
      showLanguageOptions: true,
    });
    const { calls, i18n } = await renderWithPlatform(<LanguagePicker partner={partner} />);

    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'de' } });
    await waitFor(() => expect(screen.getByText('Sprache')).toBeTruthy());
    expect(localStorage.getItem('locale')).toBe('de');
    expect(document.cookie).toContain('.AspNetCore.Culture=c=de|uic=de');
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/SetLanguage?language=de'))).toBe(true),
    );

    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'ar' } });
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(i18n.t('platform.language.label')).toBe('Language'); // no Arabic text yet: en-GB fallback
    expect(screen.getByText('Language')).toBeTruthy();
  });

  it('marks a language without translations in the language shown now, and only that one', async () => {
    const partner = normalisePartnerMetadata({
      partnerId: 'p',
      partnerName: 'P',
      availableLanguages: [...languages, { name: 'en-US', description: 'English (US)' }],
      showLanguageOptions: true,
    });
    await renderWithPlatform(<LanguagePicker partner={partner} />);
    const arabic = screen.getByRole('option', { name: 'العربية (not yet translated)' });
    expect(arabic.hasAttribute('lang')).toBe(false);
    // en-US reads the shipped English text: not marked.
    expect(screen.getByRole('option', { name: 'English (US)' }).getAttribute('lang')).toBe('en-US');
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'de' } });
    expect(await screen.findByRole('option', { name: 'العربية (noch nicht übersetzt)' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Deutsch' }).getAttribute('lang')).toBe('de');
  });
});

describe('notice of a language without translations', () => {
  const partner = normalisePartnerMetadata({
    partnerId: 'p',
    partnerName: 'P',
    availableLanguages: languages,
    showLanguageOptions: true,
  });

  it('says politely, in the text shown, that the chosen language is not translated yet; nothing otherwise', async () => {
    await renderWithPlatform(
      <PartnerContext.Provider value={partner}>
        <UntranslatedNotice />
        <LanguagePicker partner={partner} />
      </PartnerContext.Provider>,
    );
    expect(screen.queryByTestId('untranslated-notice')).toBeNull();
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'ar' } });
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toBe('This page is not yet available in العربية, so it is shown in English.');
    expect(document.documentElement.dir).toBe('rtl');
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'de' } });
    await waitFor(() => expect(screen.queryByTestId('untranslated-notice')).toBeNull());
  });
});
