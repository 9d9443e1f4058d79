/** Locale formatting of the console's pages (figures, sizes and times in the reader's language). */

export { formatWhen, isolate } from '../shared/format';

/** A count with the locale's digit grouping (1,234 / 1.234 / 1 234). */
export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A share or rate (0–1) as a percentage: 0.025 → "2.5%" / "2,5 %". */
export function formatRate(rate: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(rate);
}

/** A whole percent (1–99) as the locale writes it: 25 → "25%" / "25 %". */
export function formatPercent(percent: number, locale: string): string {
  return formatRate(percent / 100, locale);
}

/** Bytes on the wire in kilobytes (SI: 1 kB = 1,000 B), one decimal: 48213 → "48.2 kB". */
export function formatBytes(bytes: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'kilobyte',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(bytes / 1000);
}
