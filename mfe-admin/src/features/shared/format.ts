/** Locale formatting of the console's pages (figures, sizes and times in the reader's language). */

/** A moment (ISO 8601) as date and time in the locale, in the reader's time zone. */
export function formatWhen(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

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

/**
 * A name or version set inside a translated sentence, isolated (Unicode FSI … PDI) so that right to left it keeps its
 * own order: "0.2.0-bbb" stays "0.2.0-bbb" instead of "bbb-0.2.0" (the HTML equivalent of `<bdi>` for a string).
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
