import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { DATE_FLOORS, DATE_PICKER_DEBOUNCE_MS } from '../constants.js';

/**
 * The date picker of SPEC.md §5: a labelled text field that takes a date typed in the locale's numeric form (or as
 * `YYYY-MM-DD`) and counts it 300 ms after the last keystroke, with a month calendar beside it whose weeks start on
 * Monday, bounded by SPEC.md §9's date floors. Values are calendar days, `YYYY-MM-DD`, with no time zone.
 */

/** A calendar day as a UTC midnight (no time zone ever moves it); years below 100 stay themselves. */
function utcDay(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(0, 0, 0, 0);
  return date;
}

/** `YYYY-MM-DD` of a day. */
export function isoDay(date: Date): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** The day of a `YYYY-MM-DD` string, or undefined when it is no real day (2026-02-30). */
function dayOf(iso: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = utcDay(year, month - 1, day);
  return isoDay(date) === iso ? date : undefined;
}

type Part = 'day' | 'month' | 'year';

/** The order and separators of the locale's numeric date (en-GB 31/12/2026, en 12/31/2026, fr-CA 2026-12-31). */
function numericPattern(locale: string): { order: Part[]; literals: string[] } {
  const parts = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
  }).formatToParts(utcDay(2026, 11, 31));
  const order: Part[] = [];
  const literals: string[] = [];
  for (const part of parts) {
    if (part.type === 'day' || part.type === 'month' || part.type === 'year') order.push(part.type);
    else if (part.type === 'literal' && order.length > 0 && order.length < 3) literals.push(part.value);
  }
  return { order, literals };
}

/** A day in the locale's numeric form, the year always with four digits (0001-01-01 stays readable). */
export function formatDay(iso: string, locale: string): string {
  const date = dayOf(iso);
  if (!date) return iso;
  const { order, literals } = numericPattern(locale);
  const value: Record<Part, string> = {
    year: String(date.getUTCFullYear()).padStart(4, '0'),
    month: String(date.getUTCMonth() + 1).padStart(2, '0'),
    day: String(date.getUTCDate()).padStart(2, '0'),
  };
  return order.map((part, i) => `${value[part]}${literals[i] ?? ''}`).join('');
}

/**
 * Reads a typed day: `YYYY-MM-DD`, or three numbers in the locale's order with any separators (`31.12.2026` in de).
 * The year needs four digits (no guessing the century). Returns `''` for an empty field, undefined for no real day.
 */
export function parseDay(text: string, locale: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const numbers = trimmed.split(/\D+/).filter(Boolean);
  if (numbers.length !== 3) return undefined;
  const order: Part[] = numbers[0]!.length === 4 ? ['year', 'month', 'day'] : numericPattern(locale).order;
  const value = Object.fromEntries(order.map((part, i) => [part, numbers[i]!])) as Record<Part, string>;
  if (value.year.length !== 4 || value.month.length > 2 || value.day.length > 2) return undefined;
  const iso = `${value.year}-${value.month.padStart(2, '0')}-${value.day.padStart(2, '0')}`;
  return dayOf(iso) ? iso : undefined;
}

/** Monday = 0 … Sunday = 6 (SPEC.md §5: the week starts on Monday). */
function weekdayIndex(date: Date): number {
  return (date.getUTCDay() + 6) % 7;
}

function addDays(date: Date, days: number): Date {
  return utcDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days);
}

/** The same day `months` later, the last day of the month when it has fewer days (31 Jan + 1 → 28/29 Feb). */
function addMonths(date: Date, months: number): Date {
  const first = utcDay(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
  const last = utcDay(first.getUTCFullYear(), first.getUTCMonth() + 1, 0).getUTCDate();
  return utcDay(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date.getUTCDate(), last));
}

/** The weeks (Monday first) of a month's grid: 7 days each, days of the months around it included. */
export function monthWeeks(year: number, monthIndex: number): Date[][] {
  const first = utcDay(year, monthIndex, 1);
  let day = addDays(first, -weekdayIndex(first));
  const weeks: Date[][] = [];
  do {
    const week: Date[] = [];
    for (let i = 0; i < 7; i++) {
      week.push(day);
      day = addDays(day, 1);
    }
    weeks.push(week);
  } while (day.getUTCMonth() === first.getUTCMonth() && day.getUTCFullYear() === first.getUTCFullYear());
  return weeks;
}

const clamp = (date: Date, min: Date, max: Date | undefined): Date =>
  date < min ? min : max && date > max ? max : date;

/** The date picker's texts, already translated by the page (its own namespace, five locales). */
export interface DateFieldStrings {
  /** The calendar button's name ("Choose a date"). */
  chooseDate: string;
  previousMonth: string;
  nextMonth: string;
  /** Under the field: how to type a date; `example` is a day in the locale's form. */
  hint: (example: string) => string;
  /** "Enter a real date, for example {{example}}." */
  invalid: (example: string) => string;
  /** "Enter a date on or after {{date}}." */
  tooEarly: (date: string) => string;
  /** "Enter a date on or before {{date}}." */
  tooLate: (date: string) => string;
}

/** Props of {@link DateField}. */
export interface DateFieldProps {
  /** The visible label. */
  label: string;
  /** The chosen day, `YYYY-MM-DD`, or `''` for none. */
  value: string;
  /** Called with a day (or `''` when cleared) 300 ms after typing stops, at once when picked in the calendar. */
  onChange: (value: string) => void;
  /** The page's locale (BCP 47): the typed and shown form, month and weekday names. */
  locale: string;
  strings: DateFieldStrings;
  /** The earliest day offered: SPEC.md's 1901-01-01 unless said; never before 0001-01-01. */
  min?: string;
  /** The latest day offered, if any. */
  max?: string;
  /** A `data-testid` for tests. */
  testId?: string;
}

/**
 * A labelled date field with a calendar (SPEC.md §5). Typing updates the value 300 ms after the last keystroke
 * (leaving the field counts at once); a day that is not real or outside `min`/`max` shows its error under the
 * field and changes nothing. The calendar is a WAI-ARIA date-picker grid: weeks start on Monday, arrow keys move
 * by day and week (mirrored right to left), Page Up/Down by month (with Shift by year), Home/End to the week's
 * ends, Enter picks, Escape closes and gives focus back to its button. Nothing before the floor can be picked.
 */
export function DateField({
  label,
  value,
  onChange,
  locale,
  strings,
  min = DATE_FLOORS.default,
  max,
  testId,
}: DateFieldProps) {
  const id = useId();
  const floor = dayOf(DATE_FLOORS.absolute)!;
  const minDay = (() => {
    const day = dayOf(min) ?? dayOf(DATE_FLOORS.default)!;
    return day < floor ? floor : day;
  })();
  const maxDay = max ? dayOf(max) : undefined;
  const [text, setText] = useState(() => (value ? formatDay(value, locale) : ''));
  const [error, setError] = useState('');
  const [open, setOpen] = useState(false);
  const emitted = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const example = formatDay(isoDay(clamp(utcDay(2026, 11, 31), minDay, maxDay)), locale);

  // A value set from outside (a reset, the address) shows in the field; the field's own changes are already there.
  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setText(value ? formatDay(value, locale) : '');
      setError('');
    }
  }, [value, locale]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (typed: string) => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const iso = parseDay(typed, locale);
    if (iso === undefined) return setError(strings.invalid(example));
    const day = iso ? dayOf(iso)! : undefined;
    if (day && day < minDay) return setError(strings.tooEarly(formatDay(isoDay(minDay), locale)));
    if (day && maxDay && day > maxDay) return setError(strings.tooLate(formatDay(isoDay(maxDay), locale)));
    setError('');
    if (iso !== emitted.current) {
      emitted.current = iso;
      onChange(iso);
    }
  };

  const pick = (day: Date) => {
    const iso = isoDay(day);
    setText(formatDay(iso, locale));
    setOpen(false);
    clearTimeout(timer.current);
    setError('');
    if (iso !== emitted.current) {
      emitted.current = iso;
      onChange(iso);
    }
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const calendarId = `${id}-calendar`;
  const toggleRef = useRef<HTMLButtonElement>(null);
  return (
    <div className="hr-field hr-date-field" data-testid={testId}>
      <label className="hr-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="hr-field__row">
        <input
          id={id}
          className="hr-field__input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')}
          onChange={(event) => {
            const typed = event.target.value;
            setText(typed);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => commit(typed), DATE_PICKER_DEBOUNCE_MS);
          }}
          onBlur={() => {
            if (timer.current !== undefined) commit(text);
          }}
        />
        <button
          ref={toggleRef}
          type="button"
          className="hr-date-field__toggle"
          aria-label={strings.chooseDate}
          aria-expanded={open}
          aria-controls={calendarId}
          onClick={() => setOpen((was) => !was)}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M3 10h18M8 3v4M16 3v4" />
          </svg>
        </button>
      </div>
      <div id={hintId} className="hr-field__hint">
        {strings.hint(example)}
      </div>
      {error ? (
        <p id={errorId} className="hr-date-field__error" role="alert">
          {error}
        </p>
      ) : null}
      {open ? (
        <Calendar
          id={calendarId}
          label={`${strings.chooseDate}: ${label}`}
          locale={locale}
          strings={strings}
          selected={dayOf(value)}
          minDay={minDay}
          maxDay={maxDay}
          onPick={pick}
          onClose={() => {
            setOpen(false);
            toggleRef.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

interface CalendarProps {
  id: string;
  label: string;
  locale: string;
  strings: DateFieldStrings;
  selected: Date | undefined;
  minDay: Date;
  maxDay: Date | undefined;
  onPick: (day: Date) => void;
  onClose: () => void;
}

function Calendar({ id, label, locale, strings, selected, minDay, maxDay, onPick, onClose }: CalendarProps) {
  const [focused, setFocused] = useState(() => {
    const now = new Date();
    return clamp(selected ?? utcDay(now.getFullYear(), now.getMonth(), now.getDate()), minDay, maxDay);
  });
  const grid = useRef<HTMLTableElement>(null);
  useEffect(() => {
    // Focus follows the focused day: on opening (the grid takes focus at once) and on every move.
    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  }, [focused]);

  const year = focused.getUTCFullYear();
  const month = focused.getUTCMonth();
  const caption = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    focused,
  );
  const full = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
  const weekdayShort = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const weekdayLong = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const weeks = monthWeeks(year, month);
  const monday = weeks[0]![0]!;
  const outOfBounds = (day: Date) => day < minDay || (maxDay !== undefined && day > maxDay);
  const firstOfMonth = utcDay(year, month, 1);
  const lastOfMonth = utcDay(year, month + 1, 0);

  const move = (to: Date) => {
    setFocused(clamp(to, minDay, maxDay));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    // Right to left (the shell sets `dir` on <html>), the arrow keys follow the mirrored grid.
    const rtl = event.currentTarget.closest('[dir]')?.getAttribute('dir')?.toLowerCase() === 'rtl';
    const step: Record<string, () => Date> = {
      ArrowLeft: () => addDays(focused, rtl ? 1 : -1),
      ArrowRight: () => addDays(focused, rtl ? -1 : 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      PageUp: () => addMonths(focused, event.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focused, event.shiftKey ? 12 : 1),
      Home: () => addDays(focused, -weekdayIndex(focused)),
      End: () => addDays(focused, 6 - weekdayIndex(focused)),
    };
    const next = step[event.key];
    if (!next) return;
    event.preventDefault();
    move(next());
  };

  return (
    <div
      id={id}
      className="hr-date-field__calendar"
      role="dialog"
      aria-label={label}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      <div className="hr-date-field__header">
        <button
          type="button"
          className="hr-date-field__nav"
          aria-label={strings.previousMonth}
          disabled={firstOfMonth <= minDay}
          onClick={() => move(addMonths(focused, -1))}
        >
          <span aria-hidden="true" className="hr-date-field__arrow">
            ‹
          </span>
        </button>
        <h3 className="hr-date-field__caption" id={`${id}-caption`} aria-live="polite">
          {caption}
        </h3>
        <button
          type="button"
          className="hr-date-field__nav"
          aria-label={strings.nextMonth}
          disabled={maxDay !== undefined && lastOfMonth >= maxDay}
          onClick={() => move(addMonths(focused, 1))}
        >
          <span aria-hidden="true" className="hr-date-field__arrow">
            ›
          </span>
        </button>
      </div>
      <table ref={grid} role="grid" aria-labelledby={`${id}-caption`} onKeyDown={onKeyDown}>
        <thead>
          <tr>
            {[0, 1, 2, 3, 4, 5, 6].map((i) => {
              const day = addDays(monday, i);
              return (
                <th key={i} scope="col" abbr={weekdayLong.format(day)}>
                  {weekdayShort.format(day)}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={isoDay(week[0]!)}>
              {week.map((day) => {
                const iso = isoDay(day);
                const isSelected = selected !== undefined && iso === isoDay(selected);
                const inMonth = day.getUTCMonth() === month;
                return (
                  <td key={iso} role="gridcell" aria-selected={isSelected}>
                    <button
                      type="button"
                      className="hr-date-field__day"
                      data-outside={inMonth ? undefined : 'true'}
                      data-day={iso}
                      tabIndex={iso === isoDay(focused) ? 0 : -1}
                      aria-label={full.format(day)}
                      disabled={outOfBounds(day)}
                      onClick={() => onPick(day)}
                    >
                      {day.getUTCDate()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
