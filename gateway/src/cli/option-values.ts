import { parseRole, type RoleName } from '../store/roles.js';
import type { Store } from '../store/store.js';
import type { User } from '../store/user.repository.js';
import { UsageError } from './cli-support.js';

/** Comma-separated and repeated values as one list, blanks dropped. */
export function list(value: string | string[] | undefined): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Roles by number or name (`EMPLOYEE,2`). */
export function roles(value: string | undefined): RoleName[] {
  return list(value).map((text) => {
    const role = parseRole(text);
    if (!role)
      throw new UsageError(
        `unknown role "${text}" (1–7 or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN)`,
      );
    return role;
  });
}

/** An absolute http(s) URL, as given. */
export function url(text: string, option: string): string {
  try {
    const parsed = new URL(text);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    return text;
  } catch {
    throw new UsageError(`--${option}: "${text}" is not an http(s) URL`);
  }
}

/** `true` or `false`; undefined when the option is not given. */
export function flag(text: string | undefined, option: string): boolean | undefined {
  if (text === undefined) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new UsageError(`--${option} must be true or false`);
}

/** A new password (S1: at least 8 characters; any characters, never trimmed). */
export function password(text: string): string {
  if (text.length < 8) throw new UsageError('--password must have at least 8 characters');
  if (text.length > 1024) throw new UsageError('--password must have at most 1024 characters');
  return text;
}

export function email(text: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text))
    throw new UsageError(`--email: "${text}" is not an e-mail address`);
  return text;
}

/** A whole number from 1 to `max`. */
export function positiveInteger(text: string, option: string, max: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new UsageError(`--${option} must be a whole number from 1 to ${max}, not "${text}"`);
  return value;
}

/** The user signing in with `login` (username or e-mail address). */
export async function findUser(store: Store, login: string): Promise<User> {
  const user = await store.users.findByLogin(login);
  if (!user) throw new UsageError(`no user "${login}"`);
  return user;
}
