import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** argon2id with the OWASP Password Storage Cheat Sheet parameters (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = {
  // Algorithm is an ambient const enum (not importable under isolatedModules); 2 is its Argon2id member.
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Hashes a password; never trims or truncates it (S1). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** True when the password matches; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash to verify against when the user is unknown (or has no password), so the unknown path does the same
 * hash work and its timing does not reveal who exists (S11).
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}
