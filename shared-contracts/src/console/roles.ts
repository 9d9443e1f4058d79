/**
 * The console's roles, in a file of their own so the schemas of each console area (`grants.ts`, …) can name them
 * without importing the entry that re-exports those areas (no import cycle).
 */
export const CONSOLE_ROLES = ['platformAdmin', 'releaseManager', 'support', 'customerAdmin'] as const;
/** A console grant's role. */
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];
