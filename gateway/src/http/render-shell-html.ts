import {
  contrastingTextColour,
  escapeHtmlText,
  isSafeCssColour,
  matchSupportedLocale,
  parseRgb,
} from 'shared-contracts';
import type { FirstPaint } from './first-paint.js';

/** Values injected into the first HTML of the shell. */
export interface ShellHtmlValues {
  /** The response's CSP nonce; replaces every `__CSP_NONCE__`. */
  nonce: string;
  /** Page title ("<partnerName> Identity", SPEC.md §1); plain text, escaped here. */
  title?: string | undefined;
  /** Partner background colour; dropped unless it is a plain CSS colour (S34: shared `isSafeCssColour`). */
  backgroundColor?: string | undefined;
  /** The partner's logo URL when it has one: a `<meta>` tells the shell, which then never asks for a missing one. */
  logoUrl?: string | undefined;
  /** The page drawn ahead (sign-in): put into the root element, with the document's language. */
  firstPaint?: FirstPaint | undefined;
}

/**
 * Fills the shell's index.html for one response: nonce placeholders, the partner's page title, background colour
 * (and the black or white text that reads on it), logo flag, and for the pages drawn ahead the page itself in the
 * root element. Values are escaped or validated; the drawn page is markup of our own build, its partner values
 * already escaped (first-paint.ts).
 */
export function renderShellHtml(html: string, values: ShellHtmlValues): string {
  let out = html.replaceAll('__CSP_NONCE__', values.nonce);
  const head: string[] = [];
  if (values.title) {
    const title = `<title>${escapeHtmlText(values.title)}</title>`;
    if (/<title>[\s\S]*?<\/title>/i.test(out)) out = out.replace(/<title>[\s\S]*?<\/title>/i, () => title);
    else head.push(title);
  }
  if (values.backgroundColor && isSafeCssColour(values.backgroundColor)) {
    const colour = values.backgroundColor.trim();
    const rgb = parseRgb(colour);
    // The shell computes the same pair in the browser; writing it here keeps the header's text from changing
    // colour when the app takes over. Named and hsl() colours are left to the browser-side computation.
    const on = rgb ? `;--partner-on-background:${contrastingTextColour(rgb)}` : '';
    head.push(`<style nonce="${values.nonce}">:root{--partner-background:${colour}${on}}</style>`);
  }
  if (values.logoUrl) head.push(`<meta name="partner-logo" content="${escapeHtmlText(values.logoUrl)}" />`);
  if (head.length > 0) out = out.replace(/<\/head>/i, () => `${head.join('')}</head>`);
  const page = values.firstPaint;
  if (page) {
    out = out.replace(/<html\b[^>]*>/i, () => `<html lang="${escapeHtmlText(page.lang)}" dir="${page.dir}">`);
    // Text of a language without shipped translations is en-GB: marked as such, and isolated so an RTL page does
    // not flip its punctuation (the shell's applyDocumentLanguage does the same once it runs).
    if (!matchSupportedLocale(page.lang))
      out = out.replace(/<body\b/i, () => `<body lang="${page.textLang}" data-text-fallback=""`);
    out = out.replace(
      /<div id="root"><\/div>/,
      () => `<div id="root" data-first-paint="">${page.html}</div>`,
    );
  }
  return out;
}
