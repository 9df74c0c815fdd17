import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { APIKEY_MSG } from '@dzy/shared';

/**
 * Webhook targets (SSRF, docs/decisions/auth.md, docs/decisions/security.md): an agency administrator
 * chooses the URL the server posts to, so it must not reach the server's own network or any address that is
 * not an ordinary public one. Refused: every block of the IANA IPv4 and IPv6 Special-Purpose Address
 * Registries (loopback, private, carrier-grade NAT 100.64/10 where Alibaba Cloud's metadata 100.100.100.200
 * lives, link-local with the usual cloud metadata 169.254.169.254, documentation, benchmarking, NAT64, 6to4,
 * Teredo and the other IETF protocol assignments ...), multicast, and every IPv6 address outside global
 * unicast 2000::/3 (the rest of the IPv6 space is reserved or unassigned). An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) is judged as its IPv4 address. The host name is resolved at save and again at every
 * delivery, on the very connection (DNS can change in between).
 * Loopback alone may be allowed by config (WEBHOOK_ALLOW_LOOPBACK; tests and the local demo's receivers).
 */
export const REFUSED_RANGES: readonly { net: string; bits: number; family: 'ipv4' | 'ipv6'; what: string }[] = [
  // IANA IPv4 Special-Purpose Address Registry (iana-ipv4-special-registry, 2025), and multicast.
  { family: 'ipv4', net: '0.0.0.0', bits: 8, what: '"this network" (RFC 791)' },
  { family: 'ipv4', net: '10.0.0.0', bits: 8, what: 'private-use (RFC 1918)' },
  { family: 'ipv4', net: '100.64.0.0', bits: 10, what: 'shared address space, carrier-grade NAT (RFC 6598)' },
  { family: 'ipv4', net: '127.0.0.0', bits: 8, what: 'loopback (RFC 1122)' },
  { family: 'ipv4', net: '169.254.0.0', bits: 16, what: 'link-local, cloud metadata (RFC 3927)' },
  { family: 'ipv4', net: '172.16.0.0', bits: 12, what: 'private-use (RFC 1918)' },
  { family: 'ipv4', net: '192.0.0.0', bits: 24, what: 'IETF protocol assignments (RFC 6890)' },
  { family: 'ipv4', net: '192.0.2.0', bits: 24, what: 'documentation TEST-NET-1 (RFC 5737)' },
  { family: 'ipv4', net: '192.31.196.0', bits: 24, what: 'AS112-v4 (RFC 7535)' },
  { family: 'ipv4', net: '192.52.193.0', bits: 24, what: 'AMT (RFC 7450)' },
  { family: 'ipv4', net: '192.88.99.0', bits: 24, what: 'deprecated 6to4 relay anycast (RFC 7526)' },
  { family: 'ipv4', net: '192.168.0.0', bits: 16, what: 'private-use (RFC 1918)' },
  { family: 'ipv4', net: '192.175.48.0', bits: 24, what: 'direct delegation AS112 service (RFC 7534)' },
  { family: 'ipv4', net: '198.18.0.0', bits: 15, what: 'benchmarking (RFC 2544)' },
  { family: 'ipv4', net: '198.51.100.0', bits: 24, what: 'documentation TEST-NET-2 (RFC 5737)' },
  { family: 'ipv4', net: '203.0.113.0', bits: 24, what: 'documentation TEST-NET-3 (RFC 5737)' },
  { family: 'ipv4', net: '224.0.0.0', bits: 4, what: 'multicast (RFC 5771)' },
  { family: 'ipv4', net: '240.0.0.0', bits: 4, what: 'reserved (RFC 1112)' },
  { family: 'ipv4', net: '255.255.255.255', bits: 32, what: 'limited broadcast (RFC 919)' },
  // IANA IPv6 Special-Purpose Address Registry (iana-ipv6-special-registry, 2025).
  { family: 'ipv6', net: '::', bits: 128, what: 'unspecified (RFC 4291)' },
  { family: 'ipv6', net: '::1', bits: 128, what: 'loopback (RFC 4291)' },
  { family: 'ipv6', net: '::', bits: 96, what: 'deprecated IPv4-compatible (RFC 4291)' },
  { family: 'ipv6', net: '::ffff:0:0:0', bits: 96, what: 'IPv4-translated (RFC 2765)' },
  { family: 'ipv6', net: '64:ff9b::', bits: 96, what: 'NAT64 well-known prefix (RFC 6052)' },
  { family: 'ipv6', net: '64:ff9b:1::', bits: 48, what: 'local-use IPv4/IPv6 translation (RFC 8215)' },
  { family: 'ipv6', net: '100::', bits: 64, what: 'discard-only (RFC 6666)' },
  { family: 'ipv6', net: '100:0:0:1::', bits: 64, what: 'dummy IPv6 prefix (RFC 9780)' },
  {
    family: 'ipv6',
    net: '2001::',
    bits: 23,
    what: 'IETF protocol assignments, Teredo 2001::/32 among them (RFC 2928)',
  },
  { family: 'ipv6', net: '2001:db8::', bits: 32, what: 'documentation (RFC 3849)' },
  { family: 'ipv6', net: '2002::', bits: 16, what: '6to4, embeds any IPv4 address (RFC 3056)' },
  { family: 'ipv6', net: '2620:4f:8000::', bits: 48, what: 'direct delegation AS112 service (RFC 7534)' },
  { family: 'ipv6', net: '3fff::', bits: 20, what: 'documentation (RFC 9637)' },
  { family: 'ipv6', net: '5f00::', bits: 16, what: 'segment routing SIDs (RFC 9602)' },
  { family: 'ipv6', net: 'fc00::', bits: 7, what: 'unique-local (RFC 4193)' },
  { family: 'ipv6', net: 'fe80::', bits: 10, what: 'link-local unicast (RFC 4291)' },
  { family: 'ipv6', net: 'fec0::', bits: 10, what: 'deprecated site-local (RFC 3879)' },
  { family: 'ipv6', net: 'ff00::', bits: 8, what: 'multicast (RFC 4291)' },
  // IANA IPv6 Address Space: outside 2000::/3 nothing is global unicast (reserved or unassigned).
  { family: 'ipv6', net: '::', bits: 3, what: 'reserved by IETF, not global unicast' },
  { family: 'ipv6', net: '4000::', bits: 2, what: 'unassigned, not global unicast' },
  { family: 'ipv6', net: '8000::', bits: 1, what: 'unassigned, unique-local, link-local, multicast' },
];

// One list per family: node's BlockList matches an IPv4 address against IPv6 rules as ::ffff:a.b.c.d, which
// the reserved ::/3 would swallow.
const blocked = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const r of REFUSED_RANGES) blocked[r.family].addSubnet(r.net, r.bits, r.family);

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad included), or null. */
function groupsOf(ip: string): number[] | null {
  let text = ip;
  const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(2).map(Number) as [number, number, number, number];
    text = `${quad[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const part = (s: string) => (s ? s.split(':').map((h) => Number.parseInt(h, 16)) : []);
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d, in any spelling) stands for, else null. */
export function mappedIpv4(ip: string): string | null {
  const g = groupsOf(ip);
  if (!g || g.slice(0, 5).some((x) => x !== 0) || g[5] !== 0xffff) return null;
  const [hi = 0, lo = 0] = g.slice(6);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether the server may connect to `ip` (a literal address; IPv4-mapped IPv6 is judged as its IPv4). */
export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  // A zone id (fe80::1%eth0) only ever names an address on this machine's own links.
  if (ip.includes('%')) return false;
  const family = isIP(ip);
  if (family === 0) return false;
  const v4 = family === 6 ? mappedIpv4(ip) : ip;
  if (v4 !== null) {
    if (allowLoopback && loopback.check(v4, 'ipv4')) return true;
    return !blocked.ipv4.check(v4, 'ipv4');
  }
  if (allowLoopback && loopback.check(ip, 'ipv6')) return true;
  return !blocked.ipv6.check(ip, 'ipv6');
}

type Resolve = (host: string) => Promise<string[]>;
const resolveAll: Resolve = (host) =>
  new Promise((ok, fail) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, list) => (err ? fail(err) : ok(list.map((a) => a.address)))),
  );

/** The host of a URL as a resolver or isIP wants it: IPv6 without its brackets. */
const hostOf = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook URL at save: http(s), and every address its host resolves to allowed. Returns the
 * Chinese reason it is refused, or null.
 */
export async function webhookUrlProblem(
  url: string,
  allowLoopback: boolean,
  resolve: Resolve = resolveAll,
): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return APIKEY_MSG.urlBad;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return APIKEY_MSG.urlBad;
  const host = hostOf(u);
  if (!host) return APIKEY_MSG.urlBad;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return APIKEY_MSG.urlUnresolved;
    }
  }
  if (!addresses.length) return APIKEY_MSG.urlUnresolved;
  return addresses.every((a) => addressAllowed(a, allowLoopback)) ? null : APIKEY_MSG.urlPrivate;
}

/** Error code of a connection refused by guardedLookup, told apart from network failures in the log. */
export const BLOCKED_CODE = 'EDZYBLOCKED';

/**
 * A `lookup` for http.request that resolves as usual and refuses the connection when any answer is not
 * allowed: the address checked is the address connected to (no gap for DNS rebinding).
 */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (host, options, callback) => {
    dnsLookup(host, { ...options, all: true, verbatim: true }, (err, list: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = list.find((a) => !addressAllowed(a.address, allowLoopback));
      if (bad || !list.length) {
        const e = Object.assign(new Error(`blocked ${bad?.address ?? host}`), { code: BLOCKED_CODE });
        return callback(e, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, l: LookupAddress[]) => void)(null, list);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/** Whether a literal-IP URL host may be posted to (http.request skips lookup for literal addresses). */
export function literalHostAllowed(u: URL, allowLoopback: boolean): boolean {
  const host = hostOf(u);
  return !isIP(host) || addressAllowed(host, allowLoopback);
}
