/** A date and time in the page's language. */
export function formatWhen(at: number, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/** The browser and system a user agent names (one reading with the gateway's mails). */
export { describeUserAgent } from 'shared-contracts';
