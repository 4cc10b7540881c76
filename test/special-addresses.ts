/**
 * ipaddr.js's special-use ranges as plain data, an address inside each, and the ways a URL may spell an IPv4
 * address: what the source-policy tests throw at the filter (server/service/addresses.test.ts, test/fuzz-net.test.ts).
 */
import ipaddr from 'ipaddr.js';

export interface SpecialRange {
  /** ipaddr.js's name of the range (`private`, `linkLocal`, `teredo`…). */
  readonly name: string;
  readonly kind: 'ipv4' | 'ipv6';
  readonly network: readonly number[];
  readonly prefix: number;
}

/** Every CIDR of ipaddr.js's special ranges of that kind (a range may have several). */
export function specialRanges(kind: 'ipv4' | 'ipv6'): SpecialRange[] {
  const proto = (kind === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6).prototype as unknown as {
    SpecialRanges: Record<
      string,
      [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][]
    >;
  };
  return Object.entries(proto.SpecialRanges).flatMap(([name, value]) => {
    const list = Array.isArray(value[0])
      ? (value as [ipaddr.IPv4, number][])
      : [value as [ipaddr.IPv4, number]];
    return list.map(([net, prefix]) => ({ name, kind, network: net.toByteArray(), prefix }));
  });
}

/** The address of `range` whose host part is `host` (modulo the range's size), as bytes. */
export function addressIn(range: SpecialRange, host: bigint): number[] {
  const bits = range.network.length * 8;
  const hostBits = BigInt(bits - range.prefix);
  const mask = (1n << hostBits) - 1n;
  let value = range.network.reduce((v, b) => (v << 8n) | BigInt(b), 0n);
  value = (value & ~mask) | (host & mask);
  const out: number[] = [];
  for (let i = 0; i < range.network.length; i++) out.unshift(Number((value >> BigInt(8 * i)) & 0xffn));
  return out;
}

/** An IPv6 address's bytes as a URL host, in one of a few spellings (`full` uncompressed, upper-case, compressed). */
export function ipv6Host(
  bytes: readonly number[],
  style: 'compressed' | 'full' | 'upper' = 'compressed',
): string {
  const ip = new ipaddr.IPv6(Array.from(bytes));
  const text =
    style === 'compressed'
      ? ip.toString()
      : style === 'full'
        ? ip
            .toNormalizedString()
            .split(':')
            .map((part) => part.padStart(4, '0'))
            .join(':')
        : ip.toNormalizedString().toUpperCase();
  return `[${text}]`;
}

const hex16 = (a: number, b: number) => ((a << 8) | b).toString(16);

/**
 * How a URL may spell an IPv4 address, and whether the spelling is one defined for global addresses only (the
 * IPv4-compatible, translated, NAT64 and 6to4 forms: a private address there is refused even under `lan`).
 */
export const ipv4Spellings: readonly {
  readonly name: string;
  readonly globalOnly: boolean;
  readonly host: (b: readonly number[]) => string;
}[] = [
  { name: 'dotted', globalOnly: false, host: (b) => b.join('.') },
  { name: 'trailing dot', globalOnly: false, host: (b) => `${b.join('.')}.` },
  {
    name: 'one number',
    globalOnly: false,
    host: (b) => String(b.reduce((v, x) => v * 256 + x, 0)),
  },
  {
    name: 'hex number',
    globalOnly: false,
    host: (b) => `0x${b.reduce((v, x) => v * 256 + x, 0).toString(16)}`,
  },
  { name: 'octal parts', globalOnly: false, host: (b) => b.map((x) => `0${x.toString(8)}`).join('.') },
  { name: 'hex parts', globalOnly: false, host: (b) => b.map((x) => `0x${x.toString(16)}`).join('.') },
  { name: 'three parts', globalOnly: false, host: (b) => `${b[0]}.${b[1]}.${b[2]! * 256 + b[3]!}` },
  {
    name: 'two parts',
    globalOnly: false,
    host: (b) => `${b[0]}.${b[1]! * 65536 + b[2]! * 256 + b[3]!}`,
  },
  {
    name: 'full-width digits',
    globalOnly: false,
    host: (b) => b.join('.').replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))),
  },
  {
    name: 'percent-encoded',
    globalOnly: false,
    host: (b) => [...b.join('.')].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
  },
  { name: 'IPv4-mapped', globalOnly: false, host: (b) => `[::ffff:${b.join('.')}]` },
  {
    name: 'IPv4-mapped hex',
    globalOnly: false,
    host: (b) => `[::FFFF:${hex16(b[0]!, b[1]!)}:${hex16(b[2]!, b[3]!)}]`,
  },
  { name: 'IPv4-mapped full', globalOnly: false, host: (b) => `[0:0:0:0:0:ffff:${b.join('.')}]` },
  { name: 'IPv4-compatible', globalOnly: true, host: (b) => `[::${b.join('.')}]` },
  {
    name: 'IPv4-compatible hex',
    globalOnly: true,
    host: (b) => `[::${hex16(b[0]!, b[1]!)}:${hex16(b[2]!, b[3]!)}]`,
  },
  { name: 'IPv4-translated', globalOnly: true, host: (b) => `[::ffff:0:${b.join('.')}]` },
  { name: 'NAT64', globalOnly: true, host: (b) => `[64:ff9b::${b.join('.')}]` },
  {
    name: 'NAT64 hex',
    globalOnly: true,
    host: (b) => `[64:ff9b::${hex16(b[0]!, b[1]!)}:${hex16(b[2]!, b[3]!)}]`,
  },
  { name: '6to4', globalOnly: true, host: (b) => `[2002:${hex16(b[0]!, b[1]!)}:${hex16(b[2]!, b[3]!)}::1]` },
];

/** Cloud metadata services, by address and by name: refused under every policy but `any`. */
export const metadataHosts = [
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '[fd00:ec2::254]',
  '[::ffff:100.100.100.200]',
  '[fd00:ec2:0:0:0:0:0:254]',
  'metadata.google.internal',
  'METADATA.Google.Internal.',
  'metadata.goog',
  'metadata',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
];
