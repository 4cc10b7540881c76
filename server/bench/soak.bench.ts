/**
 * `npm run bench:soak`: the service under load from loopback, bounded in count and time (about a minute). The
 * server runs in a process of its own and reports its memory and event-loop delay (perf_hooks); this process
 * plays the scorekeeper, a thousand viewers, viewers that never read, a camera flood, huge messages and broken
 * WebSocket frames, and prints what each phase cost:
 *   RSS stays under 400 MB with the model loaded and 1,000 viewers; 0 crashes; event-loop delay p99 < 50 ms;
 *   commit reply p99 < 50 ms and viewer update p99 < 100 ms at 1,000 viewers.
 * Latencies are measured here, so they include this process's own work of receiving 1,000 sockets' messages.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Socket, connect as tcpConnect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { NODE_FLAGS } from '../cli/node-flags.ts';

const VIEWERS = 1000;
const SLOW_VIEWERS = 200;
const FLOOD_SECONDS = 15;
const COMMITS = 40;

interface Stats {
  rssMb: number;
  heapMb: number;
  delay: { p50: number; p99: number; max: number };
  loaded: number;
}

const frame = (i: number) => readFileSync(new URL(`../../fixtures/demo_game/${i}.jpg`, import.meta.url));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');

const child: ChildProcess = fork(fileURLToPath(new URL('./soak-server.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx', '--expose-gc', ...NODE_FLAGS],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
let crashed = false;
child.on('exit', (code, signal) => {
  if (!stopping) {
    crashed = true;
    console.error(`THE SERVER EXITED (code ${code}, signal ${signal})`);
  }
});
let stopping = false;
const port = await new Promise<number>((resolve) =>
  child.on('message', (m: { type: string; port: number }) => m.type === 'ready' && resolve(m.port)),
);
const base = `http://127.0.0.1:${port}`;
const stats = () =>
  new Promise<Stats>((resolve) => {
    const on = (m: Stats & { type: string }) => {
      if (m.type !== 'stats') return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send({ type: 'stats' });
  });

const rows: { phase: string; stats: Stats; note: string }[] = [];
const record = async (phase: string, note = '') => {
  const s = await stats();
  rows.push({ phase, stats: s, note });
  console.log(
    `${phase.padEnd(44)} RSS ${String(s.rssMb).padStart(4)} MB  loop delay p50 ${fmt(s.delay.p50)} p99 ${fmt(s.delay.p99)} max ${fmt(s.delay.max)} ms  ${note}`,
  );
  return s;
};

async function health(): Promise<boolean> {
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) });
    return res.ok;
  } catch {
    return false;
  }
}

// --- a game, its first moves read by the camera (the model is loaded) ---
await record('started');
const created = (await (
  await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players: ['Ann', 'Ben'] }),
  })
).json()) as { id: string; token: string };
const { id, token } = created;
const auth = { authorization: `Bearer ${token}` };
const postFrame = (bytes: Uint8Array, endTurn: boolean) =>
  fetch(`${base}/api/games/${id}/frames${endTurn ? '?endTurn=1' : ''}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'image/jpeg' },
    body: bytes as unknown as BodyInit,
  });
for (const i of [1, 2, 3]) {
  await postFrame(frame(i), false);
  await postFrame(frame(i), true);
}
let version = (
  (await (await fetch(`${base}/api/games/${id}`)).json()) as {
    version: number;
  }
).version;
const baseline = await record('model loaded, 3 moves read', `version ${version}`);

// --- a thousand viewers ---
const arrivals = new Map<number, number[]>();
const viewers: WebSocket[] = [];
let ready = 0;
for (let i = 0; i < VIEWERS; i++) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?game=${id}`);
  ws.on('message', (data) => {
    const text = data.toString();
    if (!text.startsWith('{"type":"snapshot"')) return;
    const v = Number(/"version":(\d+)/.exec(text)?.[1]);
    if (!arrivals.has(v)) arrivals.set(v, []);
    arrivals.get(v)!.push(performance.now());
    if (v === version) ready++;
  });
  ws.on('error', () => {});
  viewers.push(ws);
  if (i % 100 === 99) await pause(50);
}
for (let t = 0; t < 100 && ready < VIEWERS; t++) await pause(100);
await record(`${VIEWERS} viewers connected`, `${ready} got the snapshot`);

// --- commits with a thousand viewers ---
const replies: number[] = [];
const updates: number[] = [];
for (let i = 0; i < COMMITS; i++) {
  const action = i % 2 === 0 ? { type: 'pass' } : { type: 'undo' };
  const t0 = performance.now();
  const res = await fetch(`${base}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ ...action, version }),
  });
  replies.push(performance.now() - t0);
  const body = (await res.json()) as { snapshot: { version: number } };
  version = body.snapshot.version;
  for (let t = 0; t < 200 && (arrivals.get(version)?.length ?? 0) < VIEWERS; t++) await pause(5);
  for (const at of arrivals.get(version) ?? []) updates.push(at - t0);
  await pause(50);
}
const commitStats = await record(
  `${COMMITS} commits, ${VIEWERS} viewers`,
  `reply p50 ${fmt(pct(replies, 50))} p99 ${fmt(pct(replies, 99))} ms; viewer update p50 ${fmt(pct(updates, 50))} p99 ${fmt(pct(updates, 99))} ms (${updates.length} of ${COMMITS * VIEWERS})`,
);

// --- viewers that never read, a camera flood over HTTP and WebSocket, commits going on ---
/** A WebSocket opened by hand: the handshake, then whatever the caller writes; reading is up to the caller. */
function rawSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect(port, '127.0.0.1', () => {
      s.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      s.once('data', () => resolve(s));
    });
    s.on('error', reject);
  });
}
const slow: Socket[] = [];
for (let i = 0; i < SLOW_VIEWERS; i++) {
  const s = await rawSocket(`/ws?game=${id}`);
  s.pause(); // never reads again
  slow.push(s);
}
const cameras = Array.from({ length: 5 }, () => new WebSocket(`ws://127.0.0.1:${port}/ws?game=${id}`));
for (const c of cameras) c.on('error', () => {});
// The scorekeeper's page, which watches the camera pictures.
const scorekeeper = new WebSocket(`ws://127.0.0.1:${port}/ws?game=${id}`);
let thumbnails = 0;
scorekeeper.on('open', () => scorekeeper.send(JSON.stringify({ type: 'camera-view', data: { token } })));
scorekeeper.on('message', (d) => {
  if (d.toString().startsWith('{"type":"thumbnail"')) thumbnails++;
});
await pause(500);
const jpegs = [1, 2, 3].map((i) => frame(i).toString('base64'));
let accepted = 0;
let limited = 0;
const floodUntil = Date.now() + FLOOD_SECONDS * 1000;
let n = 0;
while (Date.now() < floodUntil) {
  n++;
  // Twelve HTTP frames a second (over the limit of 8), a WebSocket frame from each of five cameras.
  void postFrame(frame(1 + (n % 3)), false).then((r) => {
    if (r.status === 200) accepted++;
    else if (r.status === 429) limited++;
    return r.body?.cancel();
  });
  for (const c of cameras)
    if (c.readyState === c.OPEN)
      c.send(JSON.stringify({ type: 'frame', data: { token, jpeg: jpegs[n % 3], camera: 0 } }));
  if (n % 6 === 0) {
    const action = n % 12 === 0 ? { type: 'pass' } : { type: 'undo' };
    await fetch(`${base}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(action),
    }).then((r) => r.body?.cancel());
  }
  await pause(1000 / 12);
}
await pause(1500);
const floodStats = await record(
  `flood ${FLOOD_SECONDS} s, +${SLOW_VIEWERS} never reading`,
  `HTTP frames ${accepted} answered, ${limited} refused (429); ${thumbnails} camera pictures to the scorekeeper; health ${(await health()) ? 'ok' : 'FAILED'}`,
);

// --- huge messages ---
const big = async (bytes: number, flat: boolean) => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?game=${id}`);
  ws.on('error', () => {});
  await new Promise((r) => ws.once('open', r));
  const text = flat
    ? JSON.stringify({ type: 'frame', data: { token: 'wrong', jpeg: 'A'.repeat(bytes - 60) } })
    : '['.repeat(bytes);
  const t0 = performance.now();
  ws.send(text);
  await new Promise((r) => {
    ws.once('message', r);
    ws.once('close', r);
    setTimeout(r, 10_000);
  });
  ws.terminate();
  return performance.now() - t0;
};
const bigTimes: number[] = [];
for (let i = 0; i < 20; i++) bigTimes.push(await big(8 * 1024 * 1024 - 64, false));
for (let i = 0; i < 5; i++) bigTimes.push(await big(9 * 1024 * 1024, false));
for (let i = 0; i < 5; i++) bigTimes.push(await big(6 * 1024 * 1024, true));
const bigStats = await record(
  '30 messages of 6–9 MiB',
  `answered in p50 ${fmt(pct(bigTimes, 50))} max ${fmt(Math.max(...bigTimes))} ms`,
);

// --- WebSocket protocol faults, each on a connection of its own ---
const frameBytes = (first: number, second: number, payload: Buffer, extra = Buffer.alloc(0)) =>
  Buffer.concat([Buffer.from([first, second]), extra, payload]);
const masked = (opcode: number, payload: Buffer, fin = true, rsv = 0) => {
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  if (payload.length > 125) {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(payload.length);
    return frameBytes((fin ? 0x80 : 0) | rsv | opcode, 0x80 | 126, body, Buffer.concat([len, mask]));
  }
  return frameBytes((fin ? 0x80 : 0) | rsv | opcode, 0x80 | payload.length, body, mask);
};
const faults: Buffer[] = [
  masked(1, Buffer.from([0xff, 0xfe, 0xfd])), // invalid UTF-8
  frameBytes(0x81, 5, Buffer.from('hello')), // unmasked
  masked(3, Buffer.from('x')), // reserved opcode
  masked(0xb, Buffer.from('x')), // reserved control opcode
  masked(1, Buffer.from('x'), true, 0x40), // RSV1 without compression
  masked(0, Buffer.from('x')), // continuation with no start
  masked(9, Buffer.alloc(200)), // a 200-byte ping
  masked(9, Buffer.from('x'), false), // a fragmented ping
  masked(8, Buffer.from([0x03, 0xe7])), // close code 999
  Buffer.concat([Buffer.from([0x81, 0xff]), Buffer.from([0, 0, 0, 0, 0x10, 0, 0, 0]), randomBytes(4)]), // 256 MiB
];
for (const fault of faults) {
  const s = await rawSocket(`/ws?game=${id}`);
  s.on('error', () => {});
  s.write(fault);
  await pause(100);
  s.destroy();
}
await pause(300);
const alive = !crashed && (await health());
await record('10 WebSocket protocol faults', alive ? 'server alive, health ok' : 'SERVER DOWN');

// --- the end ---
for (const v of viewers) v.terminate();
for (const c of cameras) c.terminate();
scorekeeper.terminate();
for (const s of slow) s.destroy();
await pause(1500);
await record('everyone gone');

const peak = Math.max(...rows.map((r) => r.stats.rssMb));
const delays = [commitStats, floodStats, bigStats].map((s) => s.delay.p99);
console.log(`\nsummary (targets in brackets; the server: node ${process.version} ${NODE_FLAGS.join(' ')})`);
console.log(`  crashes: ${crashed ? 1 : 0} [0]`);
console.log(`  RSS: ${baseline.rssMb} MB with the model loaded, peak ${peak} MB [< 400]`);
console.log(`  event-loop delay p99 under load: ${delays.map(fmt).join(' / ')} ms [< 50]`);
console.log(`  commit reply p99 at ${VIEWERS} viewers: ${fmt(pct(replies, 99))} ms [< 50]`);
console.log(`  viewer update p99 at ${VIEWERS} viewers: ${fmt(pct(updates, 99))} ms [< 100]`);
stopping = true;
child.send({ type: 'stop' });
await new Promise((r) => child.once('exit', r));
process.exit(crashed ? 1 : 0);
