import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  codeSentSchema,
  loginWith2faViewSchema,
  pinReferenceSchema,
  loginWithRecoveryCodeViewSchema,
  recoveryCodeSetSchema,
  redeemStateSchema,
  setup2faViewSchema,
  validate2faSetupCodeResponseSchema,
  type CodeSent,
  type GeneratePhoneVerificationRequest,
  type LoginWith2faRequest,
  type PinReference,
  type LoginWith2faView,
  type LoginWithRecoveryCodeRequest,
  type LoginWithRecoveryCodeView,
  type RecoveryCodeSet,
  type RedeemState,
  type Setup2faView,
  type Validate2faSetupCodeRequest,
  type Validate2faSetupCodeResponse,
} from 'shared-contracts';

/** Calls of the second factor, injected into the one shared API (SPEC.md §7 "Two-factor and codes"). */
export const twoFactorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `LoginWith2FAView`: the methods the pending sign-in may use. */
    loginWith2faView: build.query<LoginWith2faView, void>({
      query: () => ({ url: 'LoginWith2FAView', method: 'POST' }),
      transformResponse: (body: unknown) => loginWith2faViewSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `LoginWith2FA`: 209 to the next step, or 400 with the field error. */
    loginWith2fa: build.mutation<RedirectFollowed | null, LoginWith2faRequest>({
      query: (body) => ({ url: 'LoginWith2FA', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    /** `LoginWithRecoveryCodeView`. */
    loginWithRecoveryCodeView: build.query<LoginWithRecoveryCodeView, void>({
      query: () => ({ url: 'LoginWithRecoveryCodeView', method: 'POST' }),
      transformResponse: (body: unknown) => loginWithRecoveryCodeViewSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `LoginWithRecoveryCode`: 209 to the next step, or 400 with the field error. */
    loginWithRecoveryCode: build.mutation<RedirectFollowed | null, LoginWithRecoveryCodeRequest>({
      query: (body) => ({ url: 'LoginWithRecoveryCode', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    /** `SendOTP`: a new code texted to the verified phone (or the wait before another may be asked for). */
    sendOtp: build.mutation<CodeSent, void>({
      query: () => ({ url: 'SendOTP', method: 'POST', body: {} }),
      transformResponse: (body: unknown) => codeSentSchema.parse(body),
    }),
    /** `GeneratePin` (query forced): mails a PIN unless one is live; `forced` mails a new one. True when sent. */
    generatePin: build.mutation<boolean, { forced: boolean }>({
      query: ({ forced }) => ({
        url: 'GeneratePin',
        method: 'POST',
        ...(forced ? { params: { forced: 'true' } } : {}),
      }),
      transformResponse: (body: unknown) => body === true,
    }),
    /** `PinReference`: which digits of the live PIN to type; each call asks for other ones (reshuffle). */
    pinReference: build.mutation<PinReference, void>({
      query: () => ({ url: 'PinReference', method: 'POST' }),
      transformResponse: (body: unknown) => pinReferenceSchema.parse(body),
    }),
    /** `GeneratePhoneVerification`: texts a code to the phone being set up. */
    generatePhoneVerification: build.mutation<CodeSent, GeneratePhoneVerificationRequest>({
      query: (body) => ({ url: 'GeneratePhoneVerification', method: 'POST', body }),
      transformResponse: (body: unknown) => codeSentSchema.parse(body),
    }),
    /** `Setup2FAView`: a new authenticator secret with its QR code. */
    setup2faView: build.query<Setup2faView, void>({
      query: () => ({ url: 'Setup2FAView', method: 'POST' }),
      transformResponse: (body: unknown) => setup2faViewSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `Validate2faSetupCode`: the first code turns the factor on; answers the id of the new recovery codes. */
    validate2faSetupCode: build.mutation<Validate2faSetupCodeResponse, Validate2faSetupCodeRequest>({
      query: (body) => ({ url: 'Validate2faSetupCode', method: 'POST', body }),
      transformResponse: (body: unknown) => validate2faSetupCodeResponseSchema.parse(body),
    }),
    /** `RedeemRecoveryCode` (query id): the new set, this once; without an id, a new set on demand. */
    redeemRecoveryCode: build.mutation<RecoveryCodeSet, { id?: string }>({
      query: ({ id }) => ({ url: 'RedeemRecoveryCode', method: 'POST', ...(id ? { params: { id } } : {}) }),
      transformResponse: (body: unknown) => recoveryCodeSetSchema.parse(body),
    }),
    /** `RedeemState` (query state): whether a set can still be shown. */
    redeemState: build.query<RedeemState, { state: string }>({
      query: ({ state }) => ({ url: 'RedeemState', method: 'POST', params: { state } }),
      transformResponse: (body: unknown) => redeemStateSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `EnableTwoFactor` (query returnUrl): ends the wizard; 209 to the next step or the returnUrl. */
    enableTwoFactor: build.mutation<RedirectFollowed | null, { returnUrl: string }>({
      query: ({ returnUrl }) => ({ url: 'EnableTwoFactor', method: 'POST', params: { returnUrl } }),
      invalidatesTags: ['User'],
    }),
  }),
});

/** Hooks of the second-factor calls. */
export const {
  useLoginWith2faViewQuery,
  useLoginWith2faMutation,
  useLoginWithRecoveryCodeViewQuery,
  useLoginWithRecoveryCodeMutation,
  useSendOtpMutation,
  useGeneratePinMutation,
  usePinReferenceMutation,
  useGeneratePhoneVerificationMutation,
  useSetup2faViewQuery,
  useValidate2faSetupCodeMutation,
  useRedeemRecoveryCodeMutation,
  useRedeemStateQuery,
  useEnableTwoFactorMutation,
} = twoFactorApi;
