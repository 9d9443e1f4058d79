import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  codeSentSchema,
  setup2faViewSchema,
  validate2faSetupCodeResponseSchema,
  type CodeSent,
  type GeneratePhoneVerificationRequest,
  type Setup2faView,
  type Validate2faSetupCodeRequest,
  type Validate2faSetupCodeResponse,
} from 'shared-contracts';

/** Calls of the set-up wizard (SPEC.md §7 "Two-factor and codes"; ADR 0008). */
export const setupTwoFactorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `Setup2FAView`: a new authenticator secret with its QR code. */
    setup2faView: build.query<Setup2faView, void>({
      query: () => ({ url: 'Setup2FAView', method: 'POST' }),
      transformResponse: (body: unknown) => setup2faViewSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `GeneratePhoneVerification`: texts a code to the phone being set up. */
    generatePhoneVerification: build.mutation<CodeSent, GeneratePhoneVerificationRequest>({
      query: (body) => ({ url: 'GeneratePhoneVerification', method: 'POST', body }),
      transformResponse: (body: unknown) => codeSentSchema.parse(body),
    }),
    /** `Validate2faSetupCode`: the first code turns the factor on; answers the id of the new recovery codes. */
    validate2faSetupCode: build.mutation<Validate2faSetupCodeResponse, Validate2faSetupCodeRequest>({
      query: (body) => ({ url: 'Validate2faSetupCode', method: 'POST', body }),
      transformResponse: (body: unknown) => validate2faSetupCodeResponseSchema.parse(body),
    }),
    /**
     * `SignInAgain` (body returnUrl): ends this session for a new full sign-in (S21, ADR 0036); answers the sign-in
     * page that comes back to `returnUrl`.
     */
    setupSignInAgain: build.mutation<{ redirect: string }, { returnUrl: string }>({
      query: (body) => ({ url: 'SignInAgain', method: 'POST', body }),
    }),
    /** `EnableTwoFactor` (query returnUrl): ends the wizard; 209 to the next step or the returnUrl. */
    enableTwoFactor: build.mutation<RedirectFollowed | null, { returnUrl: string }>({
      query: ({ returnUrl }) => ({ url: 'EnableTwoFactor', method: 'POST', params: { returnUrl } }),
      invalidatesTags: ['User', 'Account'],
    }),
  }),
});

/** Hooks of the set-up wizard's calls. */
export const {
  useSetup2faViewQuery,
  useGeneratePhoneVerificationMutation,
  useValidate2faSetupCodeMutation,
  useEnableTwoFactorMutation,
  useSetupSignInAgainMutation,
} = setupTwoFactorApi;
