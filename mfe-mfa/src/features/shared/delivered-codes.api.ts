import { baseApi } from 'shared-contracts/api';
import { codeSentSchema, pinReferenceSchema, type CodeSent, type PinReference } from 'shared-contracts';

/** Calls that deliver a code by SMS or a PIN by e-mail, for the sign-in step and the set-up wizard (SPEC.md §7). */
export const deliveredCodesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
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
  }),
});

/** Hooks of the delivery calls. */
export const { useSendOtpMutation, useGeneratePinMutation, usePinReferenceMutation } = deliveredCodesApi;
