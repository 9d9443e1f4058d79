import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COLOR_SCHEMES, type ColorScheme } from 'shared-contracts';
import { useColorScheme } from './use-color-scheme.js';

/** What the closed control shows for each choice: half a circle (follow the system), a sun, a moon. */
const SCHEME_ICONS: Readonly<Record<ColorScheme, ReactNode>> = {
  auto: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 3a9 9 0 0 1 0 18z" fill="currentColor" />
    </>
  ),
  light: (
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>
  ),
  dark: <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />,
};

/** The theme control: auto (follow the system), light or dark; the choice is saved (SPEC.md §1, §9). */
export function ThemeSwitch() {
  const { t } = useTranslation('common');
  const [scheme, setScheme] = useColorScheme();
  const id = useId();
  return (
    <div className="platform-control platform-theme-switch">
      {/* The word stays the select's accessible name; the icon below shows the choice. */}
      <label htmlFor={id} className="platform-visually-hidden">
        {t('platform.theme.label')}
      </label>
      {/* The closed control shows the icon of the choice; the native select lies over it (ADR 0037). */}
      <span className="platform-control__field">
        <svg
          className="platform-control__icon platform-control__value"
          viewBox="0 0 24 24"
          aria-hidden="true"
          focusable="false"
        >
          {SCHEME_ICONS[scheme]}
        </svg>
        <select
          id={id}
          data-testid="theme-switch"
          className="platform-control__select"
          value={scheme}
          onChange={(event) => setScheme(event.target.value as ColorScheme)}
        >
          {COLOR_SCHEMES.map((option) => (
            <option key={option} value={option}>
              {t(`platform.theme.${option}`)}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
