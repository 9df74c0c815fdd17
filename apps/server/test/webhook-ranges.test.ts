import { describe, expect, it } from 'vitest';
import { addressAllowed, mappedIpv4, REFUSED_RANGES } from '../src/modules/apikey/webhook-target.js';

// Address arithmetic of its own (BigInt), independent of node's BlockList that the check uses.
const V4_BITS = 32n;
const V6_BITS = 128n;

function v4ToInt(ip: string): bigint {
  return ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}
function intToV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
}
function v6ToInt(ip: string): bigint {
  const [head = '', tail] = ip.split('::');
  const part = (s: string) => (s ? s.split(':') : []);
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const groups = [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return groups.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}
function intToV6(n: bigint): string {
  return Array.from({ length: 8 }, (_, i) => ((n >> BigInt((7 - i) * 16)) & 0xffffn).toString(16)).join(':');
}

const ranges = REFUSED_RANGES.map((r) => {
  const bits = r.family === 'ipv4' ? V4_BITS : V6_BITS;
  const base = r.family === 'ipv4' ? v4ToInt(r.net) : v6ToInt(r.net);
  const size = 1n << (bits - BigInt(r.bits));
  return { ...r, first: base, last: base + size - 1n, max: (1n << bits) - 1n };
});
const text = (family: 'ipv4' | 'ipv6', n: bigint) => (family === 'ipv4' ? intToV4(n) : intToV6(n));
/** Whether an address lies in any refused block (the IPv4-mapped block is judged as IPv4 by the check). */
const inAnyRange = (family: 'ipv4' | 'ipv6', n: bigint) =>
  ranges.some((r) => r.family === family && r.first <= n && n <= r.last);

describe('webhook targets: the special-purpose registries of both families', () => {
  it('holds every block the IANA registries name (as of 2025), IPv4 and IPv6', () => {
    const have = new Set(REFUSED_RANGES.map((r) => `${r.net}/${r.bits}`));
    for (const cidr of [
      '0.0.0.0/8',
      '10.0.0.0/8',
      '100.64.0.0/10',
      '127.0.0.0/8',
      '169.254.0.0/16',
      '172.16.0.0/12',
      '192.0.0.0/24',
      '192.0.2.0/24',
      '192.31.196.0/24',
      '192.52.193.0/24',
      '192.88.99.0/24',
      '192.168.0.0/16',
      '192.175.48.0/24',
      '198.18.0.0/15',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '224.0.0.0/4',
      '240.0.0.0/4',
      '255.255.255.255/32',
      '::/128',
      '::1/128',
      '64:ff9b::/96',
      '64:ff9b:1::/48',
      '100::/64',
      '100:0:0:1::/64',
      '2001::/23',
      '2001:db8::/32',
      '2002::/16',
      '2620:4f:8000::/48',
      '3fff::/20',
      '5f00::/16',
      'fc00::/7',
      'fe80::/10',
      'fec0::/10',
      'ff00::/8',
    ])
      expect(have.has(cidr), cidr).toBe(true);
  });

  it('refuses the first and the last address of every block, and allows the neighbours outside all blocks', () => {
    let neighbours = 0;
    for (const r of ranges) {
      for (const n of [r.first, r.first + 1n, r.last - 1n, r.last]) {
        if (n < r.first || n > r.last) continue;
        const ip = text(r.family, n);
        expect(addressAllowed(ip, false), `${ip} in ${r.net}/${r.bits} (${r.what})`).toBe(false);
      }
      for (const n of [r.first - 1n, r.last + 1n]) {
        if (n < 0n || n > r.max || inAnyRange(r.family, n)) continue;
        const ip = text(r.family, n);
        expect(addressAllowed(ip, false), `${ip} just outside ${r.net}/${r.bits}`).toBe(true);
        neighbours += 1;
      }
    }
    // Most blocks have a public neighbour; a check refusing everything would fail above.
    expect(neighbours).toBeGreaterThan(20);
  });

  it('judges an IPv4-mapped IPv6 address as its IPv4 address, in every spelling', () => {
    for (const r of ranges.filter((x) => x.family === 'ipv4')) {
      for (const n of [r.first, r.last]) {
        const v4 = intToV4(n);
        const hex = `::ffff:${((n >> 16n) & 0xffffn).toString(16)}:${(n & 0xffffn).toString(16)}`;
        for (const ip of [`::ffff:${v4}`, hex, `0:0:0:0:0:ffff:${v4}`, `0000:0000:0000:0000:0000:FFFF:${v4}`]) {
          expect(mappedIpv4(ip), ip).toBe(v4);
          expect(addressAllowed(ip, false), ip).toBe(false);
        }
      }
    }
    expect(addressAllowed('::ffff:8.8.8.8', false)).toBe(true);
    expect(addressAllowed('::ffff:808:808', false)).toBe(true);
    // Loopback through its mapped spelling follows the loopback setting like 127.0.0.1 itself.
    expect(addressAllowed('::ffff:127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::ffff:7f00:1', false)).toBe(false);
  });

  it('refuses IPv6 forms that embed a private IPv4 address (NAT64, 6to4, Teredo, compatible)', () => {
    for (const ip of [
      '64:ff9b::10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::a00:1',
      '2002:a00:1::1',
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe',
      '::10.0.0.1',
      '::127.0.0.1',
      '::ffff:0:10.0.0.1',
      'fe80::1%eth0',
    ])
      expect(addressAllowed(ip, false), ip).toBe(false);
  });

  it('allows ordinary public addresses of both families', () => {
    for (const ip of ['8.8.8.8', '223.5.5.5', '114.114.114.114', '2400:3200::1', '2001:4860:4860::8888', '240e::1'])
      expect(addressAllowed(ip, false), ip).toBe(true);
  });
});
