import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { SessionNetwork } from 'shared-contracts';

/** A session's address read coarsely: what the page is shown, and what two sessions are compared by. */
export interface SessionNetworkReading {
  /** What the security centre shows (ADR 0049); null for an unknown or unreadable address. */
  network: SessionNetwork | null;
  /**
   * The network the address is in (its /24 or /48, or `loopback`): two sessions with the same key are on the same
   * network. Private networks have keys too (10.0.0.0/24 is not 192.168.1.0/24), but the page never sees them.
   */
  key: string | null;
}

/** Ranges that name a network of the person's own, not one the internet routes (RFC 1918, 4193, 3927, 4291). */
const LOCAL_RANGES = new Set(['private', 'linkLocal', 'uniqueLocal']);

/**
 * Where a session signed in from, read from the address the service saw (the request's address after the trusted
 * proxies of `TRUST_PROXY`, as every other record takes it), with no lookup elsewhere (ADR 0049): the loopback
 * address is this very machine, the private, unique-local and link-local ranges a local network, anything else
 * the public network it belongs to: an IPv4 /24 written `203.0.113.x`, an IPv6 /48 written `2001:db8:1::/48`.
 * Enough to tell home from the office or from somewhere unexpected, never the device's full address.
 */
export function sessionNetwork(ip: string | null): SessionNetworkReading {
  // Node's strict check first: ipaddr.js would also read legacy forms such as `127.1` or `0x7f000001`.
  const bare = ip?.replace(/%.*$/, '');
  if (!bare || isIP(bare) === 0) return { network: null, key: null };
  // `process` reads an IPv4-mapped address in any spelling (`::ffff:7f00:1` too) as the IPv4 address it is.
  const address = ipaddr.process(bare);
  const range = address.range();
  if (range === 'loopback') return { network: { kind: 'thisDevice' }, key: 'loopback' };
  const v4 = address.kind() === 'ipv4';
  const bits = v4 ? 24 : 48;
  const base = v4
    ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  const key = `${base.toString()}/${bits}`;
  if (LOCAL_RANGES.has(range)) return { network: { kind: 'localNetwork' }, key };
  const prefix = v4 ? `${base.toString().replace(/\.0$/, '')}.x` : key;
  return { network: { kind: 'network', prefix }, key };
}
