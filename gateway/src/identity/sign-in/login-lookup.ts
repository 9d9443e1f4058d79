import type { User, UserRepository } from '../../store/user.repository.js';

const lookups = new WeakMap<object, { login: string; user: Promise<User | undefined> }>();

/**
 * The account a login names, looked up once per request: the captcha check in front of `Login` and the sign-in
 * itself both resolve it (for the throttle's account key), and the second reads the first one's answer instead of
 * querying the users table again. Keyed by the call's `Browser` port (one object per request), so it lives exactly
 * as long as the request.
 */
export function findLoginOnce(
  call: object,
  users: Pick<UserRepository, 'findByLogin'>,
  login: string,
): Promise<User | undefined> {
  const seen = lookups.get(call);
  if (seen && seen.login === login) return seen.user;
  const user = users.findByLogin(login);
  lookups.set(call, { login, user });
  return user;
}
