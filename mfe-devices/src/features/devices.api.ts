import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  devicesViewSchema,
  type DeviceRegistrationPayload,
  type DevicesView,
  type RemoveDeviceRequest,
  type RenameDeviceRequest,
  type SecureSignInPayload,
  type SkipFidoRequest,
} from 'shared-contracts';

/** Calls of secure sign-in and device registration, injected into the one shared API (SPEC.md §7 "Secure sign-in"). */
export const devicesApi = baseApi.injectEndpoints({
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
    /** `CredentialOptions` (query displayName): creation options for the signed-in or signing-in account. */
    credentialOptions: build.mutation<PublicKeyCredentialCreationOptionsJSON, { displayName: string }>({
      query: ({ displayName }) => ({
        url: 'CredentialOptions',
        method: 'POST',
        params: { displayName },
        body: {},
      }),
    }),
    /** `RegisterCredential` (body): 209 onwards, or 400 `deviceRegistrationError`. */
    registerCredential: build.mutation<
      RedirectFollowed | null,
      { payload: DeviceRegistrationPayload; returnUrl: string }
    >({
      query: ({ payload, returnUrl }) => ({
        url: 'RegisterCredential',
        method: 'POST',
        params: { returnUrl },
        body: payload,
      }),
      invalidatesTags: ['User'],
    }),
    /** `SkipFido` (body): the sign-in goes on without a device; remembered unless `remember: false`. */
    skipFido: build.mutation<RedirectFollowed | null, SkipFidoRequest & { returnUrl: string }>({
      query: ({ returnUrl, ...body }) => ({ url: 'SkipFido', method: 'POST', params: { returnUrl }, body }),
      invalidatesTags: ['User'],
    }),
    /** `Devices`: the signed-in account's devices (name, created, last used). */
    devices: build.query<DevicesView, void>({
      query: () => ({ url: 'Devices', method: 'GET' }),
      transformResponse: (body: unknown) => devicesViewSchema.parse(body),
    }),
    /** `RenameDevice` (body): the list after the change; 400 `reauthenticationRequired` without a recent sign-in. */
    renameDevice: build.mutation<DevicesView, RenameDeviceRequest>({
      query: (body) => ({ url: 'RenameDevice', method: 'POST', body }),
      transformResponse: (body: unknown) => devicesViewSchema.parse(body),
    }),
    /** `RemoveDevice` (body): the list after the change; 400 `reauthenticationRequired` without a recent sign-in. */
    removeDevice: build.mutation<DevicesView, RemoveDeviceRequest>({
      query: (body) => ({ url: 'RemoveDevice', method: 'POST', body }),
      transformResponse: (body: unknown) => devicesViewSchema.parse(body),
    }),
  }),
});

/** Hooks of the secure sign-in calls. */
export const {
  useAssertionOptionsMutation,
  useSecureLoginMutation,
  useCredentialOptionsMutation,
  useRegisterCredentialMutation,
  useSkipFidoMutation,
  useDevicesQuery,
  useRenameDeviceMutation,
  useRemoveDeviceMutation,
} = devicesApi;
