import type { ReactElement } from 'react';
import { renderWithProviders } from 'shared-contracts/testing';
import deCommon from '../locales/de/common.json';
import enGBCommon from '../locales/en-GB/common.json';
import enCommon from '../locales/en/common.json';
import esCommon from '../locales/es/common.json';
import frCACommon from '../locales/fr-CA/common.json';

/** The shell's real `common` namespace in every locale (the platform's strings live under its `platform` key). */
const COMMON_RESOURCES = {
  'en-GB': { common: enGBCommon },
  en: { common: enCommon },
  de: { common: deCommon },
  'fr-CA': { common: frCACommon },
  es: { common: esCommon },
};

/** One recorded request of {@link renderWithPlatform}'s fetch stub. */
export interface RecordedCall {
  method: string;
  url: string;
}

/**
 * Renders with the shared providers and the shell's `common` namespace; account calls reach a stub that answers
 * 200 `{}` (or the reply given for `"<METHOD> <path>"`) and records them.
 */
export async function renderWithPlatform(ui: ReactElement, replies: Record<string, unknown> = {}) {
  const calls: RecordedCall[] = [];
  const fetch = (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = init.method ?? 'GET';
    calls.push({ method, url });
    const key = `${method} ${url.split('?')[0]}`;
    const body = key in replies ? replies[key] : key.endsWith('/Antiforgery') ? { token: 't' } : {};
    return Promise.resolve(
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  };
  document.cookie = 'idp.x-csrf-token-value=t; Path=/';
  const result = await renderWithProviders(ui, { resources: COMMON_RESOURCES, defaultNS: 'common', fetch });
  return { ...result, calls };
}
