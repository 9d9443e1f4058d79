import { ADMIN_PEOPLE_PATH, ADMIN_RELEASES_PATH } from 'shared-contracts';
import type { ConsolePermissionName } from 'shared-contracts/console';

/** One page of the console's navigation: where it is, what it needs, and its title key (`routes.*`). */
export interface ConsolePage {
  path: string;
  permission: ConsolePermissionName;
  titleKey: string;
}

/**
 * The console's pages in navigation order (ADR 0060). The navigation and `/admin` show only those whose permission
 * the caller holds (ConsoleAccess), so a release manager sees the Releases page and no other.
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  { path: ADMIN_RELEASES_PATH, permission: 'console.releases.read', titleKey: 'routes.releases' },
  { path: ADMIN_PEOPLE_PATH, permission: 'console.people.read', titleKey: 'routes.people' },
];

/** The pages a caller with these permissions may open, in navigation order. */
export function pagesFor(permissions: readonly string[]): ConsolePage[] {
  return CONSOLE_PAGES.filter((page) => permissions.includes(page.permission));
}
