// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalisePartnerMetadata } from 'shared-contracts';
import { LanguagePicker } from './language-picker.js';
import { renderWithPlatform } from './testing/platform-harness.js';

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
    expect(options).toEqual(['English', 'Deutsch', 'العربية']);
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
});
