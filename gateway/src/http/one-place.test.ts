import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 50, ADR 0053: a returnUrl query, a `Retry-After` header and a cookie's attributes are each built in one
 * place. This reads the gateway's product code (tests and test helpers aside) and names any file that builds one by
 * hand again.
 */
const SRC = join(import.meta.dirname, '..');

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = productFiles(SRC).map((path) => ({
  file: relative(SRC, path),
  // Comments say what a value looks like; only code counts.
  code: readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, ''),
}));

function offenders(pattern: RegExp, allowed: readonly string[]): string[] {
  return files
    .filter(({ file, code }) => pattern.test(code) && !allowed.includes(file))
    .map(({ file }) => file);
}

describe('one place each (issue 50, ADR 0053)', () => {
  it('builds every returnUrl query with shared-contracts’ withReturnUrl', () => {
    expect(offenders(/returnUrl=|URLSearchParams\(\{\s*returnUrl/, [])).toEqual([]);
  });

  it('writes Retry-After only in infra/throttle/wait.ts', () => {
    expect(offenders(/['"]Retry-After['"]\s*,/, ['infra/throttle/wait.ts'])).toEqual([]);
  });

  it('builds cookie attributes only in infra/cookie-attributes.ts', () => {
    expect(
      offenders(/SameSite=|'HttpOnly'|__Host-|sameSite:\s*'lax'/, ['infra/cookie-attributes.ts']),
    ).toEqual([]);
    expect(offenders(/\bres\.cookie\(/, ['http/cookies.ts'])).toEqual([]);
  });
});
