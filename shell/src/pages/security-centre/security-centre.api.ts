import {
  emailChangedAnswerSchema,
  rememberedBrowsersForgottenAnswerSchema,
  type ForgetRememberedBrowserRequest,
  type RememberedBrowsersForgottenAnswer,
  recoveryCodesAnswerSchema,
  type ConfirmEmailChangeRequest,
  type EmailChangedAnswer,
  type RequestEmailChangeRequest,
  securityCentreViewSchema,
  type ChangeExpiredPasswordRequest,
  type RecoveryCodesAnswer,
  type RemoveDeviceRequest,
  type RenameDeviceRequest,
  type SecurityCentreView,
  type SignOutSessionRequest,
  type TwoStepMethodRequest,
  type UpdateProfileRequest,
} from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';

/**
 * The security centre's calls (issue 43, ADR 0036). Every change answers 403 `recentSignInRequired` without a recent
 * sign-in; the page then offers `SignInAgain`. A change invalidates the shared `Account` tag, which refetches the view
 * (also when the change was made by another remote); a change of the profile or the customer also `User`.
 */
export const securityCentreApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    securityCentreView: build.query<SecurityCentreView, void>({
      query: () => ({ url: 'SecurityCentreView', method: 'GET' }),
      transformResponse: (body: unknown) => securityCentreViewSchema.parse(body),
      providesTags: ['Account'],
    }),
    removeTwoStepMethod: build.mutation<unknown, TwoStepMethodRequest>({
      query: (body) => ({ url: 'RemoveTwoStepMethod', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    setDefaultTwoStepMethod: build.mutation<unknown, TwoStepMethodRequest>({
      query: (body) => ({ url: 'SetDefaultTwoStepMethod', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    renamePasskey: build.mutation<unknown, RenameDeviceRequest>({
      query: (body) => ({ url: 'RenamePasskey', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    deletePasskey: build.mutation<unknown, RemoveDeviceRequest>({
      query: (body) => ({ url: 'DeletePasskey', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    regenerateRecoveryCodes: build.mutation<RecoveryCodesAnswer, void>({
      query: () => ({ url: 'RegenerateRecoveryCodes', method: 'POST', body: {} }),
      transformResponse: (body: unknown) => recoveryCodesAnswerSchema.parse(body),
      invalidatesTags: ['Account'],
    }),
    changePassword: build.mutation<unknown, Omit<ChangeExpiredPasswordRequest, 'returnUrl'>>({
      query: (body) => ({ url: 'ChangePassword', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    signOutSession: build.mutation<unknown, SignOutSessionRequest>({
      query: (body) => ({ url: 'SignOutSession', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    signOutOtherSessions: build.mutation<unknown, void>({
      query: () => ({ url: 'SignOutOtherSessions', method: 'POST', body: {} }),
      invalidatesTags: ['Account'],
    }),
    forgetRememberedBrowser: build.mutation<unknown, ForgetRememberedBrowserRequest>({
      query: (body) => ({ url: 'ForgetRememberedBrowser', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    forgetAllRememberedBrowsers: build.mutation<RememberedBrowsersForgottenAnswer, void>({
      query: () => ({ url: 'ForgetAllRememberedBrowsers', method: 'POST', body: {} }),
      transformResponse: (body: unknown) => rememberedBrowsersForgottenAnswerSchema.parse(body),
      invalidatesTags: ['Account'],
    }),
    updateProfile: build.mutation<unknown, UpdateProfileRequest>({
      query: (body) => ({ url: 'UpdateProfile', method: 'POST', body }),
      invalidatesTags: ['Account', 'User'],
    }),
    requestEmailChange: build.mutation<unknown, RequestEmailChangeRequest>({
      query: (body) => ({ url: 'RequestEmailChange', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
    confirmEmailChange: build.mutation<EmailChangedAnswer, ConfirmEmailChangeRequest>({
      query: (body) => ({ url: 'ConfirmEmailChange', method: 'POST', body }),
      transformResponse: (body: unknown) => emailChangedAnswerSchema.parse(body),
      invalidatesTags: ['Account', 'User'],
    }),
    /** `SignInAgain`: ends this session; answers the sign-in page that comes back to `returnUrl`. */
    signInAgain: build.mutation<{ redirect: string }, { returnUrl: string }>({
      query: (body) => ({ url: 'SignInAgain', method: 'POST', body }),
    }),
  }),
});

export const {
  useSecurityCentreViewQuery,
  useRemoveTwoStepMethodMutation,
  useSetDefaultTwoStepMethodMutation,
  useRenamePasskeyMutation,
  useDeletePasskeyMutation,
  useRegenerateRecoveryCodesMutation,
  useChangePasswordMutation,
  useSignOutSessionMutation,
  useSignOutOtherSessionsMutation,
  useUpdateProfileMutation,
  useForgetRememberedBrowserMutation,
  useForgetAllRememberedBrowsersMutation,
  useSignInAgainMutation,
  useRequestEmailChangeMutation,
  useConfirmEmailChangeMutation,
} = securityCentreApi;
