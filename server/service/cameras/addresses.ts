/**
 * Where a camera stream may be pulled from under each source policy (`--sources`). An address is judged by where a
 * connection to it goes: an IPv6 spelling of an IPv4 address (mapped, compatible, translated, NAT64, 6to4) as that
 * IPv4 address. Cloud metadata services (by name and address) and this machine's own addresses are refused under
 * every policy but `any`. Pure but for reading this machine's interfaces; never does a lookup itself.
 */
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { SourcePolicy } from '../limits.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The ipaddr.js ranges each policy allows, once an address is unwrapped; `any` allows all, `none` nothing. */
const allowedRanges: Record<'public' | 'lan', { ipv4: readonly string[]; ipv6: readonly string[] }> = {
  public: { ipv4: ['unicast'], ipv6: ['unicast'] },
  // A camera on the home or club network: private IPv4, carrier-grade NAT (VPN meshes), IPv6 unique-local.
  // Never link-local (169.254.169.254 is a cloud's metadata service) nor loopback (this machine's own services).
  lan: { ipv4: ['unicast', 'private', 'carrierGradeNat'], ipv6: ['unicast', 'uniqueLocal'] },
};

/** IANA's global unicast block: an IPv6 "unicast" address outside it (::/8, say) is reserved, never a camera. */
const globalUnicast = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** IPv6 prefixes whose last 32 bits are an IPv4 address the network delivers to: IPv4-compatible (deprecated,
 *  tunnelled by some stacks) and NAT64's well-known prefix (RFC 6052). Mapped and translated are ipaddr's ranges. */
const lastIsIPv4 = [ipaddr.parseCIDR('::/96'), ipaddr.parseCIDR('64:ff9b::/96')] as [ipaddr.IPv6, number][];

/** Cloud metadata services: AWS, GCP, Azure, OpenStack and most others; AWS ECS tasks; Alibaba; AWS over IPv6. */
const metadataAddresses = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((a) =>
  ipaddr.parse(a).toNormalizedString(),
);

/** Names of metadata services (`metadata.google.internal`, `metadata.goog`, `instance-data.ec2.internal`,
 *  `metadata.tencentyun.com`…): no camera is called so. */
const metadataLabels = new Set(['metadata', 'instance-data']);

/**
 * The address a connection to `ip` reaches, as judged: an IPv4 address carried in IPv6 unwrapped (6to4's is the
 * site's router, where the packets are tunnelled to). `globalOnly`: a form defined for global IPv4 addresses only
 * (all but the mapped one: RFC 4291, 6052, 6145, 3056), so a private address in it is no camera. Teredo and NAT64's
 * local-use prefix are left as they are: where they lead cannot be told from the address (refused as special).
 */
export function reached(ip: Address): { ip: Address; globalOnly: boolean } {
  if (ip.kind() === 'ipv4') return { ip, globalOnly: false };
  const v6 = ip as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  const range = v6.range();
  if (range === 'ipv4Mapped') return { ip: new ipaddr.IPv4(bytes.slice(12, 16)), globalOnly: false };
  if (range === 'rfc6145' || lastIsIPv4.some((cidr) => v6.match(cidr)))
    return { ip: new ipaddr.IPv4(bytes.slice(12, 16)), globalOnly: true };
  if (range === '6to4') return { ip: new ipaddr.IPv4(bytes.slice(2, 6)), globalOnly: true };
  return { ip: v6, globalOnly: false };
}

/** This machine's own addresses (every interface's, unwrapped), as normalised strings. */
export function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? [])
      if (ipaddr.isValid(a.address)) own.add(reached(ipaddr.parse(a.address)).ip.toNormalizedString());
  return own;
}

/**
 * Whether the source policy lets the server connect to `address` (an IPv4 or IPv6 address); `own`, this machine's
 * addresses (read now by default: interfaces come and go).
 */
export function addressAllowed(
  address: string,
  policy: SourcePolicy,
  own: () => ReadonlySet<string> = ownAddresses,
): boolean {
  if (policy === 'none') return false;
  if (policy === 'any') return true;
  if (!ipaddr.isValid(address)) return false;
  const { ip, globalOnly } = reached(ipaddr.parse(address));
  const normal = ip.toNormalizedString();
  if (metadataAddresses.includes(normal) || own().has(normal)) return false;
  const ranges = allowedRanges[globalOnly ? 'public' : policy];
  if (ip.kind() === 'ipv4') return ranges.ipv4.includes(ip.range());
  const range = ip.range();
  if (range === 'unicast') return (ip as ipaddr.IPv6).match(globalUnicast);
  return ranges.ipv6.includes(range);
}

/** Whether the source policy lets a camera URL name host `name` (a DNS name): metadata services are refused by
 *  name under every policy but `any` (their addresses too, by `addressAllowed`, whatever the name). */
export function nameAllowed(name: string, policy: SourcePolicy): boolean {
  if (policy === 'none') return false;
  if (policy === 'any') return true;
  const first = name.toLowerCase().replace(/\.$/, '').split('.')[0] ?? '';
  return !metadataLabels.has(first);
}
