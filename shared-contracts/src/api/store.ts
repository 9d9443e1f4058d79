import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { baseApi } from './base-api.js';
import { captchaSlice } from './captcha.js';
import { sessionSlice } from './session.slice.js';

/**
 * Slices a remote adds at runtime. A remote declares its slice by module augmentation and injects it with
 * `mySlice.injectInto(rootReducer)` (ARCHITECTURE.md "State"):
 *
 * ```ts
 * declare module 'shared-contracts/api' { interface LazyLoadedSlices { login: LoginState } }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by remotes through declaration merging
export interface LazyLoadedSlices {}

/** The one root reducer: the API cache, the session and captcha slices, plus whatever remotes inject. */
export const rootReducer = combineSlices(
  baseApi,
  sessionSlice,
  captchaSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();

/** Creates the store (the shell creates exactly one per page; tests and dev hosts create their own). */
export function createAppStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
}

/** State of the one store. */
export type RootState = ReturnType<typeof rootReducer>;
/** The store's type. */
export type AppStore = ReturnType<typeof createAppStore>;
