import ipaddr from 'ipaddr.js';

/**
 * What kind of network an IP address belongs to, as far as reaching out to it is concerned.
 * `public` is the only kind Longhaul connects to by default (source URLs, webhook receivers).
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'uniqueLocal'
  | 'carrierGradeNat'
  | 'linkLocal'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'reserved'
  | 'invalid';

/**
 * The kinds `SOURCE_ALLOW_PRIVATE_ADDRESSES` lets through, for tests and local development:
 * this host, RFC 1918 and its IPv6 counterpart, and CGNAT (container and VPN networks).
 * Link-local stays refused even then: it holds the cloud metadata service (169.254.169.254).
 */
export const PRIVATE_ADDRESS_KINDS: ReadonlySet<AddressKind> = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

const IPV4_KINDS: Readonly<Record<string, AddressKind>> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'carrierGradeNat',
  linkLocal: 'linkLocal',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
};

const IPV6_KINDS: Readonly<Record<string, AddressKind>> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'uniqueLocal',
  linkLocal: 'linkLocal',
  // fec0::/10 was the private range before fc00::/7.
  deprecatedSiteLocal: 'uniqueLocal',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

/**
 * Classifies a literal IPv4 or IPv6 address (`10.0.0.1`, `::1`, `fe80::1%eth0`). IPv6 forms that
 * carry an IPv4 address — mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d` and 6to4 `2002:aabb:ccdd::` — are judged by that IPv4 address, since that
 * is where the packets end up (the deprecated `::a.b.c.d` is read that way too: the stricter
 * reading). Every other special range (documentation, benchmarking, Teredo, IPv4-compatible
 * `::7f00:1`, …) is `reserved`. Pure: no DNS, no I/O.
 */
export function classifyAddress(address: string): AddressKind {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'invalid';
  }
  if (parsed.kind() === 'ipv4') return IPV4_KINDS[(parsed as ipaddr.IPv4).range()] ?? 'reserved';
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) return IPV4_KINDS[embedded.range()] ?? 'reserved';
  const range = v6.range();
  // ::/96 other than :: and ::1 is the deprecated IPv4-compatible form: never a real host.
  if (range === 'unicast' && v6.parts.slice(0, 6).every((part) => part === 0)) return 'reserved';
  return IPV6_KINDS[range] ?? 'reserved';
}

/** Options of {@link isAddressAllowed}. */
export interface AddressRules {
  /** Let {@link PRIVATE_ADDRESS_KINDS} through (`SOURCE_ALLOW_PRIVATE_ADDRESSES`, `WEBHOOK_ALLOW_PRIVATE_ADDRESSES`). @defaultValue false */
  allowPrivate?: boolean;
}

/** True when Longhaul may connect to `address` under `rules`. */
export function isAddressAllowed(address: string, rules: AddressRules = {}): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (rules.allowPrivate === true && PRIVATE_ADDRESS_KINDS.has(kind));
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const [p0, p1, p2, p3, p4, p5, p6, p7] = address.parts as [number, number, number, number, number, number, number, number];
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return fromParts(p6, p7);
  // The well-known NAT64 prefix 64:ff9b::/96 (RFC 6052); the local-use /48 is left `reserved`.
  if (range === 'rfc6052' && p0 === 0x64 && p1 === 0xff9b && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0) return fromParts(p6, p7);
  if (range === '6to4') return fromParts(p1, p2);
  return null;
}
