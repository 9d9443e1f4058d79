import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { DeviceRegistrationPayload, RegisteredDevice, SecureSignInPayload } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import { safeEqual, sha256 } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { Passkey } from '../../store/passkey.repository.js';
import { additionBinding, type AnnounceChange, type AnnounceWayIn } from '../account/ways-in.js';

/** A challenge is answered within this time or never (S22: time-limited; the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** 256 random bits per challenge (S22 asks for ≥ 128). */
const CHALLENGE_BYTES = 32;
/** The relying-party name authenticators show beside the account. */
const RP_NAME = 'Identity';

/** Why a secure sign-in or a registration was refused; logged and audited, never told to the browser. */
export type WebauthnRefusal =
  | 'malformed'
  | 'challenge'
  | 'unknown-credential'
  | 'user-handle'
  | 'account'
  | 'verification'
  | 'counter'
  | 'duplicate';

/** What a checked assertion gives: the account and the credential, or why not. */
export type AssertionOutcome =
  { kind: 'ok'; user: User; credential: Passkey } | { kind: 'refused'; reason: WebauthnRefusal };

/** What a checked registration gives. */
export type RegistrationOutcome =
  { kind: 'ok'; credential: Passkey } | { kind: 'refused'; reason: WebauthnRefusal };

/** What {@link createWebauthnService} needs. */
export interface WebauthnDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  /** PUBLIC_URL: the relying party's id (its host) and the only origin accepted (S22), never the request's Host. */
  publicUrl: string;
  /** Mails the account each passkey added (issue 48, ADR 0042). */
  announceWayIn?: AnnounceWayIn | undefined;
  /** Mails the account each passkey renamed or deleted, from whichever page (issue 50: one path per action). */
  announceChange?: AnnounceChange | undefined;
}

/** What the challenge entry in the key-value store holds. */
interface ChallengeEntry {
  /** sha256 of the session id the challenge was issued to: another browser cannot answer it. */
  session: string;
  /** Epoch ms of issue: checked against the clock as well as by the store's TTL (both replicas' clocks agree). */
  issuedAt: number;
  /** Registration only: the account and the device name. */
  userId?: string;
  name?: string;
}

const ASSERTION_KEY = 'webauthn:assertion:';
const REGISTRATION_KEY = 'webauthn:registration:';

function fromBase64Url(value: string): Buffer {
  return Buffer.from(value.replace(/=+$/, ''), 'base64url');
}

/** Bytes on a plain ArrayBuffer, as the WebAuthn library's types want them. */
function bytesOf(value: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(value);
}

/**
 * The challenge the browser signed, read from clientDataJSON (WebAuthn L3 §7.1 step 5/§7.2 step 9); the library
 * checks it again against the one we take from the store.
 */
function challengeOf(clientDataJson: string): string | undefined {
  try {
    const parsed = JSON.parse(fromBase64Url(clientDataJson).toString('utf8')) as unknown;
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passkeys and security keys (SPEC.md §4 "Secure sign-in" and "Device registration", ADR 0016) over
 * @simplewebauthn/server. Challenges live in the shared key-value store for {@link CHALLENGE_TTL_MS} and are taken
 * atomically, so each is answered once on any replica (S22). The relying party is the configured public URL.
 */
export function createWebauthnService(deps: WebauthnDeps) {
  const { store, kv, clock } = deps;
  const publicUrl = new URL(deps.publicUrl);
  const rpID = publicUrl.hostname;
  const origin = publicUrl.origin;

  async function newChallenge(prefix: string, entry: Omit<ChallengeEntry, 'issuedAt'>): Promise<string> {
    const challenge = randomBytes(CHALLENGE_BYTES).toString('base64url');
    await kv.set(
      `${prefix}${challenge}`,
      JSON.stringify({ ...entry, issuedAt: clock.now() }),
      CHALLENGE_TTL_MS,
    );
    return challenge;
  }

  /** Takes the challenge the browser answered (once, S22), checking it was issued to this session. */
  async function takeChallenge(
    prefix: string,
    clientDataJson: string,
    sessionId: string,
  ): Promise<{ challenge: string; entry: ChallengeEntry } | undefined> {
    const challenge = challengeOf(clientDataJson);
    if (!challenge) return undefined;
    const stored = await kv.take(`${prefix}${challenge}`);
    if (stored === undefined) return undefined;
    const entry = JSON.parse(stored) as ChallengeEntry;
    const age = clock.now() - entry.issuedAt;
    if (age < 0 || age > CHALLENGE_TTL_MS) return undefined;
    return safeEqual(entry.session, sha256(sessionId)) ? { challenge, entry } : undefined;
  }

  async function audit(kind: string, userId: string | null, data: Record<string, unknown>): Promise<void> {
    await store.audit.record({ at: clock.now(), kind, userId, ip: null, data });
  }

  return {
    relyingParty: { id: rpID, origin },

    /**
     * `AssertionOptions`: a fresh challenge for this session, no allow-list (discoverable credentials: the device
     * offers the accounts it holds, and the answer does not reveal who has a passkey). User verification is
     * required: a passkey sign-in counts as two factors (possession and the PIN or biometric).
     */
    async assertionOptions(sessionId: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const challenge = await newChallenge(ASSERTION_KEY, { session: sha256(sessionId) });
      return generateAuthenticationOptions({
        rpID,
        challenge: bytesOf(fromBase64Url(challenge)),
        userVerification: 'required',
        timeout: CHALLENGE_TTL_MS,
      });
    },

    /**
     * `SecureLogin`'s check: the challenge (once, this session, in time), the credential (known, bound to the
     * account the user handle names), the signature over origin and RP id, user verification, and the signature
     * counter (S23: a non-increasing non-zero counter is refused and audited as a possible clone).
     */
    async verifyAssertion(payload: SecureSignInPayload, sessionId: string): Promise<AssertionOutcome> {
      const refused = (reason: WebauthnRefusal): AssertionOutcome => ({ kind: 'refused', reason });
      if (payload.id.replace(/=+$/, '') !== payload.rawId.replace(/=+$/, '')) return refused('malformed');
      const taken = await takeChallenge(ASSERTION_KEY, payload.response.clientDataJson, sessionId);
      if (!taken) return refused('challenge');
      const credential = await store.passkeys.find(payload.id.replace(/=+$/, ''));
      if (!credential) return refused('unknown-credential');
      // The user handle is the account id the credential was created for (WebAuthn L3 §7.2 step 6).
      const userHandle = payload.response.userHandle;
      if (userHandle && fromBase64Url(userHandle).toString('utf8') !== credential.userId)
        return refused('user-handle');
      const user = await store.users.findById(credential.userId);
      if (!user || user.disabled || user.vendorId) return refused('account');
      // ADR 0042: a passkey added without a proved second factor works only under the stamp it was added under.
      if (credential.boundStamp !== null && credential.boundStamp !== user.securityStamp)
        return refused('account');

      const response: AuthenticationResponseJSON = {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          authenticatorData: payload.response.authenticatorData,
          clientDataJSON: payload.response.clientDataJson,
          signature: payload.response.signature,
          ...(userHandle ? { userHandle } : {}),
        },
      };
      let newCounter: number;
      try {
        const result = await verifyAuthenticationResponse({
          response,
          expectedChallenge: taken.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          // Counter 0 here: the library would refuse a clone without telling us; the check below audits it.
          credential: {
            id: credential.id,
            publicKey: bytesOf(fromBase64Url(credential.publicKey)),
            counter: 0,
            transports: credential.transports as AuthenticatorTransportFuture[],
          },
        });
        if (!result.verified) return refused('verification');
        newCounter = result.authenticationInfo.newCounter;
      } catch {
        return refused('verification');
      }

      // S23 (WebAuthn L3 §7.2 step 21): a counter that does not move forward means two authenticators share the key.
      const moved = await (async () => {
        if ((newCounter > 0 || credential.counter > 0) && newCounter <= credential.counter) return false;
        // Only one of two parallel sign-ins with the same counter stores it; the other counts as a clone too.
        return store.passkeys.recordUse(credential.id, credential.counter, newCounter);
      })();
      if (!moved) {
        await audit('webauthn.possible-clone', user.id, {
          credentialId: credential.id,
          storedCounter: credential.counter,
          receivedCounter: newCounter,
        });
        return refused('counter');
      }
      return { kind: 'ok', user, credential: { ...credential, counter: newCounter } };
    },

    /**
     * `CredentialOptions`: creation options for the account (the user handle is its id), excluding the devices it
     * already has; discoverable credentials and user verification preferred, no attestation asked.
     */
    async registrationOptions(
      user: User,
      name: string,
      sessionId: string,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const challenge = await newChallenge(REGISTRATION_KEY, {
        session: sha256(sessionId),
        userId: user.id,
        name,
      });
      const existing = await store.passkeys.listForUser(user.id);
      return generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userID: bytesOf(Buffer.from(user.id, 'utf8')),
        userName: user.email ?? user.username,
        userDisplayName: user.displayName,
        challenge: bytesOf(fromBase64Url(challenge)),
        timeout: CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({
          id: c.id,
          transports: c.transports as AuthenticatorTransportFuture[],
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
    },

    /**
     * `RegisterCredential`: checks the new credential against its challenge (S22) and stores it for the user. `amr`:
     * what the registering session proved; without a second factor the passkey is bound to the account's security
     * stamp (ADR 0042). The account is mailed at once.
     */
    async register(
      payload: DeviceRegistrationPayload,
      userId: string,
      sessionId: string,
      amr: readonly string[] = [],
    ): Promise<RegistrationOutcome> {
      const refused = (reason: WebauthnRefusal): RegistrationOutcome => ({ kind: 'refused', reason });
      if (payload.id.replace(/=+$/, '') !== payload.rawId.replace(/=+$/, '')) return refused('malformed');
      const taken = await takeChallenge(REGISTRATION_KEY, payload.response.clientDataJson, sessionId);
      if (!taken || taken.entry.userId !== userId) return refused('challenge');
      const response: RegistrationResponseJSON = {
        id: payload.id.replace(/=+$/, ''),
        rawId: payload.rawId.replace(/=+$/, ''),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          attestationObject: payload.response.attestationObject,
          clientDataJSON: payload.response.clientDataJson,
          ...(payload.response.transports
            ? { transports: payload.response.transports as AuthenticatorTransportFuture[] }
            : {}),
        },
      };
      let info;
      try {
        const result = await verifyRegistrationResponse({
          response,
          expectedChallenge: taken.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
        if (!result.verified || !result.registrationInfo) return refused('verification');
        info = result.registrationInfo;
      } catch {
        return refused('verification');
      }
      const owner = await store.users.findById(userId);
      if (!owner) return refused('account');
      const credential = {
        id: info.credential.id,
        userId,
        boundStamp: await additionBinding(store, owner, amr),
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (payload.response.transports ?? []).slice(0, 8),
        name: taken.entry.name ?? 'Device',
      };
      // A credential id is one user's forever: registering it again (even to the same account) is refused.
      if (!(await store.passkeys.add(credential))) return refused('duplicate');
      await audit('webauthn.registered', userId, {
        credentialId: credential.id,
        name: credential.name,
        bound: credential.boundStamp !== null,
      });
      await deps.announceWayIn?.(owner, 'passkey');
      const stored = await store.passkeys.find(credential.id);
      return stored ? { kind: 'ok', credential: stored } : refused('duplicate');
    },

    /** Records a skipped offer (SkipFido). */
    skipOffer: (userId: string) => store.passkeys.recordOfferSkipped(userId),

    /** The account's devices (manage devices): name, created, last used; never the key. */
    async devicesOf(userId: string): Promise<RegisteredDevice[]> {
      const credentials = await store.passkeys.listForUser(userId);
      return credentials.map((c) => ({
        id: c.id,
        name: c.name,
        createdAt: c.createdAt,
        lastUsedAt: c.lastUsedAt,
      }));
    },

    /**
     * Renames one of the account's passkeys, audited and mailed: the one path of `RenameDevice` (device page) and
     * `RenamePasskey` (security centre). False when it is not theirs. The caller has checked the recent sign-in.
     */
    async renamePasskey(user: Pick<User, 'id' | 'email' | 'displayName'>, id: string, name: string) {
      const renamed = await store.passkeys.rename(user.id, id, name);
      if (renamed) {
        await audit('passkey.renamed', user.id, { credentialId: id, name });
        await deps.announceChange?.(user, 'passkey-renamed');
      }
      return renamed;
    },

    /** Deletes one of the account's passkeys, as {@link renamePasskey}: `RemoveDevice` and `DeletePasskey`. */
    async deletePasskey(user: Pick<User, 'id' | 'email' | 'displayName'>, id: string) {
      const removed = await store.passkeys.remove(user.id, id);
      if (removed) {
        await audit('passkey.deleted', user.id, { credentialId: id });
        await deps.announceChange?.(user, 'passkey-deleted');
      }
      return removed;
    },
  };
}

/** The passkey service. */
export type WebauthnService = ReturnType<typeof createWebauthnService>;
