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
      <label htmlFor={id}>{t('platform.theme.label')}</label>
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
