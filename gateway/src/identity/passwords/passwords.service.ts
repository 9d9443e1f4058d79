import { availableParallelism } from 'node:os';
import type { Algorithm } from '@node-rs/argon2';
import { HashWorkers } from './hash-workers.js';

/** argon2id with the OWASP Password Storage Cheat Sheet parameters (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = {
  // Algorithm is an ambient const enum (not importable under isolatedModules); 2 is its Argon2id member.
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Threads that hash passwords: one per core (docs/adr/0004, "Hash work"). Each holds the hash it runs and the next
 * one, so a core never waits for the main thread between two hashes; the rest wait in arrival order.
 */
export const HASH_THREADS = availableParallelism();

const hashing = new HashWorkers(HASH_THREADS);

/** Hashes a password; never trims or truncates it (S1). */
export function hashPassword(password: string): Promise<string> {
  return hashing.run<string>({ op: 'hash', password, options: ARGON2_OPTIONS });
}

/** True when the password matches; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run<boolean>({ op: 'verify', hash: passwordHash, password });
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
