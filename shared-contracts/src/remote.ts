import type { ComponentType } from 'react';
import { DEFAULT_LOCALE, type SupportedLocale } from './constants.js';
import { matchSupportedLocale } from './locales/error-translations.js';

/**
 * The six remotes, each owned by one team (ARCHITECTURE.md "Packages"): five sign-in and account flows, and the
 * operators' console `mfe-admin` (ADR 0060).
 */
export const REMOTE_IDS = [
  'mfe-login',
  'mfe-mfa',
  'mfe-recovery',
  'mfe-devices',
  'mfe-tenant',
  'mfe-admin',
] as const;

/** A remote's id; also its package name, its federation name (with `_` for `-`) and its i18next namespace. */
export type RemoteId = (typeof REMOTE_IDS)[number];

/** Who renders a route: the shell itself or one of the remotes. */
export type RouteOwner = 'shell' | RemoteId;

/** The name a remote's container is registered under, its entry's global (identifiers cannot hold "-"). */
export function federationName(id: RemoteId): string {
  return id.replace(/-/g, '_');
}

/** The one exposed module of every remote (ARCHITECTURE.md "The remote contract"). */
export const REMOTE_EXPOSED_MODULE = './remote';

/** What a lazily loaded remote page module resolves to (react-router's `lazy` convention). */
export interface RemotePageModule {
  /** The page component rendered for the route. */
  Component: ComponentType;
}

/** One page a remote renders, keyed by its path in the route table. */
export interface RemoteRoute {
  /** The route's path exactly as in {@link ROUTES}. */
  path: string;
  /** Loads the page's code on first use. */
  lazy: () => Promise<RemotePageModule>;
}

/** A remote's translations for one locale: one i18next namespace, named after the remote's id. */
export type RemoteTranslations = Record<string, unknown>;

/**
 * The shape of every remote's `./remote` export. A remote never imports another remote or the shell; the shell
 * loads this module at runtime, adds the routes to its router and the translations to its i18next instance.
 */
export interface RemoteModule {
  /** Which remote this is. */
  id: RemoteId;
  /** The pages it renders; every path must be owned by this remote in the route table. */
  routes: readonly RemoteRoute[];
  /** Loads its translations for a locale; resolves to en-GB text for a locale it does not ship. */
  loadTranslations: (locale: string) => Promise<RemoteTranslations>;
}

/** The file name of a remote build's federation manifest, written beside its `remoteEntry.js`. */
export const FEDERATION_MANIFEST_FILE = 'mf-manifest.json';

/**
 * The remotes manifest served at `/remotes/manifest.json`: remote id → the version this browser uses and the URL the
 * shell's federation runtime loads it from: that version's {@link FEDERATION_MANIFEST_FILE} (or, for a version
 * published without one, its `remoteEntry.js`).
 */
export interface RemotesManifest {
  /** One entry per remote with an active version. */
  remotes: Partial<Record<RemoteId, { entry: string; version: string }>>;
}

/** Loaders of a remote's translation files, one per shipped locale (each becomes its own chunk). */
export type RemoteLocaleLoaders = Record<SupportedLocale, () => Promise<{ default: RemoteTranslations }>>;

/**
 * Builds a remote's `./remote` export. Translations load for the shipped locale that fits the requested one
 * (exact, then the same language: `de-AT` → `de`), and en-GB text for a locale not shipped (e.g. `ar`, which
 * still gets its right-to-left layout from the shell).
 */
export function defineRemote(
  id: RemoteId,
  routes: readonly RemoteRoute[],
  locales: RemoteLocaleLoaders,
): RemoteModule {
  return {
    id,
    routes,
    loadTranslations: async (locale) =>
      (await locales[matchSupportedLocale(locale) ?? DEFAULT_LOCALE]()).default,
  };
}
