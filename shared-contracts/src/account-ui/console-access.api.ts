import { baseApi } from 'shared-contracts/api';
// The console contract is an entry of its own (`shared-contracts/console`, read whole by the gateway and mfe-admin):
// imported as a namespace, so tools/dead-exports does not take this one reader for its only user.
import * as consoleContract from '../console/index.js';

type ConsoleAccess = consoleContract.ConsoleAccess;

/** What `ConsoleAccess` means when it cannot be read: no console for this browser (never an error on the page). */
export const NO_CONSOLE_ACCESS: ConsoleAccess = { grants: [], permissions: [], secondFactorReady: false };

/**
 * `GET ConsoleAccess` (issue 51, ADR 0060): the caller's console grants and the permissions they give. Asked by the
 * shell's account menu (its "Administration" entry) and by mfe-admin (its navigation and its access pages), so it
 * lives here, in the signed-in pages' kit that the shell shares lazily: the sign-in page carries none of it. It is
 * injected into the one shared API by its package name (`shared-contracts/api`), so the federated build consumes
 * the shell's API instead of bundling a second one. Tag `User`: a sign-in as someone else asks again. Not signed
 * in (any more): no console, and the page stays where it is.
 */
export const consoleAccessApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    consoleAccess: build.query<ConsoleAccess, void>({
      // A 401 here is no reason to leave the page: the menu asks while a sign-out ends the session (the sign-out
      // pages carry the header), and the console's own routes are guarded by the shell.
      query: () => ({ url: 'ConsoleAccess', method: 'GET', acceptUnauthorized: true }),
      transformResponse: (body: unknown) => {
        const parsed = consoleContract.consoleAccessSchema.safeParse(body);
        return parsed.success ? parsed.data : NO_CONSOLE_ACCESS;
      },
      providesTags: ['User'],
    }),
  }),
});

/** Hook of `ConsoleAccess`. */
export const { useConsoleAccessQuery } = consoleAccessApi;
