/**
 * The one layout of every mail: greeting, body, sign-off and the automated-message note, as plain text and as HTML
 * from the same blocks, so the two parts never say different things. Texts come in as plain text; the HTML part
 * escapes every one of them (the words of the locale files included), so no value and no translation is markup.
 */
import { escapeHtmlText, type SupportedLocale } from 'shared-contracts';
import { interpolate, type MessageTexts } from './message-texts.js';

/** A paragraph, a code to copy, or a link shown as a button (with the address written out under it). */
export type Block = string | { code: string } | { link: string; label: string };

/** What one mail says, in its locale's words. */
export interface LaidOutMessage {
  subject: string;
  /** The reader's name for the greeting; a neutral greeting without it. */
  name: string | undefined;
  /** The partner that sent it, signed under the sign-off. */
  partner: string;
  body: Block[];
}

/** The text and HTML parts of a message, with the layout's own words in `texts`. */
export function layOut(
  locale: SupportedLocale,
  texts: MessageTexts['layout'],
  message: LaidOutMessage,
): { subject: string; text: string; html: string } {
  const greeting = message.name ? interpolate(texts.greetingNamed, { name: message.name }) : texts.greeting;
  const signature = [texts.signOff, message.partner];
  return {
    subject: message.subject,
    text: renderText(texts, greeting, message.body, signature),
    html: renderHtml(locale, texts, message.subject, greeting, message.body, signature),
  };
}

function renderText(
  texts: MessageTexts['layout'],
  greeting: string,
  body: Block[],
  signature: string[],
): string {
  const parts = [greeting];
  for (const block of body) {
    if (typeof block === 'string') parts.push(block);
    else if ('code' in block) parts.push(`    ${block.code}`);
    else parts.push(`${interpolate(texts.labelled, { label: block.label })}\n${block.link}`);
  }
  parts.push(signature.join('\n'), `--\n${texts.automated}`);
  return `${parts.join('\n\n')}\n`;
}

function renderHtml(
  locale: SupportedLocale,
  texts: MessageTexts['layout'],
  subject: string,
  greeting: string,
  body: Block[],
  signature: string[],
): string {
  const e = escapeHtmlText;
  const paragraph = (inner: string, style = 'margin:0 0 16px') => `<p style="${style}">${inner}</p>`;
  const rows = [paragraph(e(greeting))];
  for (const block of body) {
    if (typeof block === 'string') rows.push(paragraph(e(block)));
    else if ('code' in block)
      rows.push(
        paragraph(
          e(block.code),
          'margin:0 0 16px;font-family:Consolas,Menlo,monospace;font-size:24px;font-weight:bold;letter-spacing:4px',
        ),
      );
    else
      rows.push(
        paragraph(
          `<a href="${e(block.link)}" style="display:inline-block;padding:10px 20px;background:#1f4e9c;color:#ffffff;text-decoration:none;border-radius:4px">${e(block.label)}</a>`,
        ),
        paragraph(
          `${e(texts.linkFallback)}<br><a href="${e(block.link)}">${e(block.link)}</a>`,
          'margin:0 0 16px;font-size:13px;color:#555555',
        ),
      );
  }
  rows.push(paragraph(signature.map(e).join('<br>')));
  rows.push(paragraph(e(texts.automated), 'margin:24px 0 0;font-size:12px;color:#777777'));
  return [
    '<!doctype html>',
    `<html lang="${e(locale)}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222222">',
    ...rows,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
