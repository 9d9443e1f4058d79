import { userInfo } from 'node:os';

/**
 * Who made a console action, as every console audit record names it (ADR 0058): `userId` the acting account (null
 * for the CLI and the canary guard) and `name` its `data.actor` — a username, `cli:<os user>` or `guard`.
 */
export interface ConsoleActor {
  userId: string | null;
  name: string;
}

/** A signed-in operator of the console. */
export function operatorActor(user: { id: string; username: string }): ConsoleActor {
  return { userId: user.id, name: user.username };
}

/** The admin CLI run by the operating-system account `osUser` (the one running this process by default). */
export function cliActor(osUser: string = currentOsUser()): ConsoleActor {
  return { userId: null, name: `cli:${osUser}` };
}

function currentOsUser(): string {
  try {
    return userInfo().username;
  } catch {
    // A container may run under a uid with no passwd entry.
    return 'unknown';
  }
}
