import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { WorkQueue } from '../infra/throttle/work-queue.js';

/** argon2id with the OWASP Password Storage Cheat Sheet parameters (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = {
  // Algorithm is an ambient const enum (not importable under isolatedModules); 2 is its Argon2id member.
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Hashes in flight at once for `cores` cores and a libuv thread pool of `poolSize` threads (argon2 runs on that pool,
 * which file and DNS work share): one more than the cores, and always one pool thread left for the rest. With one
 * per core, a core waits between two hashes (the finished one's answer goes back through the event loop before the
 * next starts, and each verify maps and frees its 19 MiB): on a 2-core machine 7–8 % of the machine stayed idle under
 * saturated sign-ins, and verifies alone reached ≈ 127/s with 2 in flight against ≈ 136/s with 3. More than one
 * extra only makes every hash slower (they share the cores and memory bandwidth); the others wait their turn in order.
 */
export function hashConcurrency(cores: number, poolSize: number): number {
  return Math.max(1, Math.min(cores + 1, poolSize - 1));
}

export const HASH_CONCURRENCY = hashConcurrency(
  availableParallelism(),
  Number(process.env.UV_THREADPOOL_SIZE) || 4,
);

const hashing = new WorkQueue(HASH_CONCURRENCY);

/** Hashes a password; never trims or truncates it (S1). */
export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, ARGON2_OPTIONS));
}

/** True when the password matches; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(passwordHash, password));
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
