/**
 * WebSocket at the byte level, for the fuzz tests: an upgrade handshake written by hand over node:net, and frames
 * built bit by bit (any FIN/RSV bits, any opcode, masked or not, a declared length that may lie), so a test can send
 * what no well-behaved client library would.
 */
import { connect, type Socket } from 'node:net';

export interface RawFrame {
  fin: boolean;
  /** RSV1–3 as a number 0–7 (4 is RSV1, the compression bit). */
  rsv: number;
  /** 0–15: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong; the rest are reserved. */
  opcode: number;
  /** The 4-byte masking key, or null for an unmasked frame (which a client must never send). */
  mask: Uint8Array | null;
  payload: Uint8Array;
  /** The payload length written in the header; by default the payload's own (it may lie). */
  declared?: bigint;
  /** How the length is written: 7 bits, 16 bits (126) or 64 bits (127); by default the shortest that fits. */
  form?: 7 | 16 | 64;
}

const U64 = (1n << 64n) - 1n;

export function encodeFrame(f: RawFrame): Buffer {
  const length = f.declared ?? BigInt(f.payload.length);
  const form = f.form ?? (length < 126n ? 7 : length < 65536n ? 16 : 64);
  const maskBit = f.mask ? 0x80 : 0;
  const first = Buffer.from([(f.fin ? 0x80 : 0) | ((f.rsv & 7) << 4) | (f.opcode & 0xf)]);
  let size: Buffer;
  if (form === 7) size = Buffer.from([maskBit | Number(length % 126n)]);
  else if (form === 16) {
    size = Buffer.alloc(3);
    size[0] = maskBit | 126;
    size.writeUInt16BE(Number(length & 0xffffn), 1);
  } else {
    size = Buffer.alloc(9);
    size[0] = maskBit | 127;
    size.writeBigUInt64BE(length & U64, 1);
  }
  const payload = Buffer.from(f.payload);
  if (f.mask) for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ f.mask[i % 4]!;
  return Buffer.concat([first, size, f.mask ? Buffer.from(f.mask.subarray(0, 4)) : Buffer.alloc(0), payload]);
}

/** A masked frame with FIN set, as a correct client sends it. */
export function clientFrame(
  opcode: number,
  payload: Uint8Array | string,
  extra: Partial<RawFrame> = {},
): Buffer {
  return encodeFrame({
    fin: true,
    rsv: 0,
    opcode,
    mask: Uint8Array.from([0x37, 0xfa, 0x21, 0x3d]),
    payload: typeof payload === 'string' ? Buffer.from(payload) : payload,
    ...extra,
  });
}

/** A close frame's payload: the code (any 16-bit value) and a reason. */
export function closePayload(code: number, reason: Uint8Array | string = ''): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16BE(code & 0xffff);
  return Buffer.concat([head, typeof reason === 'string' ? Buffer.from(reason) : reason]);
}

export const GOOD_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/**
 * An upgrade request for `target`: the standard headers, each replaced by `headers` (a value) or left out (null).
 * Header values are written as they are: the caller may send anything.
 */
export function upgradeRequest(target: string, headers: Record<string, string | null> = {}): Buffer {
  const all: Record<string, string | null> = {
    Host: '127.0.0.1',
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': GOOD_KEY,
    'Sec-WebSocket-Version': '13',
    ...headers,
  };
  const lines = Object.entries(all)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}: ${v}`);
  return Buffer.from(`GET ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

export interface Handshake {
  socket: Socket;
  /** The response's status code; 0 when the server closed or reset the connection without one. */
  status: number;
  /** The response head as text (or what came before the connection closed). */
  head: string;
  /** What the server sent after the head (its first frames). */
  rest: Buffer;
  /** The connection has ended (closed, reset). */
  closed: boolean;
  error?: string;
}

/**
 * Connects to 127.0.0.1:`port`, writes `request` (and `early` right behind it, in the same write), and waits for
 * the response head. Rejects only when nothing happens within `timeoutMs`: the server stalled.
 */
export function handshake(
  port: number,
  request: Buffer,
  early: Buffer = Buffer.alloc(0),
  timeoutMs = 5000,
): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let closed = false;
    let error: string | undefined;
    let done = false;
    const finish = (result: Omit<Handshake, 'socket' | 'closed'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('data', onData);
      resolve({ socket, closed, ...result, ...(error ? { error } : {}) });
    };
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      socket.destroy();
      reject(
        new Error(`no answer to the upgrade request within ${timeoutMs} ms (got ${received.length} bytes)`),
      );
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      finish({ status, head, rest: received.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.on('error', (err) => {
      error = (err as NodeJS.ErrnoException).code ?? err.message;
    });
    socket.on('close', () => {
      closed = true;
      const head = received.toString('latin1');
      finish({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, rest: Buffer.alloc(0) });
    });
    socket.write(Buffer.concat([request, early]));
  });
}

export interface Settled {
  /** The server ended the connection (after a protocol error, say) within the wait. */
  closedByServer: boolean;
  /** What the server sent after the bytes were written. */
  received: Buffer;
  error?: string;
}

/**
 * Writes `chunks` one write each on an upgraded socket, waits until the server closes it, `waitMs` pass or what
 * came back is `enough`, then destroys it from this side.
 */
export function sendAndSettle(
  socket: Socket,
  chunks: Buffer[],
  waitMs: number,
  enough: (received: Buffer) => boolean = () => false,
): Promise<Settled> {
  return new Promise((resolve) => {
    const got: Buffer[] = [];
    let error: string | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners('close');
      socket.destroy();
      resolve({ closedByServer, received: Buffer.concat(got), ...(error ? { error } : {}) });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d: Buffer) => {
      got.push(d);
      if (enough(Buffer.concat(got))) finish(false);
    });
    socket.on('error', (err) => {
      error = (err as NodeJS.ErrnoException).code ?? err.message;
    });
    if (socket.destroyed) return finish(true);
    socket.once('close', () => finish(true));
    for (const chunk of chunks) if (!socket.destroyed) socket.write(chunk, () => {});
  });
}

/** The server's frames in `bytes`, described briefly ("text (812 bytes)", "pong (2 bytes)", "close 1002"). */
export function describeFrames(bytes: Buffer): string[] {
  const out: string[] = [];
  let at = 0;
  while (at + 2 <= bytes.length && out.length < 8) {
    const opcode = bytes[at]! & 0xf;
    let length = bytes[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (start + 2 > bytes.length) break;
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    const payload = bytes.subarray(start, start + length);
    const name = { 1: 'text', 2: 'binary', 8: 'close', 9: 'ping', 10: 'pong' }[opcode] ?? `opcode ${opcode}`;
    out.push(
      opcode === 8 && payload.length >= 2
        ? `close ${payload.readUInt16BE(0)}${payload.length > 2 ? ` ${JSON.stringify(payload.subarray(2).toString())}` : ''}`
        : opcode === 1 && length <= 100
          ? `text ${JSON.stringify(payload.toString())}`
          : `${name} (${length} bytes)`,
    );
    at = start + length;
  }
  return out;
}
