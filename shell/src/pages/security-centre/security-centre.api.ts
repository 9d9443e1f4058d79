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
import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi, type AccountCall } from 'shared-contracts/api';

/** A change's call: sent again after "Confirm it's you" when refused for a sign-in that is not recent (ADR 0045). */
const post =
  (url: string) =>
  (body?: unknown): AccountCall => ({ url, method: 'POST', body: body ?? {} });

/**
 * The security centre's calls (issue 43, ADR 0036). Every change answers 403 `recentSignInRequired` without a recent
 * sign-in; each change's `queryFn` ({@link confirmedChange}) then opens "Confirm it's you" and, once confirmed, sends
 * the same call again, so the change completes with what the person typed (issue 49, ADR 0045). A change invalidates the shared `Account` tag, which refetches the view
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
      queryFn: confirmedChange(post('RemoveTwoStepMethod')),
      invalidatesTags: ['Account'],
    }),
    setDefaultTwoStepMethod: build.mutation<unknown, TwoStepMethodRequest>({
      queryFn: confirmedChange(post('SetDefaultTwoStepMethod')),
      invalidatesTags: ['Account'],
    }),
    renamePasskey: build.mutation<unknown, RenameDeviceRequest>({
      queryFn: confirmedChange(post('RenamePasskey')),
      invalidatesTags: ['Account'],
    }),
    deletePasskey: build.mutation<unknown, RemoveDeviceRequest>({
      queryFn: confirmedChange(post('DeletePasskey')),
      invalidatesTags: ['Account'],
    }),
    regenerateRecoveryCodes: build.mutation<RecoveryCodesAnswer, void>({
      queryFn: confirmedChange(post('RegenerateRecoveryCodes'), (body) =>
        recoveryCodesAnswerSchema.parse(body),
      ),
      invalidatesTags: ['Account'],
    }),
    changePassword: build.mutation<unknown, Omit<ChangeExpiredPasswordRequest, 'returnUrl'>>({
      queryFn: confirmedChange(post('ChangePassword')),
      invalidatesTags: ['Account'],
    }),
    signOutSession: build.mutation<unknown, SignOutSessionRequest>({
      queryFn: confirmedChange(post('SignOutSession')),
      invalidatesTags: ['Account'],
    }),
    signOutOtherSessions: build.mutation<unknown, void>({
      queryFn: confirmedChange(post('SignOutOtherSessions')),
      invalidatesTags: ['Account'],
    }),
    forgetRememberedBrowser: build.mutation<unknown, ForgetRememberedBrowserRequest>({
      queryFn: confirmedChange(post('ForgetRememberedBrowser')),
      invalidatesTags: ['Account'],
    }),
    forgetAllRememberedBrowsers: build.mutation<RememberedBrowsersForgottenAnswer, void>({
      queryFn: confirmedChange(post('ForgetAllRememberedBrowsers'), (body) =>
        rememberedBrowsersForgottenAnswerSchema.parse(body),
      ),
      invalidatesTags: ['Account'],
    }),
    updateProfile: build.mutation<unknown, UpdateProfileRequest>({
      queryFn: confirmedChange(post('UpdateProfile')),
      invalidatesTags: ['Account', 'User'],
    }),
    requestEmailChange: build.mutation<unknown, RequestEmailChangeRequest>({
      queryFn: confirmedChange(post('RequestEmailChange')),
      invalidatesTags: ['Account'],
    }),
    confirmEmailChange: build.mutation<EmailChangedAnswer, ConfirmEmailChangeRequest>({
      query: (body) => ({ url: 'ConfirmEmailChange', method: 'POST', body }),
      transformResponse: (body: unknown) => emailChangedAnswerSchema.parse(body),
      invalidatesTags: ['Account', 'User'],
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
  useRequestEmailChangeMutation,
  useConfirmEmailChangeMutation,
} = securityCentreApi;
