/**
 * A WebAuthn authenticator in software for gateway tests (WebAuthn L3 §6): an ES256 key pair per credential made
 * with node:crypto, "none" attestation, and assertions signed over authenticatorData ‖ SHA-256(clientDataJSON),
 * exactly as a platform authenticator answers `navigator.credentials.create/get`. The client half (clientDataJSON
 * with type, challenge and origin) is done here too, as the browser would.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { DeviceRegistrationPayload, SecureSignInPayload } from 'shared-contracts';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** What the authenticator keeps for one credential. */
export interface SoftwareCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** The user handle given at creation (the account's id as bytes). */
  userHandle: Buffer;
  rpId: string;
  counter: number;
}

/** Options of one ceremony: what a real browser and device would take from the page and the world. */
export interface CeremonyOptions {
  /** The origin the browser reports (a phishing page reports its own). */
  origin?: string;
  /** The RP id the authenticator hashes (defaults to the options' rpId, or the origin's host). */
  rpId?: string;
  /** User verification done (PIN, biometric); default true. */
  userVerified?: boolean;
  /** The counter to report instead of the next one (a cloned authenticator). */
  counter?: number;
  /** Answer with the user handle (discoverable credentials do); default true. */
  withUserHandle?: boolean;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

function counterBytes(counter: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(counter);
  return buffer;
}

/** A software passkey holder for one origin. */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  constructor(readonly origin: string) {}

  /** `navigator.credentials.create` with the gateway's creation options JSON. */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    ceremony: CeremonyOptions = {},
  ): { payload: DeviceRegistrationPayload; credential: SoftwareCredential } {
    const origin = ceremony.origin ?? this.origin;
    const rpId = ceremony.rpId ?? options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const id = randomBytes(16);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(id.length);
    const flags = FLAG_UP | FLAG_AT | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authData = Buffer.concat([
      createHash('sha256').update(rpId).digest(),
      Buffer.from([flags]),
      counterBytes(0),
      Buffer.alloc(16), // AAGUID: none
      credentialIdLength,
      id,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const credential: SoftwareCredential = {
      id,
      privateKey,
      userHandle: Buffer.from(options.user.id, 'base64url'),
      rpId,
      counter: 0,
    };
    this.credentials.push(credential);
    return {
      credential,
      payload: {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        extensions: {},
        response: {
          attestationObject: b64url(attestationObject),
          clientDataJson: b64url(clientData('webauthn.create', options.challenge, origin)),
          transports: ['internal'],
        },
      },
    };
  }

  /** `navigator.credentials.get` with the gateway's request options JSON, answered by `credential`. */
  assert(
    options: { challenge: string; rpId?: string },
    credential: SoftwareCredential,
    ceremony: CeremonyOptions = {},
  ): SecureSignInPayload {
    const origin = ceremony.origin ?? this.origin;
    const rpId = ceremony.rpId ?? options.rpId ?? credential.rpId;
    const counter = ceremony.counter ?? (credential.counter += 1);
    const flags = FLAG_UP | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authData = Buffer.concat([
      createHash('sha256').update(rpId).digest(),
      Buffer.from([flags]),
      counterBytes(counter),
    ]);
    const clientDataJson = clientData('webauthn.get', options.challenge, origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, createHash('sha256').update(clientDataJson).digest()]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      extensions: {},
      response: {
        authenticatorData: b64url(authData),
        clientDataJson: b64url(clientDataJson),
        signature: b64url(signature),
        userHandle: ceremony.withUserHandle === false ? null : b64url(credential.userHandle),
      },
    };
  }
}
