import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  devicesViewSchema,
  type DeviceRegistrationPayload,
  type DevicesView,
  type RemoveDeviceRequest,
  type RenameDeviceRequest,
  type SkipFidoRequest,
} from 'shared-contracts';

/**
 * Calls of device registration and management, injected into the one shared API (SPEC.md §7 "Secure sign-in").
 * The passkey sign-in calls are shared with the sign-in page's autofill: `shared-contracts/api`.
 */
export const registerDeviceApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
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
      invalidatesTags: ['User', 'Account'],
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
      providesTags: ['Account'],
    }),
    /** `RenameDevice` (body): the list after the change; 403 `recentSignInRequired` without a recent sign-in. */
    renameDevice: build.mutation<DevicesView, RenameDeviceRequest>({
      query: (body) => ({ url: 'RenameDevice', method: 'POST', body }),
      transformResponse: (body: unknown) => devicesViewSchema.parse(body),
      invalidatesTags: ['Account'],
    }),
    /** `RemoveDevice` (body): the list after the change; 403 `recentSignInRequired` without a recent sign-in. */
    removeDevice: build.mutation<DevicesView, RemoveDeviceRequest>({
      query: (body) => ({ url: 'RemoveDevice', method: 'POST', body }),
      transformResponse: (body: unknown) => devicesViewSchema.parse(body),
      invalidatesTags: ['Account'],
    }),
    /**
     * `SignInAgain` (body returnUrl): ends this session for a new full sign-in (S21, ADR 0036); answers the sign-in
     * page that comes back to `returnUrl`.
     */
    devicesSignInAgain: build.mutation<{ redirect: string }, { returnUrl: string }>({
      query: (body) => ({ url: 'SignInAgain', method: 'POST', body }),
    }),
  }),
});

/** Hooks of the registration page's calls. */
export const {
  useCredentialOptionsMutation,
  useRegisterCredentialMutation,
  useSkipFidoMutation,
  useDevicesQuery,
  useRenameDeviceMutation,
  useRemoveDeviceMutation,
  useDevicesSignInAgainMutation,
} = registerDeviceApi;
