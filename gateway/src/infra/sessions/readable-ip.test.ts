import { describe, expect, it } from 'vitest';
import { readableIp } from './session-index.js';

describe('readableIp', () => {
  it('shows an IPv4-mapped IPv6 address as the IPv4 address it is, and anything else as given', () => {
    expect(readableIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(readableIp('::FFFF:203.0.113.9')).toBe('203.0.113.9');
    expect(readableIp('203.0.113.9')).toBe('203.0.113.9');
    expect(readableIp('2001:db8::1')).toBe('2001:db8::1');
    expect(readableIp('::1')).toBe('::1');
    expect(readableIp(null)).toBeNull();
  });
});
