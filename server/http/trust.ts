/**
 * The proxies in front of the instances (a load balancer) whose X-Forwarded-For header names the client, so that the
 * limits per client count clients, not the balancer: a hop count (1–9), or addresses, subnets and Express's names
 * (`loopback`, `linklocal`, `uniquelocal`), comma-separated. Each address is written out in full (four decimal parts
 * for IPv4): Express's parser would also take `0x1` or `10.1` as addresses, never what was meant.
 */
import express from 'express';
import ipaddr from 'ipaddr.js';

const HINT = 'a hop count 1–9, or addresses, subnets, loopback, linklocal, uniquelocal, comma-separated';
const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `value` checked for `trust proxy` (a number, or a string as `--trust-proxy` takes it); throws with a clear message. */
export function trustProxyOf(value: number | string): number | string {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 1 && value <= 9) return value;
    throw new Error(`--trust-proxy must be ${HINT}; got ${value}`);
  }
  const v = value.trim();
  if (/^[1-9]$/.test(v)) return Number(v);
  const bad = v === '' ? '' : v.split(',').find((item) => !proxyItem(item.trim()));
  if (bad !== undefined)
    throw new Error(
      `--trust-proxy must be ${HINT}; got '${value}'${bad && bad !== value ? ` ('${bad.trim()}' is none of them)` : ''}`,
    );
  try {
    // Express's own parser (proxy-addr), the one that will read the header.
    express().set('trust proxy', v);
  } catch (err) {
    throw new Error(`--trust-proxy: ${(err as Error).message} (${HINT})`);
  }
  return v;
}

/** A name, an address, or a subnet (address/prefix, or an IPv4 address/netmask), written out in full. */
function proxyItem(item: string): boolean {
  if (NAMES.has(item)) return true;
  const [address = '', bits, ...more] = item.split('/');
  if (more.length > 0) return false;
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!v4 && !ipv6InFull(address)) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return v4 && ipaddr.IPv4.isValidFourPartDecimal(bits);
  const prefix = Number(bits);
  if (v4) return prefix <= 32;
  // An IPv4-mapped subnet (::ffff:10.0.0.0/104) is matched against IPv4 clients only from 96 bits up: a shorter
  // prefix would name no client at all.
  const mapped = (ipaddr.IPv6.parse(address) as ipaddr.IPv6).isIPv4MappedAddress();
  return prefix <= 128 && (!mapped || prefix >= 96);
}

/** An IPv6 address, without a zone (`%eth0`, which proxy-addr would drop), an IPv4 one inside it in full. */
function ipv6InFull(address: string): boolean {
  if (!address.includes(':') || address.includes('%') || !ipaddr.IPv6.isValid(address)) return false;
  const tail = address.slice(address.lastIndexOf(':') + 1);
  return !tail.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(tail);
}
