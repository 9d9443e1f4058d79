/**
 * Which language a visitor sees, decided the same way by the shell (in the browser) and by the gateway (the page it
 * draws before any JavaScript runs), so the first paint and the app agree.
 */
import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from './constants.js';
import type { PartnerLanguage } from './partner.schema.js';

/** A BCP 47-like tag (`de`, `fr-CA`, `zh-Hant-TW`). Anything else is refused before it reaches a cookie. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** True when `value` is a plain language tag; it is then safe inside a cookie value or an attribute. */
export function isLanguageTag(value: unknown): value is string {
  return typeof value === 'string' && LANGUAGE_TAG.test(value);
}

/** Inputs of {@link chooseLocale}. */
export interface LocaleChoiceInput {
  /** The partner's languages; when given and not empty, only one of them can win. */
  availableLanguages?: readonly Pick<PartnerLanguage, 'name'>[] | null | undefined;
  /** The partner's default language (SPEC.md §3). */
  defaultLanguage?: string | null | undefined;
  /** The choice saved in the browser's local storage (the shell only). */
  saved?: string | undefined;
  /** The `c=` locale of the culture cookie. */
  cookie?: string | undefined;
  /** The browser's languages, best first (`navigator.languages`, or a parsed Accept-Language header). */
  accepted?: readonly string[] | undefined;
}

/** The tag of `offered` that `tag` names exactly (case-insensitive), in the list's own spelling. */
function exactly(offered: readonly string[], tag: string): string | undefined {
  const wanted = tag.toLowerCase();
  return offered.find((candidate) => candidate.toLowerCase() === wanted);
}

/**
 * The tag of `offered` that serves a browser language: the same tag, else the bare language (`de-AT` → `de`,
 * `en-US` → `en`), else another region of it (`fr` → `fr-CA`).
 */
function closest(offered: readonly string[], tag: string): string | undefined {
  if (!isLanguageTag(tag)) return undefined;
  const language = tag.toLowerCase().split('-')[0] ?? tag;
  return (
    exactly(offered, tag) ??
    exactly(offered, language) ??
    offered.find((candidate) => candidate.toLowerCase().split('-')[0] === language)
  );
}

/**
 * The locale to show: the saved choice, else the culture cookie (both only when the partner offers them, so one
 * partner's choice does not leak into another's), else the first browser language the partner offers (the shipped
 * locales when the partner lists none), else the partner's default, else en-GB.
 */
export function chooseLocale(input: LocaleChoiceInput): string {
  const offered = (input.availableLanguages ?? []).map((language) => language.name);
  for (const candidate of [input.saved, input.cookie]) {
    if (!isLanguageTag(candidate)) continue;
    if (offered.length === 0) return candidate;
    const match = exactly(offered, candidate);
    if (match) return match;
  }
  const choices = offered.length > 0 ? offered : SUPPORTED_LOCALES;
  for (const tag of input.accepted ?? []) {
    const match = closest(choices, tag);
    if (match) return match;
  }
  if (isLanguageTag(input.defaultLanguage)) return input.defaultLanguage;
  return DEFAULT_LOCALE;
}
