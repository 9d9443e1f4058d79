import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi, type AccountCall, type RedirectFollowed } from 'shared-contracts/api';
import {
  devicesViewSchema,
  type DeviceRegistrationPayload,
  type DevicesView,
  type RemoveDeviceRequest,
  type RenameDeviceRequest,
  type SkipFidoRequest,
} from 'shared-contracts';

/** A change's call: sent again after "Confirm it's you" when refused for a sign-in that is not recent (ADR 0045). */
const post =
  (url: string) =>
  (body: unknown): AccountCall => ({ url, method: 'POST', body });

/**
 * Calls of passkey registration and management, injected into the one shared API (SPEC.md §7 "Secure sign-in"; the
 * call names are SPEC.md's, which say "device"). The passkey sign-in calls are shared with the sign-in page's
 * autofill: `shared-contracts/api`. A signed-in person's change needs a recent sign-in (S21): refused with 403
 * `recentSignInRequired`, each change's `queryFn` ({@link confirmedChange}) opens "Confirm it's you" (the page mounts
 * its host) and, once confirmed, sends the same call again, so the name typed is kept (issue 49, ADR 0045).
 */
export const passkeysApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `CredentialOptions` (query displayName): creation options for the signed-in or signing-in account. Confirmed
     * first when a signed-in person's sign-in is not recent; the challenge is bound to the session id a confirmation
     * renews, so it is asked for after the confirmation, never before.
     */
    credentialOptions: build.mutation<PublicKeyCredentialCreationOptionsJSON, { displayName: string }>({
      queryFn: confirmedChange(
        ({ displayName }: { displayName: string }): AccountCall => ({
          url: 'CredentialOptions',
          method: 'POST',
          params: { displayName },
          body: {},
        }),
        (body) => body as PublicKeyCredentialCreationOptionsJSON,
      ),
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
    /** `RenameDevice` (body): the list after the change; confirmed first without a recent sign-in. */
    renameDevice: build.mutation<DevicesView, RenameDeviceRequest>({
      queryFn: confirmedChange(post('RenameDevice'), (body) => devicesViewSchema.parse(body)),
      invalidatesTags: ['Account'],
    }),
    /** `RemoveDevice` (body): the list after the change; confirmed first without a recent sign-in. */
    removeDevice: build.mutation<DevicesView, RemoveDeviceRequest>({
      queryFn: confirmedChange(post('RemoveDevice'), (body) => devicesViewSchema.parse(body)),
      invalidatesTags: ['Account'],
    }),
  }),
});

/** Hooks of the passkey page's calls. */
export const {
  useCredentialOptionsMutation,
  useRegisterCredentialMutation,
  useSkipFidoMutation,
  useDevicesQuery,
  useRenameDeviceMutation,
  useRemoveDeviceMutation,
} = passkeysApi;
