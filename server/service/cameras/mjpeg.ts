/**
 * Frames from an MJPEG stream (`multipart/x-mixed-replace`, what phone "IP camera" apps serve): the server pulls
 * the URL and yields each JPEG part. The URL comes from a scorekeeper, so the pull is fenced in: http(s) only;
 * every address the host resolves to (and an address written in the URL) must be one the source policy allows
 * (addresses.ts), checked on the very connection made (no second lookup to rebind); a redirect may not leave the host; a stream
 * that sends nothing for `timeoutMs` is dropped; one frame may not grow past `maxFrame` bytes.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { SourcePolicy } from '../limits.ts';
import { addressAllowed, nameAllowed } from './addresses.ts';

/** A camera stream that cannot be pulled or stopped working: the message is for the scorekeeper. */
export class SourceError extends Error {
  override name = 'SourceError';
}

export interface PullOptions {
  readonly policy: SourcePolicy;
  /** Nothing received for this long (connecting included): the stream is dropped. */
  readonly timeoutMs: number;
  /** Largest single frame, in bytes. */
  readonly maxFrame?: number;
}

const MAX_FRAME = 10 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** A stream gets this many timeouts' time to send each whole frame. */
const FRAME_WAITS = 3;

/** Checks a camera URL before anything is fetched; throws a SourceError saying what is wrong with it. */
export function checkSourceUrl(text: string, policy: SourcePolicy): URL {
  if (policy === 'none') throw new SourceError('this server pulls no camera streams (--sources none)');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SourceError('the camera URL is not a valid address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceError('the camera URL must be http:// or https://');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) ? !addressAllowed(host, policy) : !nameAllowed(host, policy))
    throw new SourceError(refusal(host, policy));
  return url;
}

function refusal(address: string, policy: SourcePolicy): string {
  return `the camera URL reaches ${address}, which this server's source policy (${policy}) does not allow`;
}

/** A DNS lookup that refuses the name if any address it resolves to is one the policy does not allow, and gives
 *  the connection only the addresses judged: used by the connection itself (`resolve`: node's, but in tests). */
export function checkedLookup(policy: SourcePolicy, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    if (!nameAllowed(hostname, policy)) return callback(new SourceError(refusal(hostname, policy)), '', 0);
    resolve(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err || addresses.length === 0)
        return callback(err ?? new SourceError("the camera's name has no address"), '', 0);
      const refused = addresses.find((a) => !addressAllowed(a.address, policy));
      if (refused) return callback(new SourceError(refusal(refused.address, policy)), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function open(url: URL, signal: AbortSignal, options: PullOptions, redirects = 0): Promise<IncomingMessage> {
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    const req = request(
      url,
      {
        signal,
        lookup: checkedLookup(options.policy),
        timeout: options.timeoutMs,
        headers: { accept: 'multipart/x-mixed-replace, */*' },
      },
      (res) => {
        response = res;
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          let next: URL;
          try {
            next = new URL(res.headers.location, url);
          } catch {
            return reject(new SourceError('the camera redirected to an invalid address'));
          }
          if (next.protocol !== url.protocol || next.host !== url.host)
            return reject(new SourceError(`the camera redirected to another host (${next.host})`));
          if (redirects >= MAX_REDIRECTS)
            return reject(new SourceError('the camera redirected too many times'));
          return resolve(open(next, signal, options, redirects + 1));
        }
        resolve(res);
      },
    );
    req.on('timeout', () => {
      const silent = new SourceError(`the camera sent nothing for ${seconds} s`);
      // Once the headers are in, the stream being read is the response's: it must fail with the reason too.
      response?.destroy(silent);
      req.destroy(silent);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Pulls `url` and yields each JPEG frame of its MJPEG stream until the stream ends, fails or `signal` aborts. */
export async function* mjpegFrames(
  url: string,
  signal: AbortSignal,
  options: PullOptions,
): AsyncGenerator<Buffer> {
  const res = await open(checkSourceUrl(url, options.policy), signal, options);
  try {
    if ((res.statusCode ?? 0) !== 200) throw new SourceError(`the stream answered HTTP ${res.statusCode}`);
    const type = res.headers['content-type'] ?? '';
    const m = /boundary="?([^";]+)"?/i.exec(type);
    if (!/multipart\/x-mixed-replace/i.test(type) || !m)
      throw new SourceError(`not an MJPEG stream (content-type ${type || 'missing'})`);
    const parts = new PartSplitter(
      Buffer.from(`--${m[1]!.replace(/^--/, '')}`),
      options.maxFrame ?? MAX_FRAME,
    );
    // A stream that trickles bytes but no whole frame would hold its place for ever: it has FRAME_WAITS timeouts.
    let lastFrame = Date.now();
    for await (const chunk of res as AsyncIterable<Buffer>) {
      for (const part of parts.push(chunk)) {
        const headersEnd = part.indexOf('\r\n\r\n');
        if (headersEnd < 0) continue;
        let body = part.subarray(headersEnd + 4);
        if (body.subarray(-2).toString() === '\r\n') body = body.subarray(0, -2);
        if (body.length > 0 && body[0] === 0xff && body[1] === 0xd8) {
          lastFrame = Date.now();
          yield body;
        }
      }
      if (Date.now() - lastFrame > FRAME_WAITS * options.timeoutMs)
        throw new SourceError(
          `the camera sent no whole frame for ${Math.round((FRAME_WAITS * options.timeoutMs) / 1000)} s`,
        );
    }
  } finally {
    res.destroy();
  }
}

/**
 * Cuts a byte stream at a boundary: one buffer that grows by doubling up to a cap, searched only where it has not
 * been searched yet, so a part costs time in proportion to its size.
 */
export class PartSplitter {
  private buffer = Buffer.alloc(64 * 1024);
  private end = 0;
  /** Where the search for the boundary that ends the current part goes on from. */
  private scanned = 0;

  constructor(
    private readonly boundary: Buffer,
    private readonly maxPart: number,
  ) {}

  *push(chunk: Uint8Array): Generator<Buffer> {
    this.append(chunk);
    const b = this.boundary.length;
    for (;;) {
      const data = this.buffer.subarray(0, this.end);
      const start = data.indexOf(this.boundary);
      if (start < 0) {
        // Nothing but bytes before a first boundary: keep only what could be the start of one.
        this.shift(Math.max(0, this.end - b + 1));
        break;
      }
      if (start > 0) this.shift(start);
      const next = this.buffer.subarray(0, this.end).indexOf(this.boundary, Math.max(b, this.scanned));
      if (next < 0) {
        this.scanned = Math.max(b, this.end - b + 1);
        break;
      }
      const part = Buffer.from(this.buffer.subarray(b, next));
      this.shift(next);
      yield part;
    }
    if (this.end > this.maxPart + 2 * b)
      throw new SourceError(`a frame of the stream is over ${Math.round(this.maxPart / 1024 / 1024)} MB`);
  }

  private append(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buffer.length) {
      const size = Math.max(this.buffer.length * 2, this.end + chunk.length);
      const grown = Buffer.alloc(size);
      this.buffer.copy(grown, 0, 0, this.end);
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** Drops the first `n` bytes. */
  private shift(n: number): void {
    if (n <= 0) return;
    this.buffer.copyWithin(0, n, this.end);
    this.end -= n;
    this.scanned = 0;
  }
}
