import { describe, expect, it } from 'vitest';
import { coarseIp, readableIp } from './session-index.js';

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

describe('coarseIp', () => {
  it.each([
    ['203.0.113.9', '203.0.113.0/24'],
    ['::ffff:127.0.0.1', '127.0.0.0/24'],
    ['::ffff:7f00:1', '127.0.0.0/24'],
    ['2001:db8:1:2::1', '2001:db8:1::/48'],
    ['2001:0db8:00a1:ffff:0:0:0:1', '2001:db8:a1::/48'],
    ['2001:db8::1', '2001:db8::/48'],
    ['2001:0:0:5::1', '2001::/48'],
    ['::1', '::1'],
    ['::2', '::/48'],
    ['fe80::1%eth0', 'fe80::/48'],
  ])('keeps the network of %s: %s', (ip, network) => {
    expect(coarseIp(ip)).toBe(network);
  });

  it.each([
    [null],
    [''],
    ['not an address'],
    ['1:2:3'],
    ['1::2::3'],
    ['12345::1'],
    ['127.1'],
    ['0x7f000001'],
  ])('gives nothing for %s', (ip) => {
    expect(coarseIp(ip)).toBeNull();
  });
});
