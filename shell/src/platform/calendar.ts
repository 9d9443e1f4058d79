/** Earliest date a picker accepts (SPEC.md §9 date floor). */
export const DATE_FLOOR = '1901-01-01';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date without time or zone. */
export interface CalendarDate {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

/** Parses `YYYY-MM-DD` into a real calendar date (no 31 February), else undefined. */
export function parseIsoDate(text: string): CalendarDate | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return { year, month, day };
}

/** `YYYY-MM-DD` of a calendar date. */
export function formatIsoDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Weekday index with the week starting on Monday (SPEC.md §5): Monday 0 … Sunday 6. */
export function mondayFirstWeekday(date: CalendarDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

/** The weeks of a month, Monday first; days outside the month are null. */
export function monthWeeks(year: number, month: number): (number | null)[][] {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const cells: (number | null)[] = Array.from(
    { length: mondayFirstWeekday({ year, month, day: 1 }) },
    () => null,
  );
  for (let day = 1; day <= daysInMonth; day += 1) cells.push(day);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (number | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** Short weekday names in the locale, Monday first. */
export function mondayFirstWeekdayNames(locale: string): string[] {
  // 2024-01-01 was a Monday.
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}
