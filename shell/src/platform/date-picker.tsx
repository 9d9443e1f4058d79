import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DATE_FLOOR,
  formatIsoDate,
  monthWeeks,
  mondayFirstWeekdayNames,
  parseIsoDate,
  type CalendarDate,
} from './calendar.js';
import { useDebouncedValue } from './use-debounced-value.js';

/** Props of {@link DatePicker}. */
export interface DatePickerProps {
  label: string;
  /** `YYYY-MM-DD`, or empty. */
  value: string;
  onChange: (value: string) => void;
  /** Earliest accepted date, `YYYY-MM-DD`; defaults to the SPEC.md §9 floor 1901-01-01. */
  min?: string;
}

/**
 * A date field that updates while typing with a 300 ms debounce, and a month grid whose week starts on Monday
 * (SPEC.md §5). Picking a day in the grid applies at once.
 */
export function DatePicker({ label, value, onChange, min = DATE_FLOOR }: DatePickerProps) {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  const [text, setText] = useState(value);
  // A new value from the parent replaces what was typed (React's "adjust state when a prop changes").
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setText(value);
  }
  const debounced = useDebouncedValue(text);
  // The debounce fires with the onChange of the latest render; a new handler alone does not fire it again.
  const emitChange = useEffectEvent((next: string) => onChange(next));

  useEffect(() => {
    const parsed = parseIsoDate(debounced);
    if (parsed && debounced !== value && debounced >= min) emitChange(debounced);
  }, [debounced, value, min]);

  const shown: CalendarDate = useMemo(() => {
    const parsed = parseIsoDate(text) ?? parseIsoDate(value);
    if (parsed) return parsed;
    const now = new Date();
    return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  }, [text, value]);
  const weekdays = useMemo(() => mondayFirstWeekdayNames(i18n.language || 'en-GB'), [i18n.language]);
  const invalid = text !== '' && (!parseIsoDate(text) || text < min);

  return (
    <div className="platform-date-picker">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        placeholder="YYYY-MM-DD"
        autoComplete="off"
        value={text}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setText(event.target.value)}
      />
      <span id={`${id}-hint`} className="platform-hint">
        {t('platform.datePicker.hint')}
      </span>
      <table className="platform-calendar" aria-label={label}>
        <thead>
          <tr>
            {weekdays.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(shown.year, shown.month).map((week, w) => (
            <tr key={w}>
              {week.map((day, d) => (
                <td key={d}>
                  {day !== null && (
                    <button
                      type="button"
                      aria-pressed={day === shown.day}
                      onClick={() => {
                        const picked = formatIsoDate({ ...shown, day });
                        setText(picked);
                        if (picked >= min) onChange(picked);
                      }}
                    >
                      {day}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
