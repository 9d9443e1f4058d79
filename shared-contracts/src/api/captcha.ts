import { createSlice, type Dispatch, type PayloadAction } from '@reduxjs/toolkit';
import type {
  CaptchaAction,
  CaptchaProvider,
  VerifyCaptchaRequest,
  VerifyCaptchaResult,
} from '../captcha.schema.js';
import { verifyCaptchaResultSchema } from '../captcha.schema.js';
import { loginViewSchema } from '../login.schema.js';
import { baseApi } from './base-api.js';
import { isApiError } from './use-form-errors.js';

/**
 * Captcha state (SPEC.md §3 "Captcha state: show flag, target, success callback"), owned by the shell: whether a
 * challenge shows, for which action, with which provider, and the id of the callback that re-sends the action once
 * it is solved. The callback itself is a function, so it is kept beside the store ({@link requestCaptcha}).
 */
export interface CaptchaState {
  show: boolean;
  target: CaptchaAction | undefined;
  provider: CaptchaProvider | undefined;
  /** Key of the success callback registered by {@link requestCaptcha}. */
  callbackId: number | undefined;
  /** Bumped on a failed verification: the widget resets (SPEC.md §4 "On failure the widget is reset"). */
  attempt: number;
}

const initialState: CaptchaState = {
  show: false,
  target: undefined,
  provider: undefined,
  callbackId: undefined,
  attempt: 0,
};

/** The `captcha` slice of the shared store. */
export const captchaSlice = createSlice({
  name: 'captcha',
  initialState,
  reducers: {
    /** A challenge shows for `target`. */
    captchaShown(
      state,
      action: PayloadAction<{
        target: CaptchaAction;
        provider: CaptchaProvider | undefined;
        callbackId: number;
      }>,
    ) {
      state.show = true;
      state.target = action.payload.target;
      state.provider = action.payload.provider;
      state.callbackId = action.payload.callbackId;
    },
    /** The challenge failed: the widget starts again. */
    captchaFailed(state) {
      state.attempt += 1;
    },
    /** The challenge is gone (solved or cancelled). */
    captchaHidden() {
      return initialState;
    },
  },
  selectors: {
    /** The captcha state. */
    selectCaptcha: (state) => state,
    /** True while a challenge is in progress: the API client cancels guarded calls (SPEC.md §4). */
    selectCaptchaInProgress: (state) => state.show,
  },
});

/** Actions of the `captcha` slice. */
export const { captchaShown, captchaFailed, captchaHidden } = captchaSlice.actions;
/** Selectors of the `captcha` slice (take the root state). */
export const { selectCaptcha, selectCaptchaInProgress } = captchaSlice.selectors;

const callbacks = new Map<number, () => void>();
let nextCallbackId = 1;

/** The self-hosted proof-of-work: the provider when LoginView named none (the server's default). */
export const DEFAULT_CAPTCHA_PROVIDER: CaptchaProvider = { version: 1 };

/** What a page passes to {@link requestCaptcha}. */
export interface CaptchaRequest {
  action: CaptchaAction;
  /** From LoginView when the page has it; absent, the shell asks LoginView for the partner's provider. */
  provider?: CaptchaProvider | undefined;
  /** Re-sends the action once the challenge is solved (SPEC.md §4 "the success callback runs"). */
  onSolved: () => void;
}

/**
 * Asks the shell for a challenge (any remote may; none imports the widget): the shell shows it, and on success
 * hides it and runs `onSolved`.
 */
export function requestCaptcha(dispatch: Dispatch, request: CaptchaRequest): void {
  const callbackId = nextCallbackId;
  nextCallbackId += 1;
  callbacks.clear();
  callbacks.set(callbackId, request.onSolved);
  dispatch(
    captchaShown({
      target: request.action,
      provider: request.provider,
      callbackId,
    }),
  );
}

/** The shell, once VerifyCaptcha accepted: hides the widget, then runs the page's success callback. */
export function completeCaptcha(dispatch: Dispatch, callbackId: number | undefined): void {
  const callback = callbackId === undefined ? undefined : callbacks.get(callbackId);
  callbacks.clear();
  dispatch(captchaHidden());
  callback?.();
}

/** The shell, when the person closes the challenge: nothing is re-sent. */
export function cancelCaptcha(dispatch: Dispatch): void {
  callbacks.clear();
  dispatch(captchaHidden());
}

/** True when a call's error says the server wants a solved challenge first (form code `captchaRequired`). */
export function isCaptchaRequired(error: unknown): boolean {
  return isApiError(error) && (error.errors[''] ?? []).includes('captchaRequired');
}

/** VerifyCaptcha and the proof-of-work challenge, on the one shared API. */
export const captchaApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `GET CaptchaChallenge?action=`: a fresh proof-of-work challenge bound to this session and the action. */
    captchaChallenge: build.query<unknown, { action: CaptchaAction; attempt: number }>({
      query: ({ action }) => ({ url: 'CaptchaChallenge', method: 'GET', params: { action } }),
      keepUnusedDataFor: 0,
    }),
    /** The partner's provider, from `LoginView` (for pages that do not hold it, such as Recover). */
    captchaProvider: build.query<CaptchaProvider, void>({
      query: () => ({ url: 'LoginView', method: 'GET', params: { returnUrl: '/' } }),
      transformResponse: (body: unknown) =>
        loginViewSchema.safeParse(body).data?.captcha ?? DEFAULT_CAPTCHA_PROVIDER,
    }),
    /** `VerifyCaptcha` (body: version, token, action). */
    verifyCaptcha: build.mutation<VerifyCaptchaResult, VerifyCaptchaRequest>({
      query: (body) => ({ url: 'VerifyCaptcha', method: 'POST', body }),
      transformResponse: (body: unknown) => verifyCaptchaResultSchema.parse(body),
    }),
  }),
});

/** Hooks of the captcha calls (the shell's widget uses them). */
export const { useCaptchaChallengeQuery, useCaptchaProviderQuery, useVerifyCaptchaMutation } = captchaApi;
