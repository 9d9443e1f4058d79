import { useEffect, useState } from 'react';
import { toSecureSignInPayload, withReturnUrl } from 'shared-contracts';
import {
  isRedirectFollowed,
  useAssertionOptionsMutation,
  useSecureLoginMutation,
} from 'shared-contracts/api';

/**
 * A challenge lives five minutes on the server (S22); the waiting request is renewed before its challenge expires,
 * so a passkey picked from the list after a long pause still signs in.
 */
export const AUTOFILL_RENEW_MS = 4 * 60_000;

/** The parts of WebAuthn that autofill needs; a browser missing any of them sees no change. */
interface ConditionalWebauthn {
  isConditionalMediationAvailable(): Promise<boolean>;
  parseRequestOptionsFromJSON(
    options: PublicKeyCredentialRequestOptionsJSON,
  ): PublicKeyCredentialRequestOptions;
}

function conditionalWebauthn(): ConditionalWebauthn | undefined {
  const api = (globalThis as { PublicKeyCredential?: Partial<ConditionalWebauthn> }).PublicKeyCredential;
  if (typeof api?.isConditionalMediationAvailable !== 'function') return undefined;
  if (typeof api.parseRequestOptionsFromJSON !== 'function') return undefined;
  if (typeof navigator === 'undefined' || typeof navigator.credentials?.get !== 'function') return undefined;
  return api as ConditionalWebauthn;
}

/**
 * Passkeys in the username field's autofill list (WebAuthn conditional mediation, issue 14, ADR 0016): while the
 * sign-in form shows, a quiet request waits for the visitor to pick a passkey from the list; picking one posts
 * `SecureLogin` and the sign-in goes on like the passkey page's. The browser's own WebAuthn JSON methods do the
 * encoding, so this costs the sign-in page no library. The request ends when the form goes (another page's ceremony
 * must not find one pending) and is renewed before its challenge expires. Answers whether a picked passkey failed,
 * so the form can say so; the password form stays usable throughout. `ready` holds the first request back until the
 * page's LoginView has answered: for a browser whose session timed out, LoginView hands out a fresh session and
 * anti-forgery token, and an AssertionOptions sent alongside would start a second fresh session whose cookie could
 * win over LoginView's, leaving the token of the other one (the next person's Sign in then failed its check).
 */
export function usePasskeyAutofill(returnUrl: string, ready = true): { failed: boolean } {
  const [assertionOptions] = useAssertionOptionsMutation();
  const [secureLogin] = useSecureLoginMutation();
  const [failed, setFailed] = useState(false);
  // Each round is one challenge; a failure or the renewal timer starts the next.
  const [round, setRound] = useState(0);

  useEffect(() => {
    const webauthn = conditionalWebauthn();
    if (!webauthn || !ready) return undefined;
    const controller = new AbortController();
    const renew = setTimeout(() => {
      controller.abort();
      setRound((n) => n + 1);
    }, AUTOFILL_RENEW_MS);
    const ask = async () => {
      if (!(await webauthn.isConditionalMediationAvailable())) return;
      if (controller.signal.aborted) return;
      const optionsJSON = await assertionOptions().unwrap();
      if (controller.signal.aborted) return;
      const credential = await navigator.credentials.get({
        mediation: 'conditional',
        publicKey: webauthn.parseRequestOptionsFromJSON(optionsJSON),
        signal: controller.signal,
      });
      if (!credential || controller.signal.aborted) return;
      clearTimeout(renew);
      const assertion = (credential as PublicKeyCredential).toJSON() as Parameters<
        typeof toSecureSignInPayload
      >[0];
      const result = await secureLogin({ payload: toSecureSignInPayload(assertion), returnUrl })
        .unwrap()
        .catch(() => {
          // SPEC.md §4: a secure sign-in failure is quiet; the form says so and a new request waits.
          setFailed(true);
          setRound((n) => n + 1);
          return undefined;
        });
      if (result !== undefined && !isRedirectFollowed(result))
        window.location.assign(withReturnUrl('/redirect', returnUrl));
    };
    // Aborting (the form went, or the renewal) rejects the browser's request: nothing to say. Any other failure
    // (no options, a browser error) leaves the page as it is without autofill.
    ask().catch(() => undefined);
    return () => {
      clearTimeout(renew);
      controller.abort();
    };
  }, [assertionOptions, secureLogin, returnUrl, round, ready]);

  return { failed };
}
