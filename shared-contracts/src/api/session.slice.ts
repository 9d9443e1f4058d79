import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Client state of the sign-in session that outlives one page (SPEC.md §3 "Login state"): the timed-out flag set
 * by the base query on a 400 without errors, and the username kept for the browser session.
 */
export interface SessionState {
  /** Set when the server answered 400 without an errors map (SPEC.md §4): the login page says so once. */
  timedOut: boolean;
  /** The username typed at sign-in, kept for the session (SPEC.md §3). */
  username: string | undefined;
}

/** sessionStorage key of the remembered username: the tab's session, never longer. */
export const USERNAME_STORAGE_KEY = 'hr-identity.username';

function readStoredUsername(): string | undefined {
  try {
    return globalThis.sessionStorage?.getItem(USERNAME_STORAGE_KEY) ?? undefined;
  } catch {
    // Storage can throw (privacy modes, sandboxed frames): the username is then kept in memory only.
    return undefined;
  }
}

function writeStoredUsername(username: string | undefined): void {
  try {
    if (username) globalThis.sessionStorage?.setItem(USERNAME_STORAGE_KEY, username);
    else globalThis.sessionStorage?.removeItem(USERNAME_STORAGE_KEY);
  } catch {
    // See readStoredUsername.
  }
}

/** The `session` slice of the shared store. */
export const sessionSlice = createSlice({
  name: 'session',
  initialState: (): SessionState => ({ timedOut: false, username: readStoredUsername() }),
  reducers: {
    /** Marks (or clears) the session as timed out. */
    setTimedOut(state, action: PayloadAction<boolean>) {
      state.timedOut = action.payload;
    },
    /** Keeps the username for the browser session; `undefined` forgets it ("sign in as different user"). */
    setUsername(state, action: PayloadAction<string | undefined>) {
      state.username = action.payload;
      writeStoredUsername(action.payload);
    },
  },
  selectors: {
    /** Whether the last call found the session timed out. */
    selectTimedOut: (state) => state.timedOut,
    /** The username kept for the session. */
    selectUsername: (state) => state.username,
  },
});

/** Actions of the `session` slice. */
export const { setTimedOut, setUsername } = sessionSlice.actions;
/** Selectors of the `session` slice (take the root state). */
export const { selectTimedOut, selectUsername } = sessionSlice.selectors;
