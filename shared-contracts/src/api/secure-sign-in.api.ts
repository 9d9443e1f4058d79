import type { SecureSignInPayload } from '../webauthn.schema.js';
import { baseApi } from './base-api.js';
import type { RedirectFollowed } from './account-base-query.js';

/**
 * The two passkey sign-in calls (SPEC.md §7 "Secure sign-in"), in one place because two remotes make them: the
 * passkey page of mfe-devices (a modal ceremony) and the sign-in page of mfe-login (the username field's autofill,
 * ADR 0016). The options are WebAuthn's JSON form, which the browser parses itself.
 */
export const secureSignInApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `AssertionOptions`: a fresh challenge for the device (no allow-list: the device offers its passkeys). */
    assertionOptions: build.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
      query: () => ({ url: 'AssertionOptions', method: 'POST', body: {} }),
    }),
    /** `SecureLogin` (query returnUrl, body): 209 to the sign-in's next step, or 400 `secureSignInFailed`. */
    secureLogin: build.mutation<RedirectFollowed | null, { payload: SecureSignInPayload; returnUrl: string }>(
      {
        query: ({ payload, returnUrl }) => ({
          url: 'SecureLogin',
          method: 'POST',
          params: { returnUrl },
          body: payload,
        }),
        invalidatesTags: ['User'],
      },
    ),
  }),
});

/** Hooks of the passkey sign-in calls. */
export const { useAssertionOptionsMutation, useSecureLoginMutation } = secureSignInApi;
