import { Fragment, type ReactNode } from 'react';

/** A pair of tags in a translated string: `<name>text</name>` (no attributes, no nesting). */
const TAG = /<(\w+)>([^<]*)<\/\1>/g;

/**
 * A translated sentence with links in it: each `<name>text</name>` of `text` becomes `links[name](text)`, the rest
 * stays text; a pair with no link of its name shows its text alone. The reCAPTCHA notice is the one such sentence;
 * react-i18next's `Trans` does the same with an HTML parser that would put ≈ 3.8 KiB (brotli) on every sign-in page
 * (bench/README.md "Where the sign-in bytes go"), so the shared react-i18next leaves it out.
 */
export function linkedText(
  text: string,
  links: Readonly<Record<string, (label: string) => ReactNode>>,
): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, name = '', label = ''] = match;
    const link = Object.hasOwn(links, name) ? links[name] : undefined;
    parts.push(
      text.slice(at, match.index),
      <Fragment key={match.index}>{link ? link(label) : label}</Fragment>,
    );
    at = match.index + whole.length;
  }
  parts.push(text.slice(at));
  return parts.filter((part) => part !== '');
}
