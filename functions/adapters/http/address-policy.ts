// Which IP addresses outbound requests may reach: only public unicast. Everything an SSRF could aim at is refused,
// including IPv6 forms that embed an IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo).
import { isIPv4, isIPv6 } from 'node:net';

type Range = readonly [base: number, prefix: number, kind: string];

/** IPv4 ranges that are not public unicast (RFC 6890 and friends). Broadcast comes before 240/4 so it is named. */
const V4_RANGES: readonly Range[] = [
  [ip4('0.0.0.0'), 8, 'unspecified address'],
  [ip4('10.0.0.0'), 8, 'private address'],
  [ip4('100.64.0.0'), 10, 'shared (CGNAT) address'],
  [ip4('127.0.0.0'), 8, 'loopback address'],
  [ip4('169.254.0.0'), 16, 'link-local address'],
  [ip4('172.16.0.0'), 12, 'private address'],
  [ip4('192.0.0.0'), 24, 'reserved address'],
  [ip4('192.0.2.0'), 24, 'documentation address'],
  [ip4('192.88.99.0'), 24, 'reserved address'],
  [ip4('192.168.0.0'), 16, 'private address'],
  [ip4('198.18.0.0'), 15, 'benchmarking address'],
  [ip4('198.51.100.0'), 24, 'documentation address'],
  [ip4('203.0.113.0'), 24, 'documentation address'],
  [ip4('224.0.0.0'), 4, 'multicast address'],
  [ip4('255.255.255.255'), 32, 'broadcast address'],
  [ip4('240.0.0.0'), 4, 'reserved address'],
];

function ip4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inV4(value: number, [base, prefix]: Range): boolean {
  const size = 2 ** (32 - prefix);
  return value >= base && value < base + size;
}

function v4Text(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function classifyV4(n: number): string | null {
  for (const r of V4_RANGES) if (inV4(n, r)) return r[2];
  return null;
}

/** Eight 16-bit groups of an IPv6 address (zone and brackets stripped, trailing dotted quad allowed); null if malformed. */
export function parseIpv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!isIPv6(s)) return null;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // A trailing dotted quad (::ffff:127.0.0.1) stands for the last two groups.
    const v4 = ip4(last);
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

const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

function embedded(form: string, v4: number): string | null {
  const inner = classifyV4(v4);
  return inner ? `the ${form} of ${v4Text(v4)}, ${article(inner)}` : null;
}

function classifyV6(g: number[]): string | null {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const low32 = ((g[6] << 16) | g[7]) >>> 0;
  if (zeroUpTo(8)) return 'an unspecified address';
  if (zeroUpTo(7) && g[7] === 1) return 'a loopback address';
  if (zeroUpTo(5) && g[5] === 0xffff) return embedded('IPv4-mapped form', low32);
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return embedded('IPv4-translated form', low32);
  if (zeroUpTo(6)) return embedded('IPv4-compatible form', low32) ?? 'a reserved address';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded('NAT64 form', low32);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'a local-use NAT64 address';
  if (g[0] === 0x2002) return embedded('6to4 form', ((g[1] << 16) | g[2]) >>> 0);
  if (g[0] === 0x2001 && g[1] === 0) return embedded('Teredo form', ~low32 >>> 0);
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'a documentation address';
  if ((g[0] & 0xfe00) === 0xfc00) return 'a private (unique local) address';
  if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0] & 0xffc0) === 0xfec0) return 'a site-local address';
  if ((g[0] & 0xff00) === 0xff00) return 'a multicast address';
  // Only 2000::/3 is allocated for global unicast; everything else (100::/64 discard, ...) is reserved.
  if ((g[0] & 0xe000) !== 0x2000) return 'a reserved address';
  return null;
}

/**
 * What kind of non-public address this is ("a loopback address", "the IPv4-mapped form of 127.0.0.1, a loopback
 * address"), or null when it is public unicast and may be reached. Anything not a well-formed address is refused too.
 */
export function addressProblem(address: string): string | null {
  if (isIPv4(address)) {
    const kind = classifyV4(ip4(address));
    return kind ? article(kind) : null;
  }
  const groups = parseIpv6(address);
  return groups ? classifyV6(groups) : 'not an IP address';
}
