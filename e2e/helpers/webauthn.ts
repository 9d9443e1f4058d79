/** A passkey authenticator for the browser suites: Chromium's DevTools virtual authenticator (CDP WebAuthn domain). */
import type { CDPSession, Page } from '@playwright/test';

/** A credential (passkey) a virtual authenticator holds, as `WebAuthn.getCredentials` reports it. */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
}

/** A virtual authenticator attached to a page. */
export interface VirtualAuthenticator {
  /** The DevTools session, for other WebAuthn commands (e.g. `WebAuthn.addCredential`). */
  cdp: CDPSession;
  authenticatorId: string;
  /** The credentials (passkeys) the authenticator holds now. */
  credentials(): Promise<VirtualCredential[]>;
}

/**
 * Adds a virtual authenticator to the page's browser: by default built in (internal transport, the browser then
 * reports a platform authenticator), with resident keys and user verification that succeeds, and presence
 * simulated so no prompt waits; `transport: 'usb'` for a security key, `isUserVerified: false` for a device that
 * refuses. Add it after a password sign-in when the sign-in must not offer a passkey on its own.
 */
export async function addVirtualAuthenticator(
  page: Page,
  options: { isUserVerified?: boolean; transport?: 'internal' | 'usb' } = {},
): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: options.transport ?? 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: options.isUserVerified ?? true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    authenticatorId,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}
