import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox (AES-256-GCM secrets at rest)', () => {
  const box = new SecretBox(randomBytes(32));
  const secret = 'JBSWY3DPEHPK3PXP';

  it('round-trips a secret and never stores it in clear', () => {
    const sealed = box.encrypt(secret);
    expect(sealed).not.toContain(secret);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.decrypt(sealed)).toBe(secret);
  });

  it('seals the same secret differently each time (fresh IV)', () => {
    expect(box.encrypt(secret)).not.toBe(box.encrypt(secret));
  });

  it('refuses a tampered value', () => {
    const [version, iv, tag, body] = box.encrypt(secret).split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.decrypt([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });

  it('refuses a value sealed under another key', () => {
    expect(() => new SecretBox(randomBytes(32)).decrypt(box.encrypt(secret))).toThrow();
  });

  it('refuses a key that is not 32 bytes and a value that is not sealed', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow();
    expect(() => box.decrypt('plain-text')).toThrow('not a sealed secret');
  });
});
