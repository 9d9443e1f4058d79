import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH } from 'shared-contracts';
import { sha256 } from '../../infra/crypto/tokens.js';

/**
 * A new set of recovery codes: {@link RECOVERY_CODE_COUNT} codes of {@link RECOVERY_CODE_LENGTH} characters from a
 * 32-symbol alphabet, drawn from the CSPRNG: 60 bits each (S19 asks for ≥ 50). Normalised form, no separators.
 */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) {
    let code = '';
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    codes.add(code);
  }
  return [...codes];
}

/**
 * How a code is kept at rest (S19): SHA-256 over the user id and the normalised code. 60 random bits make a slow
 * hash unnecessary for a lookup key, and the user id keeps equal codes of two users apart.
 */
export function recoveryCodeHash(userId: string, normalisedCode: string): string {
  return sha256(`${userId}:${normalisedCode}`);
}
