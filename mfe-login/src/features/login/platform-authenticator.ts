/**
 * Whether this browser has a user-verifying platform authenticator (Windows Hello, Touch ID, an Android screen lock):
 * sent with Login so the sign-in offers to register a passkey only where one can be registered (ADR 0016). False
 * where WebAuthn is missing or the question fails.
 */
export async function hasPlatformAuthenticator(): Promise<boolean> {
  const api = (
    globalThis as {
      PublicKeyCredential?: { isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean> };
    }
  ).PublicKeyCredential;
  try {
    return (await api?.isUserVerifyingPlatformAuthenticatorAvailable?.()) === true;
  } catch {
    return false;
  }
}
