import type { i18n as I18n } from 'i18next';
import { findRoute } from 'shared-contracts';
import { Workbox } from 'workbox-window';
import { showToast } from './toast-outlet.js';

/** Where the built service worker is served (the shell's dist root; scope "/"). */
export const SERVICE_WORKER_URL = '/sw.js';

/** Toast id of the update prompt, so a second `waiting` event does not stack a second toast. */
export const UPDATE_TOAST_ID = 'shell-update-available';

/** How often an open page asks whether a new shell was published. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

let registered: Workbox | undefined;

/** Whether the page shown is a step of a flow (a remote's route) rather than one of the shell's own pages. */
function inSignInFlow(): boolean {
  const route = findRoute(window.location.pathname);
  return route !== undefined && route.owner !== 'shell';
}

/** What the offline worker needs from the shell. */
export interface OfflineWorkerOptions {
  i18n: I18n;
  /** The partner's name: the `{product}` of the update message (SPEC.md §1). */
  productName: () => string;
  /** Defaults to {@link SERVICE_WORKER_URL}. */
  url?: string;
  /** Reloads the page; replaced in tests. */
  reload?: () => void;
}

/**
 * Registers the shell's service worker (workbox-window) and wires SPEC.md §4 "Update worker": offline ready →
 * a short toast; a new version waiting → the update toast with a Reload button that stays until acted on;
 * the new worker taking control → reload, so the page runs the version the worker serves.
 * Returns undefined where service workers are unavailable (plain http on a non-localhost host, old browsers).
 */
export function registerOfflineWorker(options: OfflineWorkerOptions): Workbox | undefined {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return undefined;
  // Once per page, even when React's strict mode runs the registering effect twice.
  if (registered) return registered;
  const reload = options.reload ?? (() => window.location.reload());
  const workbox = new Workbox(options.url ?? SERVICE_WORKER_URL, { scope: '/' });
  registered = workbox;
  const t = (key: string, values?: Record<string, string>) =>
    options.i18n.t(key, { ns: 'common', ...values });

  workbox.addEventListener('installed', (event) => {
    // First install only: an update (or a worker installed by another tab, "external") is not "offline ready".
    // Never in the middle of a sign-in (a remote's page): there it only distracts; a shell page says it.
    if (!event.isUpdate && !event.isExternal && !inSignInFlow()) {
      showToast({ kind: 'info', message: t('platform.offline.ready') });
    }
  });

  let updateAccepted = false;
  workbox.addEventListener('waiting', () => {
    showUpdateToast(
      t('platform.update.available', { product: options.productName() }),
      t('platform.update.reload'),
      () => {
        updateAccepted = true;
        workbox.messageSkipWaiting();
      },
    );
  });

  // Reload when an update takes control, never for the first install claiming the page (clients.claim changes
  // nothing visible). workbox-window's `isUpdate` only says whether a worker controlled the page at register
  // time, so a page first opened without a worker sees its later update as `isExternal` (a second updatefound);
  // an update another tab accepted arrives the same way, and this tab must reload onto it too.
  workbox.addEventListener('controlling', (event) => {
    if (updateAccepted || event.isUpdate || event.isExternal) reload();
  });

  workbox.register().then(
    (registration) => {
      if (!registration) return;
      window.setInterval(() => {
        registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    },
    () => undefined, // No worker (blocked, private mode): the site still works online.
  );
  return workbox;
}

/**
 * The update toast (SPEC.md §1): stays until the Reload button is used; other toasts last 2000 ms (SPEC.md §9).
 */
export function showUpdateToast(message: string, reloadLabel: string, onReload: () => void): void {
  showToast({
    kind: 'plain',
    message,
    id: UPDATE_TOAST_ID,
    duration: Number.POSITIVE_INFINITY,
    action: { label: reloadLabel, onClick: onReload },
  });
}
