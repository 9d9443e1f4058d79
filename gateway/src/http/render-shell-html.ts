import { escapeHtmlText, isSafeCssColour } from 'shared-contracts';

/** Values injected into the first HTML of the shell. */
export interface ShellHtmlValues {
  /** The response's CSP nonce; replaces every `__CSP_NONCE__`. */
  nonce: string;
  /** Page title ("<partnerName> Identity", SPEC.md §1); plain text, escaped here. */
  title?: string | undefined;
  /** Partner background colour; dropped unless it is a plain CSS colour (S34: shared `isSafeCssColour`). */
  backgroundColor?: string | undefined;
}

/**
 * Fills the shell's index.html for one response: nonce placeholders, and the partner's page
 * title and background colour. Values are escaped or validated, never inserted as markup.
 */
export function renderShellHtml(html: string, values: ShellHtmlValues): string {
  let out = html.replaceAll('__CSP_NONCE__', values.nonce);
  if (values.title) {
    const title = `<title>${escapeHtmlText(values.title)}</title>`;
    out = /<title>[\s\S]*?<\/title>/i.test(out)
      ? out.replace(/<title>[\s\S]*?<\/title>/i, () => title)
      : out.replace(/<\/head>/i, () => `${title}</head>`);
  }
  if (values.backgroundColor && isSafeCssColour(values.backgroundColor)) {
    const style = `<style nonce="${values.nonce}">:root{--partner-background:${values.backgroundColor.trim()}}</style>`;
    out = out.replace(/<\/head>/i, () => `${style}</head>`);
  }
  return out;
}
