import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  addressIn,
  ipv4Spellings,
  ipv6Host,
  metadataHosts,
  specialRanges,
} from '../../../test/special-addresses.ts';
import type { SourcePolicy } from '../limits.ts';
import { addressAllowed, nameAllowed } from './addresses.ts';
import { checkedLookup, checkSourceUrl, SourceError } from './mjpeg.ts';

const none = () => new Set<string>();
const policies: SourcePolicy[] = ['public', 'lan'];
/** Whether a camera URL with this host passes the check made before anything is fetched. */
const urlPasses = (host: string, policy: SourcePolicy) => {
  try {
    checkSourceUrl(`http://${host}:8080/video`, policy);
    return true;
  } catch (err) {
    expect(err).toBeInstanceOf(SourceError);
    return false;
  }
};
/** A few addresses of each range: its first, one inside, its last. */
const samples = (kind: 'ipv4' | 'ipv6') =>
  specialRanges(kind).flatMap((r) =>
    [1n, 0x1234_5678n, -1n].map((host) => ({ range: r.name, bytes: addressIn(r, host) })),
  );

describe('where a camera stream may be pulled from', () => {
  it('refuses every special-use IPv4 address under public, and all but private and CGN ones under lan', () => {
    for (const { range, bytes } of samples('ipv4')) {
      const address = bytes.join('.');
      expect([address, addressAllowed(address, 'public', none)]).toEqual([address, false]);
      const lan = (range === 'private' || range === 'carrierGradeNat') && address !== '100.100.100.200';
      expect([address, range, addressAllowed(address, 'lan', none)]).toEqual([address, range, lan]);
      expect(addressAllowed(address, 'any', none)).toBe(true);
      expect(addressAllowed(address, 'none', none)).toBe(false);
    }
  });

  it('judges an IPv4 address however a URL spells it, a form for global addresses only refusing a private one', () => {
    for (const { range, bytes } of samples('ipv4'))
      for (const spelling of ipv4Spellings) {
        const host = spelling.host(bytes);
        const lan =
          !spelling.globalOnly &&
          (range === 'private' || range === 'carrierGradeNat') &&
          bytes.join('.') !== '100.100.100.200';
        expect([host, spelling.name, urlPasses(host, 'public')]).toEqual([host, spelling.name, false]);
        expect([host, spelling.name, urlPasses(host, 'lan')]).toEqual([host, spelling.name, lan]);
        expect(urlPasses(host, 'any')).toBe(true);
      }
  });

  it('refuses every special-use IPv6 address under public, and all but unique-local ones under lan', () => {
    for (const { range, bytes } of samples('ipv6')) {
      // An IPv4 address carried in IPv6 is judged as that address (the spellings above).
      if (['ipv4Mapped', 'rfc6145', '6to4'].includes(range) || ipv6Host(bytes).startsWith('[64:ff9b::'))
        continue;
      for (const style of ['compressed', 'full', 'upper'] as const) {
        const host = ipv6Host(bytes, style);
        const address = host.slice(1, -1);
        expect([host, addressAllowed(address, 'public', none)]).toEqual([host, false]);
        expect([host, urlPasses(host, 'public')]).toEqual([host, false]);
        const lan = range === 'uniqueLocal';
        expect([host, range, addressAllowed(address, 'lan', none)]).toEqual([host, range, lan]);
      }
    }
  });

  it('takes public IPv4 and global unicast IPv6, however spelled, and refuses IPv6 outside 2000::/3', () => {
    for (const policy of policies) {
      for (const spelling of ipv4Spellings) expect(urlPasses(spelling.host([8, 8, 4, 4]), policy)).toBe(true);
      expect(addressAllowed('2606:4700:4700::1111', policy, none)).toBe(true);
      expect(addressAllowed('::1:2:3:4', policy, none)).toBe(false);
      expect(addressAllowed('4000::1', policy, none)).toBe(false);
      expect(addressAllowed('2001::8.8.4.4', policy, none)).toBe(false); // Teredo
      expect(addressAllowed('64:ff9b:1::808:404', policy, none)).toBe(false); // NAT64, local-use prefix
    }
    // The deprecated IPv4-compatible spelling of loopback, the gap that let it through.
    expect(urlPasses('[::127.0.0.1]', 'lan')).toBe(false);
    expect(urlPasses('[::127.0.0.1]', 'public')).toBe(false);
  });

  it('refuses cloud metadata services by address and by name under every policy but any', () => {
    for (const host of metadataHosts) {
      for (const policy of policies)
        expect([host, policy, urlPasses(host, policy)]).toEqual([host, policy, false]);
      expect(urlPasses(host, 'any')).toBe(true);
    }
    expect(nameAllowed('metadata.google.internal', 'lan')).toBe(false);
    expect(nameAllowed('camera.metadata.example', 'lan')).toBe(true);
    expect(nameAllowed('phone.local', 'public')).toBe(true);
  });

  it("refuses this machine's own addresses, however spelled, under every policy but any", () => {
    const own = () => new Set(['192.168.1.20', 'fd12:3456:0:0:0:0:0:1', '203.0.114.7']);
    for (const address of [
      '192.168.1.20',
      '::ffff:192.168.1.20',
      'fd12:3456::1',
      '203.0.114.7',
      '2002:cb00:7207::1',
    ])
      for (const policy of policies)
        expect([address, policy, addressAllowed(address, policy, own)]).toEqual([address, policy, false]);
    expect(addressAllowed('192.168.1.21', 'lan', own)).toBe(true);
    expect(addressAllowed('192.168.1.20', 'any', own)).toBe(true);
  });
});

describe('the lookup a camera connection makes', () => {
  const lookup = (policy: SourcePolicy, answer: LookupAddress[], all: boolean) =>
    new Promise<{ err: Error | null; result: unknown }>((done) => {
      const resolve = ((_host: string, _options: object, callback: (e: null, a: LookupAddress[]) => void) =>
        callback(null, answer)) as unknown as Parameters<typeof checkedLookup>[1];
      checkedLookup(policy, resolve)('camera.example', { all }, (err, address, family) =>
        done({ err, result: all ? address : { address, family } }),
      );
    });

  it('refuses a name if any address it resolves to is refused, and connects only to addresses judged', async () => {
    const mixed = [
      { address: '8.8.8.8', family: 4 },
      { address: '::ffff:127.0.0.1', family: 6 },
    ];
    for (const all of [true, false]) {
      const { err } = await lookup('public', mixed, all);
      expect(err).toBeInstanceOf(SourceError);
      expect(err?.message).toMatch(/reaches ::ffff:127\.0\.0\.1.*\(public\)/);
    }
    const good = [
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ];
    expect(await lookup('public', good, true)).toEqual({ err: null, result: good });
    expect(await lookup('public', good, false)).toEqual({
      err: null,
      result: { address: '8.8.8.8', family: 4 },
    });
    expect((await lookup('lan', [{ address: '100.100.100.200', family: 4 }], false)).err).toBeInstanceOf(
      SourceError,
    );
    expect((await lookup('lan', [], false)).err).toBeInstanceOf(SourceError);
  });

  it('refuses a metadata service by name before any lookup', async () => {
    let asked = false;
    const resolve = (() => {
      asked = true;
    }) as unknown as Parameters<typeof checkedLookup>[1];
    const err = await new Promise<Error | null>((done) =>
      checkedLookup('lan', resolve)('metadata.google.internal', {}, (e) => done(e)),
    );
    expect(err).toBeInstanceOf(SourceError);
    expect(asked).toBe(false);
  });
});
