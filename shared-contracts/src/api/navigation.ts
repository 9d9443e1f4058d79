/**
 * How the API client moves the browser. The shell registers its router's navigate function at start-up so a
 * 209 to a known client route stays in-app (SPEC.md §4); before that, and in tests, the defaults below apply.
 */

/** Navigates in-app to a local path (`/account/select?x=1`). `replace` replaces the history entry. */
export type InAppNavigator = (path: string, options?: { replace?: boolean }) => void | Promise<void>;

/** Leaves the app: a full page load of a URL. */
export type LocationAssigner = (url: string) => void;

let inApp: InAppNavigator | undefined;
let assign: LocationAssigner = (url) => globalThis.location.assign(url);

/** The shell registers its router here; `undefined` unregisters it. */
export function registerNavigator(navigator: InAppNavigator | undefined): void {
  inApp = navigator;
}

/** Replaces how full page loads happen (tests observe them; the dev host may log them). */
export function registerLocationAssigner(assigner: LocationAssigner): void {
  assign = assigner;
}

/** Navigates in-app when a navigator is registered, else by a full page load of the same path. */
export async function navigateInApp(path: string, options?: { replace?: boolean }): Promise<void> {
  if (inApp) await inApp(path, options);
  else assign(path);
}

/** A full page load of `url`. */
export function navigateFull(url: string): void {
  assign(url);
}
