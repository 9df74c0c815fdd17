import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { APIKEY_MSG } from '@dzy/shared';

/**
 * Webhook targets (SSRF, docs/decisions-18-apikeys.md): an agency administrator chooses the URL the server
 * posts to, so it must not reach the server's own network. Refused: loopback, private (RFC 1918, unique
 * local), carrier-grade NAT (100.64/10, where Alibaba Cloud's metadata 100.100.100.200 lives), link-local
 * (169.254/16 with the usual cloud metadata 169.254.169.254, fe80::/10), unspecified, multicast, reserved,
 * and IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4). The host name is resolved at
 * save and again at every delivery, on the very connection (DNS can change in between).
 * Loopback alone may be allowed by config (WEBHOOK_ALLOW_LOOPBACK; tests and the local demo's receivers).
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether the server may connect to `ip` (a literal address; IPv4-mapped IPv6 is judged as its IPv4). */
export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && loopback.check(ip, type)) return true;
  return !blocked.check(ip, type);
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
