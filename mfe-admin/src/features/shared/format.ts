/** Formatting every console page uses (issue 52): times in the reader's language, names kept in order right to left. */

/** A moment (ISO 8601) as date and time in the locale, in the reader's time zone. */
export function formatWhen(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * A name or version set inside a translated sentence, isolated (Unicode FSI … PDI) so that right to left it keeps its
 * own order: "0.2.0-bbb" stays "0.2.0-bbb" instead of "bbb-0.2.0" (the HTML equivalent of `<bdi>` for a string).
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
