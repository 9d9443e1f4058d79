import { describe, expect, it } from 'vitest';
import { sessionNetwork } from './session-network.js';

describe('sessionNetwork', () => {
  it.each([
    ['127.0.0.1', { kind: 'thisDevice' }, 'loopback'],
    ['127.8.9.10', { kind: 'thisDevice' }, 'loopback'],
    ['::1', { kind: 'thisDevice' }, 'loopback'],
    ['::ffff:127.0.0.1', { kind: 'thisDevice' }, 'loopback'],
    ['10.1.2.3', { kind: 'localNetwork' }, '10.1.2.0/24'],
    ['172.16.5.4', { kind: 'localNetwork' }, '172.16.5.0/24'],
    ['172.31.255.1', { kind: 'localNetwork' }, '172.31.255.0/24'],
    ['192.168.1.23', { kind: 'localNetwork' }, '192.168.1.0/24'],
    ['169.254.10.20', { kind: 'localNetwork' }, '169.254.10.0/24'],
    ['fd12:3456:789a::1', { kind: 'localNetwork' }, 'fd12:3456:789a::/48'],
    ['fc00::5', { kind: 'localNetwork' }, 'fc00::/48'],
    ['fe80::1', { kind: 'localNetwork' }, 'fe80::/48'],
    ['fe80::1%eth0', { kind: 'localNetwork' }, 'fe80::/48'],
    // Just outside RFC 1918: public.
    ['172.32.0.1', { kind: 'network', prefix: '172.32.0.x' }, '172.32.0.0/24'],
    ['203.0.113.57', { kind: 'network', prefix: '203.0.113.x' }, '203.0.113.0/24'],
    ['::ffff:198.51.100.10', { kind: 'network', prefix: '198.51.100.x' }, '198.51.100.0/24'],
    ['::ffff:c633:640a', { kind: 'network', prefix: '198.51.100.x' }, '198.51.100.0/24'],
    ['2001:db8:1:2::99', { kind: 'network', prefix: '2001:db8:1::/48' }, '2001:db8:1::/48'],
    ['2a00:1450:4001:82b::200e', { kind: 'network', prefix: '2a00:1450:4001::/48' }, '2a00:1450:4001::/48'],
  ])('reads %s coarsely', (ip, network, key) => {
    expect(sessionNetwork(ip)).toEqual({ network, key });
  });

  it.each([[null], [''], ['unknown'], ['127.1'], ['0x7f000001'], ['203.0.113.300']])(
    'gives nothing for an unknown or unreadable address (%s)',
    (ip) => {
      expect(sessionNetwork(ip)).toEqual({ network: null, key: null });
    },
  );

  it('never shows the host part of a public address', () => {
    for (const ip of ['203.0.113.57', '2001:db8:1:2::99']) {
      const { network } = sessionNetwork(ip);
      expect(JSON.stringify(network)).not.toContain(ip.split(/[.:]/).pop());
    }
  });
});
