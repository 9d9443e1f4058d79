import type { ApiError } from '../protocol.js';
import type { BrowserAssertion } from '../webauthn.schema.js';

/**
 * "Confirm it's you" (issue 49, ADR 0045) without the page's involvement: a change refused with 403
 * `recentSignInRequired` asks the one mounted {@link ConfirmItsYouHost} (shell security centre, mfe-devices) for a
 * confirmation and waits for it; confirmed, the very same call is sent again, so what the person typed is kept.
 * Plain module state: account-ui is one federation singleton, so every remote asks the same host.
 */

type Listener = () => void;

interface Pending {
  promise: Promise<boolean>;
  resolve: (confirmed: boolean) => void;
}

let pending: Pending | undefined;
let hosts = 0;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

/**
 * Asks the person to confirm it's them; resolves true once a factor was proved (the window is renewed), false when
 * they cancelled or no dialog can ask (no host mounted: the refusal stands as it was). Calls refused at the same
 * time share one dialog and one answer.
 */
export function requestConfirmItsYou(): Promise<boolean> {
  if (hosts === 0) return Promise.resolve(false);
  if (!pending) {
    let resolve: (confirmed: boolean) => void = () => undefined;
    const promise = new Promise<boolean>((done) => {
      resolve = done;
    });
    pending = { promise, resolve };
    notify();
  }
  return pending.promise;
}

/** The host's answer to the open request: true when confirmed, false when cancelled. */
export function settleConfirmItsYou(confirmed: boolean): void {
  const open = pending;
  pending = undefined;
  open?.resolve(confirmed);
  notify();
}

/** Whether a confirmation is being asked for now (the host's `useSyncExternalStore` snapshot). */
export function isConfirmItsYouAsked(): boolean {
  return pending !== undefined;
}

/** Subscribes to {@link isConfirmItsYouAsked}; registers a host while subscribed (so requests wait for it). */
export function subscribeConfirmItsYouHost(listener: Listener): () => void {
  hosts += 1;
  listeners.add(listener);
  return () => {
    hosts -= 1;
    listeners.delete(listener);
    // The last host gone (the page left): nobody can answer, so an open request is cancelled.
    if (hosts === 0 && pending) settleConfirmItsYou(false);
  };
}

/** The form codes of a refusal that needs a recent sign-in (S21, ADR 0036), the older one included. */
const RECENT_SIGN_IN_CODES: readonly unknown[] = ['recentSignInRequired', 'reauthenticationRequired'];

/** Whether an account call's error carries one of the form-level `codes` (in its errors map, or its body's). */
export function hasFormCode(error: unknown, codes: readonly unknown[]): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { errors, body } = error as { errors?: unknown; body?: unknown };
  const bodyErrors =
    typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  return [errors, bodyErrors].some((map) => {
    const form = typeof map === 'object' && map !== null ? (map as Record<string, unknown>)[''] : undefined;
    return Array.isArray(form) && form.some((code) => codes.includes(code));
  });
}

/** Whether an account call's error is the refusal a confirmation can lift. */
export function isRecentSignInRefusal(error: unknown): boolean {
  return hasFormCode(error, RECENT_SIGN_IN_CODES);
}

/** The error a change ends with when the person closed the dialog: translated in its card, no "sign in again". */
export function confirmItsYouCancelled(refusal: ApiError): ApiError {
  const errors = { '': ['confirmItsYouCancelled'] };
  return { ...refusal, errors, body: { errors } };
}

/** What RTK Query hands an endpoint's `queryFn` as its base query (the account base query of shared-contracts/api). */
type CallResult = { data: unknown; error?: undefined } | { error: ApiError; data?: undefined };
type BaseQuery<Call> = (call: Call) => CallResult | Promise<CallResult>;

/**
 * An RTK Query `queryFn` for a change that may need a recent sign-in: sends `toCall(arg)`; on 403
 * `recentSignInRequired` waits for the dialog, and sends the same call again once confirmed. `parse` checks a done
 * change's answer (an endpoint with a `queryFn` has no `transformResponse`).
 */
export function confirmedChange<Arg, Call, Data = unknown>(
  toCall: (arg: Arg) => Call,
  parse?: (body: unknown) => Data,
) {
  return async (
    arg: Arg,
    _api: unknown,
    _extraOptions: unknown,
    baseQuery: BaseQuery<Call>,
  ): Promise<{ data: Data } | { error: ApiError }> => {
    let result = await baseQuery(toCall(arg));
    if (result.error && isRecentSignInRefusal(result.error)) {
      if (!(await requestConfirmItsYou())) return { error: confirmItsYouCancelled(result.error) };
      result = await baseQuery(toCall(arg));
    }
    if (result.error) return { error: result.error };
    return { data: parse ? parse(result.data) : (result.data as Data) };
  };
}

const fromBase64Url = (value: string): ArrayBuffer => {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
};
const toBase64Url = (buffer: ArrayBuffer | null): string => {
  if (!buffer) return '';
  let text = '';
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** The JSON request options `AssertionOptions` answers (WebAuthn L3 §5.5, `PublicKeyCredentialRequestOptionsJSON`). */
export interface AssertionOptionsJSON {
  challenge: string;
  timeout?: number;
  rpId?: string;
  userVerification?: UserVerificationRequirement;
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
}

/**
 * Asks the browser for a passkey's assertion to `options` (WebAuthn L3 §5.1.4 `navigator.credentials.get`), as
 * JSON. The conversion of §5.1.3/§5.5's JSON forms is done here, in a few lines, rather than with
 * @simplewebauthn/browser (which the sign-in page's remote carries): account-ui is shared by the shell, which has
 * no such dependency. Rejects when the person cancels or the device refuses.
 */
export async function getPasskeyAssertion(options: AssertionOptionsJSON): Promise<BrowserAssertion> {
  const credential = (await navigator.credentials.get({
    publicKey: {
      challenge: fromBase64Url(options.challenge),
      ...(options.timeout ? { timeout: options.timeout } : {}),
      ...(options.rpId ? { rpId: options.rpId } : {}),
      userVerification: options.userVerification ?? 'required',
      allowCredentials: (options.allowCredentials ?? []).map((allowed) => ({
        id: fromBase64Url(allowed.id),
        type: 'public-key' as const,
        ...(allowed.transports ? { transports: allowed.transports as AuthenticatorTransport[] } : {}),
      })),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('no credential');
  const response = credential.response as AuthenticatorAssertionResponse;
  const userHandle = toBase64Url(response.userHandle);
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      authenticatorData: toBase64Url(response.authenticatorData),
      clientDataJSON: toBase64Url(response.clientDataJSON),
      signature: toBase64Url(response.signature),
      ...(userHandle ? { userHandle } : {}),
    },
  };
}
