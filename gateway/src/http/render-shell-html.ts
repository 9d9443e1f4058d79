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

const STYLESHEET_LINK = /<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="(\/assets\/[\w.-]+\.css)"[^>]*>/g;
const DEFERRED_SCRIPT = /<script\b(?=[^>]*\bdefer\b)[^>]*\bsrc="(\/assets\/[\w.-]+\.js)"[^>]*><\/script>/g;

/**
 * The shell's index.html for a page drawn ahead (ADR 0007): its stylesheets inline (nonce placeholder, filled per
 * response), so nothing holds the first paint back, and its scripts asked for only once the drawn page is on screen
 * (the browser has reported its first contentful paint; or 250 ms in a hidden tab, which draws no frames; or the
 * next frame in a browser without paint timing; 3 s at the latest in a visible tab: a busy machine can paint
 * 400 ms after the HTML was read, and a 250 ms fallback there sent the scripts ahead of the paint), so they do
 * not share the first round trips with the HTML and the styles. On screen, not only painted: a frame reaches the
 * screen some milliseconds after the main thread painted it, and a script asked for in between (15 loads of 20
 * here) is, to Lighthouse's simulation, something the largest paint waited for: its LCP then read 1.0-1.6 s instead
 * of 0.65 s in some runs. The drawn page needs no script to be
 * read and typed in, and a submit meanwhile is held for the app (no-flash.ts). The scripts keep their order
 * (`async = false`). A stylesheet that cannot be read stays a link; hrefs and srcs are the build's own hashed asset
 * paths (anything else is left as it is).
 */
export function firstPaintShellHtml(html: string, readAsset: (href: string) => string | undefined): string {
  let out = html.replace(STYLESHEET_LINK, (link, href: string) => {
    const css = readAsset(href);
    // A stylesheet cannot end the element early: `</` never stays as written.
    return css === undefined ? link : `<style nonce="__CSP_NONCE__">${css.replaceAll('</', '<\\/')}</style>`;
  });
  const scripts: string[] = [];
  out = out.replace(DEFERRED_SCRIPT, (_tag, src: string) => {
    scripts.push(src);
    return '';
  });
  if (scripts.length === 0) return out;
  const list = JSON.stringify(scripts).replaceAll('<', '\\u003c');
  const loader =
    `<script nonce="__CSP_NONCE__" data-after-paint>(function(){var u=${list},d=0;` +
    'function go(){if(d)return;d=1;for(var i=0;i<u.length;i++){var s=document.createElement("script");' +
    's.src=u[i];s.async=false;document.body.appendChild(s);}}' +
    'function soon(){setTimeout(go,0);}' +
    'try{var o=new PerformanceObserver(function(l){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();soon();}});' +
    'o.observe({type:"paint",buffered:true});}catch(e){if(window.requestAnimationFrame)requestAnimationFrame(soon);}' +
    'setTimeout(go,document.visibilityState==="hidden"?250:3000);})();</script>';
  return out.replace(/<\/body>/i, () => `${loader}</body>`);
}
