// Which IP addresses outbound requests may reach: only public unicast; everything an SSRF could aim at is refused.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

// Range membership is node's BlockList; the table order decides which name an address gets. IPv6 forms that embed an
// IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo) are judged by the address they embed.

/** Named IPv4 ranges that are not public unicast (RFC 6890 and friends); the first range holding an address names it. */
const V4_RANGES: readonly (readonly [kind: string, ranges: BlockList])[] = [
  // Broadcast lies inside 240.0.0.0/4 (reserved): it comes first so it is named.
  ['broadcast address', subnets('ipv4', '255.255.255.255/32')],
  ['unspecified address', subnets('ipv4', '0.0.0.0/8')],
  ['private address', subnets('ipv4', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16')],
  ['shared (CGNAT) address', subnets('ipv4', '100.64.0.0/10')],
  ['loopback address', subnets('ipv4', '127.0.0.0/8')],
  ['link-local address', subnets('ipv4', '169.254.0.0/16')],
  ['documentation address', subnets('ipv4', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24')],
  ['benchmarking address', subnets('ipv4', '198.18.0.0/15')],
  ['multicast address', subnets('ipv4', '224.0.0.0/4')],
  ['reserved address', subnets('ipv4', '192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4')],
];

/** What an IPv6 range says of an address in it: a fixed problem, or one read from the groups (an embedded IPv4 address). */
type V6Verdict = string | ((groups: number[]) => string | null);

/** IPv6 ranges, most specific first: the first range holding an address gives the verdict (null: public unicast). */
const V6_RANGES: readonly (readonly [ranges: BlockList, verdict: V6Verdict])[] = [
  [subnets('ipv6', '::/128'), 'an unspecified address'],
  [subnets('ipv6', '::1/128'), 'a loopback address'],
  [subnets('ipv6', '::ffff:0:0/96'), (g) => embedded('IPv4-mapped form', low32(g))],
  [subnets('ipv6', '::ffff:0:0:0/96'), (g) => embedded('IPv4-translated form', low32(g))],
  [subnets('ipv6', '::/96'), (g) => embedded('IPv4-compatible form', low32(g)) ?? 'a reserved address'],
  [subnets('ipv6', '64:ff9b::/96'), (g) => embedded('NAT64 form', low32(g))],
  [subnets('ipv6', '64:ff9b:1::/48'), 'a local-use NAT64 address'],
  [subnets('ipv6', '2002::/16'), (g) => embedded('6to4 form', ((g[1] << 16) | g[2]) >>> 0)],
  // Teredo carries the client's IPv4 address with every bit inverted.
  [subnets('ipv6', '2001::/32'), (g) => embedded('Teredo form', ~low32(g) >>> 0)],
  [subnets('ipv6', '2001:db8::/32'), 'a documentation address'],
  [subnets('ipv6', 'fc00::/7'), 'a private (unique local) address'],
  [subnets('ipv6', 'fe80::/10'), 'a link-local address'],
  [subnets('ipv6', 'fec0::/10'), 'a site-local address'],
  [subnets('ipv6', 'ff00::/8'), 'a multicast address'],
];

/** Only 2000::/3 is allocated for global unicast; everything else (100::/64 discard, ...) is reserved. */
const V6_GLOBAL_UNICAST = subnets('ipv6', '2000::/3');

function subnets(family: 'ipv4' | 'ipv6', ...cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split('/');
    list.addSubnet(network, Number(prefix), family);
  }
  return list;
}

function classifyV4(address: string): string | null {
  for (const [kind, ranges] of V4_RANGES) if (ranges.check(address, 'ipv4')) return kind;
  return null;
}

function classifyV6(address: string): string | null {
  for (const [ranges, verdict] of V6_RANGES) {
    if (!ranges.check(address, 'ipv6')) continue;
    return typeof verdict === 'string' ? verdict : verdict(parseIpv6(address)!);
  }
  return V6_GLOBAL_UNICAST.check(address, 'ipv6') ? null : 'a reserved address';
}

const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

function embedded(form: string, v4: number): string | null {
  const text = [v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255].join('.');
  const inner = classifyV4(text);
  return inner ? `the ${form} of ${text}, ${article(inner)}` : null;
}

const low32 = (g: number[]) => ((g[6] << 16) | g[7]) >>> 0;

/** The address without brackets and zone (`[fe80::1%eth0]` is `fe80::1`) when it is IPv6, else null. */
function bareIpv6(text: string): string | null {
  let s = text.replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  return isIPv6(s) ? s : null;
}

/**
 * Eight 16-bit groups of an IPv6 address (zone and brackets stripped, trailing dotted quad allowed); null if malformed.
 * Only used to read the IPv4 address an embedding form carries; range checks go through BlockList.
 */
export function parseIpv6(text: string): number[] | null {
  let s = bareIpv6(text);
  if (s === null) return null;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // A trailing dotted quad (::ffff:127.0.0.1) stands for the last two groups.
    const v4 = last.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(halves[0]);
  if (halves.length === 1) return left.length === 8 ? left : null;
  const right = parse(halves[1]);
  const fill = 8 - left.length - right.length;
  if (fill < 1) return null;
  return [...left, ...new Array<number>(fill).fill(0), ...right];
}

/**
 * What kind of non-public address this is ("a loopback address", "the IPv4-mapped form of 127.0.0.1, a loopback
 * address"), or null when it is public unicast and may be reached. IPv6 may come bracketed and with a zone (`%eth0`).
 * Anything not a well-formed address is refused too ("not an IP address").
 */
export function addressProblem(address: string): string | null {
  if (isIPv4(address)) {
    const kind = classifyV4(address);
    return kind ? article(kind) : null;
  }
  const v6 = bareIpv6(address);
  return v6 === null ? 'not an IP address' : classifyV6(v6);
}
