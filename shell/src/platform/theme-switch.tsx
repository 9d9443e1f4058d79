import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { COLOR_SCHEMES, type ColorScheme } from 'shared-contracts';
import { useColorScheme } from './use-color-scheme.js';

/** The theme control: auto (follow the system), light or dark; the choice is saved (SPEC.md §1, §9). */
export function ThemeSwitch() {
  const { t } = useTranslation('common');
  const [scheme, setScheme] = useColorScheme();
  const id = useId();
  return (
    <div className="platform-control platform-theme-switch">
      {/* Compact: a half-filled circle in place of the word, which stays the select's accessible name. */}
      <label htmlFor={id} className="platform-control__label">
        <svg className="platform-control__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9" />
          <path d="M12 3a9 9 0 0 1 0 18z" fill="currentColor" />
        </svg>
        <span className="platform-visually-hidden">{t('platform.theme.label')}</span>
      </label>
      <select
        id={id}
        data-testid="theme-switch"
        value={scheme}
        onChange={(event) => setScheme(event.target.value as ColorScheme)}
      >
        {COLOR_SCHEMES.map((option) => (
          <option key={option} value={option}>
            {t(`platform.theme.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
