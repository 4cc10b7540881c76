/**
 * `npm run bench:hall`: a tournament hall on this machine, loopback only, every loop bounded in count and time.
 * PostgreSQL and Redis are started here (server/dev/servers.ts: temporary folders, free ports), then five phases with the
 * same load, for comparison:
 *   1. one instance (`tilecam serve` on PostgreSQL, no Redis): the single-process figure;
 *   2. two instances on the same PostgreSQL and Redis; half-way through, one instance is killed (SIGKILL): its
 *      viewers reconnect to the other and get a full snapshot, its cameras send there;
 *   3. two instances started with `--queue` and one `tilecam worker`: the worker reads every frame (work.ts);
 *   4. the same with two workers;
 *   5. the same again; half-way through, one instance and one worker are killed (SIGKILL).
 * HALL_PHASES=1,3 runs only those. HALL_PHASES=workers measures instead what the workers alone can read, one and then
 * two of them: the bench hands frames to the queues itself (as an instance does), every game's next frame as soon as
 * its last is answered, no viewers: on this machine's two cores, what a second worker adds where it has a core.
 * Load: GAMES boards, each a simulated camera sending a frame with End turn (and the version it ends) every FRAME_MS,
 * a held reading confirmed by the scorekeeper, the moves taken back after the last photo and played again (see
 * cameraPhotos), VIEWERS WebSocket viewers spread over the games and over the instances; with HALL_STREAM_MS, each
 * camera also looks that often at the board as it stands and sends it without End turn when the camera page's gate
 * lets it (web/ui/frame-gate.ts; HALL_STREAM_GATE=0: every time), as the camera page does between turns; with
 * HALL_CAMERA_PAGES, a camera page per game watches the frames' grids (or pictures). Printed per phase: frames
 * read per second, frame posted → every viewer of its game updated (p50/p99/max; each camera's first round apart) and
 * → the camera's answer, committed or held (the decision as the camera sees it),
 * moves lost or recorded twice (from the database), viewers reconnected, each process's CPU time (PostgreSQL's and
 * Redis's too) and RSS, and this bench's own event loop delay.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { FrameGate } from '../../web/ui/frame-gate.ts';
import { NODE_FLAGS } from '../cli/node-flags.ts';
import {
  type RunningPostgres,
  type RunningRedis,
  startPostgres,
  startRedis,
  startTilecam,
} from '../dev/servers.ts';
import type { GameSnapshot, ServerMessage } from '../protocol/index.ts';
import { WorkQueue } from '../service/hall/work.ts';
import { gameFolders, readGame } from './live-sheet.ts';

/** A whole number from the environment (`name`), at least `least`; else the bench stops, saying which. */
function setting(name: string, fallback: number, least: number): number {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name} must be a whole number of at least ${least}, not "${raw}"`);
  return value;
}
const GAMES = setting('HALL_GAMES', 32, 1);
const VIEWERS = setting('HALL_VIEWERS', 1000, 0);
/** How often each camera sends a frame (HALL_FRAME_MS: shorter to send more than can be read, for capacity). */
const FRAME_MS = setting('HALL_FRAME_MS', 2000, 1);
/** HALL_STREAM_MS: each camera also looks, this often, at the board as it stands and sends it as a frame that only
 *  feeds the views when the camera page's gate lets it (below), as the page does every second between turns; 0 (the
 *  default): End turns only. */
const STREAM_MS = setting('HALL_STREAM_MS', 0, 0);
/** With HALL_STREAM_MS, the camera page's gate (web/ui/frame-gate.ts): a frame goes when the board changed (here: a
 *  new photo since the last one sent), for the 5 ticks after a change or an End turn, and every 5 s; the bench's
 *  cameras show no hands, so a board changes only when a move is played. HALL_STREAM_GATE=0: every tick, as the
 *  page sent before session 19. */
const STREAM_GATE = setting('HALL_STREAM_GATE', 1, 0) > 0;
/** HALL_CAMERA_PAGES=1: each game's camera page is open too, as on the phone over each board (a WebSocket with the
 *  game's key asking where the grid was found in each frame: `camera-view` with `pictures: false`); =2: asking for
 *  the pictures themselves, as the scorekeeper's page does (each frame is then shrunk into a picture). 0 (the
 *  default): no page watches the cameras. */
const CAMERA_PAGES = setting('HALL_CAMERA_PAGES', 0, 0);
const PHASE_MS = setting('HALL_SECONDS', 40, 1) * 1000;
const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * What the cameras send: by default the real German games in ../shared, game g of the hall showing shared game
 * g mod 7 (a mounted camera over each board), its photos after each play from the game's first one up to its first
 * pass or challenge, at most HALL_MOVES (8); then the scorekeeper takes them all back and the camera plays them
 * again (the first frame after that shows every square of those moves changed at once: the camera checks its grid by
 * the lines and reads those squares again, 41–48 ms alone against 23–25 for the others). HALL_PHOTOS=demo (or no
 * ../shared): the project's rendered demo photos, three moves (each from another angle: every frame is cold).
 */
const shared = join(root, '../shared/realdata/scrabscrap-de');
const real = process.env.HALL_PHOTOS !== 'demo' && existsSync(shared);
const MOVES = setting('HALL_MOVES', 8, 1);
const cameraPhotos: { lang: 'en' | 'de'; name: string; photos: Buffer<ArrayBuffer>[] }[] = real
  ? gameFolders(shared).map((name) => {
      const { moves } = readGame(shared, name);
      const first = moves.findIndex((m) => m.kind === 'play');
      const end = moves.findIndex((m, i) => i > first && m.kind !== 'play');
      const plays = moves.slice(first, end < 0 ? undefined : end).slice(0, MOVES);
      return { lang: 'de' as const, name, photos: plays.map((m) => readFileSync(m.photo!)) };
    })
  : [
      {
        lang: 'en',
        name: 'demo',
        photos: [1, 2, 3].map((n) => readFileSync(join(root, `fixtures/demo_game/${n}.jpg`))),
      },
    ];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An event loop delay sampled every 5 ms (in ns), less the 5 ms. */
const late = (ns: number) => `${Math.max(0, ns / 1e6 - 5).toFixed(0)} ms`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '–');

interface Instance {
  child: ChildProcess;
  base: string;
  port: number;
  alive: boolean;
}

async function serve(db: string, redis?: string, queue = false): Promise<Instance> {
  const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--db', db];
  if (redis) args.push('--redis', redis);
  if (queue) args.push('--queue');
  // Many viewers and cameras from one address: the per-address and per-game limits are raised for the bench.
  args.push('--limit', 'framesPerSecond=50', '--limit', 'gamesPerMinute=1000');
  return start(args);
}

/** A `tilecam worker` on the database and Redis. */
function worker(db: string, redis: string): Promise<Instance> {
  return start(['worker', '--db', db, '--redis', redis]);
}

async function start(args: string[]): Promise<Instance> {
  const { child, ready } = startTilecam(args);
  const { port = 0 } = (await ready) as { port?: number };
  const instance = { child, base: `http://127.0.0.1:${port}`, port, alive: true };
  child.once('exit', () => {
    instance.alive = false;
  });
  return instance;
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU seconds of a server and its processes (PostgreSQL's connections are its main process's children): each one's
 * own time and its finished children's, which the kernel adds to their parent once it has waited for them.
 */
function treeCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const times = (stat: string) => {
    const f = stat.split(') ')[1]!.split(' ');
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100 };
  };
  try {
    let total = times(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpu;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
      try {
        const t = times(readFileSync(`/proc/${entry}/stat`, 'utf8'));
        if (t.ppid === pid) total += t.cpu;
      } catch {
        // Gone meanwhile.
      }
    }
    return total;
  } catch {
    return Number.NaN;
  }
}

function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return Number.NaN;
  }
}

interface Game {
  id: string;
  token: string;
  /** The version each viewer has seen, the frames' post times waiting for viewers. */
  version: number;
  viewers: Viewer[];
  /** Frames answered `committed` (moves that must be in the database once each). */
  committed: number;
  /** What its camera sends, move by move, and where the photos come from. */
  photos: Buffer<ArrayBuffer>[];
  source: string;
  step: number;
  /** Its camera page's gate, and the photo it last sent. */
  gate: FrameGate;
  sent: Buffer | undefined;
}

interface Viewer {
  game: Game;
  ws: WebSocket | undefined;
  at: Instance;
  version: number;
  reconnects: number;
  fullAfterReconnect: number;
}

async function phase(
  name: string,
  instances: Instance[],
  workers: Instance[],
  killHalfway: boolean,
  url: string,
) {
  const live = () => instances.filter((i) => i.alive);
  const pick = (k: number) => live()[k % live().length]!;
  const event = `bench-${name}-${Date.now()}`;
  const games: Game[] = [];
  for (let g = 0; g < GAMES; g++) {
    const { lang, photos, name: source } = cameraPhotos[g % cameraPhotos.length]!;
    const res = await fetch(`${pick(g).base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'], event, lang }),
    });
    const { id, token } = (await res.json()) as { id: string; token: string };
    games.push({
      id,
      token,
      version: 0,
      viewers: [],
      committed: 0,
      step: 0,
      photos,
      source,
      gate: new FrameGate(),
      sent: undefined,
    });
  }
  const latencies: number[] = [];
  /** The same updates by the frame they follow: the first after the moves were taken back (the board then differs
   *  from the camera's last frame in every square played), a move held for the scorekeeper's click (its viewers
   *  wait for the click too), the others. */
  const byKind = { first: [] as number[], held: [] as number[], other: [] as number[] };
  /** Frame posted → the camera's answer, committed or held (the decision as the camera sees it), by the same kinds. */
  const answered = { first: [] as number[], held: [] as number[], other: [] as number[] };
  /** Per game, the post time of the frame whose commit the viewers are waiting for, by version. */
  const waiting = new Map<
    string,
    { version: number; t0: number; left: Set<Viewer>; warm: boolean; kind: keyof typeof byKind }
  >();
  /** The first frames of each camera (its first round of moves: the board searched for the first time, the model
   *  and the code warming up) are measured apart. */
  const warmup: number[] = [];

  const connect = (v: Viewer) => {
    const ws = new WebSocket(`ws://127.0.0.1:${v.at.port}/ws?game=${v.game.id}`);
    v.ws = ws;
    let first = true;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type !== 'snapshot') return;
      const s = m.data as GameSnapshot;
      if (first && v.reconnects > 0 && Array.isArray(s.board) && s.board.length === 15)
        v.fullAfterReconnect++;
      first = false;
      v.version = s.version;
      const w = waiting.get(v.game.id);
      if (w && s.version >= w.version && w.left.delete(v)) {
        const took = performance.now() - w.t0;
        (w.warm ? latencies : warmup).push(took);
        if (w.warm) byKind[w.kind].push(took);
      }
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      if (stopping) return;
      // The instance went away: the viewer reconnects to one that is still there.
      v.reconnects++;
      v.at = pick(v.reconnects + v.game.viewers.indexOf(v));
      setTimeout(() => connect(v), 200);
    });
  };
  let stopping = false;
  /** The camera pages (HALL_CAMERA_PAGES): grids or pictures received. */
  let shown = 0;
  const pages: { ws: WebSocket | undefined }[] = [];
  const openPage = (g: Game, k: number, page: { ws: WebSocket | undefined }) => {
    const ws = new WebSocket(`ws://127.0.0.1:${pick(k).port}/ws?game=${g.id}`);
    page.ws = ws;
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'camera-view', data: { token: g.token, pictures: CAMERA_PAGES > 1 } })),
    );
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as ServerMessage).type === 'thumbnail') shown++;
    });
    ws.on('error', () => {});
    // The instance went away: the page connects to one that is still there.
    ws.on('close', () => !stopping && setTimeout(() => openPage(g, k + 1, page), 200));
  };
  if (CAMERA_PAGES)
    games.forEach((g, k) => {
      const page = { ws: undefined };
      pages.push(page);
      openPage(g, k, page);
    });
  for (let k = 0; k < VIEWERS; k++) {
    const game = games[k % GAMES]!;
    const v: Viewer = { game, ws: undefined, at: pick(k), version: 0, reconnects: 0, fullAfterReconnect: 0 };
    game.viewers.push(v);
    connect(v);
    if (k % 100 === 99) await pause(50);
  }
  await pause(1500);

  let frames = 0;
  let failed = 0;
  /** End turns answered `waiting`: their frame showed a hand, and the camera streams (HALL_STREAM_MS). */
  let waitingOut = 0;
  let held = 0;
  const start = performance.now();
  // How late this process's own timers fire (its viewers' and cameras' work waits as long): the sampling period of
  // 5 ms is taken off each figure.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  let killed = false;
  const cpuAtStart = [...instances, ...workers].map((p) => cpuSeconds(p.child.pid));
  const serversAtStart = [treeCpuSeconds(postgres?.pid()), treeCpuSeconds(redis?.pid)];
  const benchCpu = process.cpuUsage();
  const camera = async (g: Game, offset: number) => {
    await pause(offset);
    let k = 0;
    while (performance.now() - start < PHASE_MS) {
      const t0 = performance.now();
      if (g.step === g.photos.length) {
        // The scorekeeper takes the moves back; the camera plays them again.
        // Until the board is empty again (bounded): an undo whose instance went away may or may not have been
        // recorded, so the game is looked at again before each.
        for (let tries = 0; tries < 3 * g.photos.length; tries++) {
          const res = await fetch(`${pick(k++).base}/api/games/${g.id}`).catch(() => undefined);
          if (!res?.ok) continue;
          const snap = (await res.json()) as GameSnapshot;
          g.version = snap.version;
          if (snap.board.every((row) => /^\.+$/.test(row))) break;
          await fetch(`${pick(k++).base}/api/games/${g.id}/actions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'undo', version: g.version }),
          }).catch(() => undefined);
        }
        g.step = 0;
      } else {
        const at = pick(k++);
        const expected = g.version + 1;
        const left = new Set(g.viewers);
        const wait: typeof waiting extends Map<string, infer W> ? W : never = {
          version: expected,
          t0,
          left,
          warm: g.committed >= g.photos.length,
          kind: g.step === 0 ? 'first' : 'other',
        };
        waiting.set(g.id, wait);
        // End turn goes through the camera page's gate too: it is sent, and the page sends the ticks after it.
        g.gate.decide(false, performance.now(), true);
        g.sent = g.photos[g.step];
        try {
          // As the camera page does, the End turn says which version of the game it ends: sent again after its
          // instance went away, it is refused as stale if the first one was recorded.
          const res = await fetch(`${at.base}/api/games/${g.id}/frames?endTurn=1&version=${g.version}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${g.token}`, 'content-type': 'image/jpeg' },
            body: g.photos[g.step]!,
          });
          const result = (await res.json()) as {
            status?: string;
            event?: { type: string };
            error?: { code: string };
          };
          const decided = performance.now() - t0;
          frames++;
          if (process.env.HALL_DEBUG)
            console.log(g.source, g.step, result.status, result.event?.type ?? result.error?.code);
          if (result.status === 'needs-confirmation') {
            // Held for a click (a real photo now and then): the scorekeeper confirms the reading as it stands.
            held++;
            if (wait.kind === 'other') wait.kind = 'held';
            const res = await fetch(`${pick(k++).base}/api/games/${g.id}/actions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ type: 'confirm' }),
            });
            Object.assign(result, (await res.json()) as typeof result);
          }
          // A decision only: a refusal (stale, an error) is quick and says nothing of the reading.
          if (wait.warm && (result.status === 'committed' || wait.kind === 'held'))
            answered[wait.kind].push(decided);
          if (result.status === 'committed' && result.event?.type === 'play') {
            g.committed++;
            g.version = expected;
            g.step++;
          } else if (result.error?.code === 'stale') {
            // The game moved on: the request sent before this one, whose instance went away before it answered,
            // recorded the move.
            const snap = (await (await fetch(`${pick(k++).base}/api/games/${g.id}`)).json()) as GameSnapshot;
            if (snap.version >= expected) {
              g.committed++;
              g.version = snap.version;
              g.step++;
            } else failed++;
          } else if (result.status === 'waiting') waitingOut++;
          else failed++;
        } catch {
          // The instance was killed mid-request: the next frame goes to another.
          failed++;
        }
      }
      await pause(Math.max(0, FRAME_MS - (performance.now() - t0)));
    }
  };
  let streamed = 0;
  let gated = 0;
  let skipped = 0;
  let unanswered = 0;
  /** The camera page's frames between turns (HALL_STREAM_MS): the board as it stands, no End turn, looked at every
   *  STREAM_MS and sent when the page's gate lets it (STREAM_GATE), whether the last was answered or not (a newer
   *  one replaces one still waiting: `skipped`). */
  const stream = async (g: Game, i: number) => {
    await pause((i * STREAM_MS) / GAMES);
    const answers: Promise<void>[] = [];
    while (performance.now() - start < PHASE_MS) {
      const t0 = performance.now();
      // The board as it stands: the tiles of the next move are down before End turn is pressed.
      const photo = g.photos[Math.min(g.step, g.photos.length - 1)]!;
      if (STREAM_GATE && !g.gate.decide(photo !== g.sent, t0)) {
        gated++;
        await pause(Math.max(0, STREAM_MS - (performance.now() - t0)));
        continue;
      }
      g.sent = photo;
      streamed++;
      answers.push(
        fetch(`${pick(i).base}/api/games/${g.id}/frames`, {
          method: 'POST',
          headers: { authorization: `Bearer ${g.token}`, 'content-type': 'image/jpeg' },
          body: photo,
        })
          .then((res) => res.json() as Promise<{ status?: string }>)
          .then((result) => {
            if (result.status === 'skipped') skipped++;
          })
          // The instance was killed: the next goes to another.
          .catch(() => {
            unanswered++;
          }),
      );
      await pause(Math.max(0, STREAM_MS - (performance.now() - t0)));
    }
    await Promise.all(answers);
  };
  const cameras = [
    ...games.map((g, i) => camera(g, (i * FRAME_MS) / GAMES)),
    ...(STREAM_MS > 0 ? games.map((g, i) => stream(g, i)) : []),
  ];
  if (killHalfway && instances.length > 1) {
    await pause(PHASE_MS / 2);
    killed = true;
    instances[1]!.child.kill('SIGKILL');
    // And a worker, most likely in the middle of a frame.
    if (workers.length > 1) workers[1]!.child.kill('SIGKILL');
  }
  await Promise.all(cameras);
  const seconds = (performance.now() - start) / 1000;
  loopDelay.disable();
  await pause(1500);
  stopping = true;
  const rss = instances.map((i) => (i.alive ? rssMb(i.child.pid) : Number.NaN));
  const workerRss = workers.map((i) => (i.alive ? rssMb(i.child.pid) : Number.NaN));
  const cpu = [...instances, ...workers].map((p, i) => cpuSeconds(p.child.pid) - cpuAtStart[i]!);
  const pgCpu = treeCpuSeconds(postgres?.pid()) - serversAtStart[0]!;
  const redisCpu = treeCpuSeconds(redis?.pid) - serversAtStart[1]!;
  for (const g of games) for (const v of g.viewers) v.ws?.close();
  for (const page of pages) page.ws?.close();

  // The database says what was recorded: each frame answered `committed` is one play event, exactly.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let lost = 0;
  let doubled = 0;
  for (const g of games) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE game_id = $1 AND event LIKE '{"type":"play"%'`,
      [g.id],
    );
    const plays = Number(rows[0]?.n ?? 0);
    if (plays < g.committed) lost += g.committed - plays;
    if (plays > g.committed) doubled += plays - g.committed;
  }
  await client.end();
  const viewers = games.flatMap((g) => g.viewers);
  const reconnected = viewers.filter((v) => v.reconnects > 0);
  console.log(
    `\n${name}: ${instances.length} instance${instances.length > 1 ? 's' : ''}${workers.length ? `, ${workers.length} worker${workers.length > 1 ? 's' : ''}` : ''}, ${GAMES} games, ${VIEWERS} viewers, ${Math.round(seconds)} s`,
  );
  console.log(
    `  this bench's own event loop delay (what its viewers' and cameras' times include of it): p50 ${late(loopDelay.percentile(50))}, p99 ${late(loopDelay.percentile(99))}, max ${late(loopDelay.max)}\n` +
      `  frames read: ${frames} (${(frames / seconds).toFixed(1)} a second; ${held} held and confirmed by the scorekeeper; ${failed} not committed: the instance killed mid-request)` +
      (STREAM_MS > 0
        ? `; between turns, ${streamed} frames sent (${(streamed / seconds).toFixed(1)} a second, ${skipped} skipped for a newer one, ${unanswered} unanswered${STREAM_GATE ? `; ${gated} kept back by the page's gate` : ', every tick: no gate'}); ${waitingOut} End turns answered "waiting" (a hand in view: the next clear frame ends the turn)`
        : '') +
      (CAMERA_PAGES
        ? `; ${GAMES} camera pages open, asking for ${CAMERA_PAGES > 1 ? 'the pictures' : 'the grid only'}: ${shown} reached them`
        : ''),
  );
  console.log(
    `  frame posted → every viewer updated: p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}, max ${ms(Math.max(...latencies))} (${latencies.length} updates; each camera's first round of moves apart: p50 ${ms(pct(warmup, 50))}, p99 ${ms(pct(warmup, 99))}, ${warmup.length} updates)`,
  );
  const split = (name: string, v: number[]) =>
    `${name} p50 ${ms(pct(v, 50))}, p99 ${ms(pct(v, 99))} (${v.length})`;
  console.log(
    `    by frame: ${split('first after the moves were taken back', byKind.first)}; ${split('held for a click', byKind.held)}; ${split('the others', byKind.other)}`,
  );
  console.log(
    `  frame posted → the camera answered, committed or held (the decision): ${split('first after the moves were taken back', answered.first)}; ${split('held (before the click)', answered.held)}; ${split('the others', answered.other)}`,
  );
  console.log(
    `  moves recorded: ${games.reduce((a, g) => a + g.committed, 0)}; lost ${lost}; recorded twice ${doubled}`,
  );
  if (killed)
    console.log(
      `  killed one instance${workers.length > 1 ? ' and one worker' : ''} half-way: ${reconnected.length} viewers reconnected, ${reconnected.filter((v) => v.fullAfterReconnect > 0).length} of them got a full snapshot first`,
    );
  const names = [
    ...instances.map((_, i) => `instance ${i + 1}`),
    ...workers.map((_, i) => `worker ${i + 1}`),
  ];
  console.log(
    `  CPU used over the phase: ${cpu.map((c, i) => `${names[i]} ${Number.isFinite(c) ? `${c.toFixed(1)} s` : 'killed'}`).join(', ')}, this bench's cameras and viewers ${((({ user, system }) => (user + system) / 1e6)(process.cpuUsage(benchCpu))).toFixed(1)} s, PostgreSQL ${pgCpu.toFixed(1)} s, Redis ${redisCpu.toFixed(1)} s (of ${(2 * seconds).toFixed(0)} s on 2 cores)`,
  );
  console.log(
    `  RSS: ${[
      ...rss.map((r, i) => `instance ${i + 1} ${Number.isFinite(r) ? `${Math.round(r)} MB` : 'killed'}`),
      ...workerRss.map((r, i) => `worker ${i + 1} ${Number.isFinite(r) ? `${Math.round(r)} MB` : 'killed'}`),
    ].join(', ')}`,
  );
}

/**
 * The workers alone, flat out: GAMES games (made by an instance that then stays idle), each sending its next frame
 * with End turn as soon as the last is answered (the same photos, held readings confirmed, the moves taken back and
 * played again), handed to the queues by this bench as an instance would; no viewers. Frames answered a second over
 * PHASE_MS, after each game's first round of moves.
 */
async function workersAlone(count: number, url: string, redisUrl: string) {
  const maker = await serve(url, redisUrl, true);
  const workers: Instance[] = [];
  running.push(maker);
  const queue = await WorkQueue.open(redisUrl);
  try {
    for (let k = 0; k < count; k++) workers.push(await worker(url, redisUrl));
    running.push(...workers);
    // The workers share the queues out (a heartbeat a second).
    await pause(3000);
    const event = `bench-workers-${count}-${Date.now()}`;
    const games: {
      id: string;
      photos: Buffer<ArrayBuffer>[];
      step: number;
      plays: number;
      rounds: number;
    }[] = [];
    for (let g = 0; g < GAMES; g++) {
      const { lang, photos } = cameraPhotos[g % cameraPhotos.length]!;
      const res = await fetch(`${maker.base}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ players: ['Ann', 'Ben'], event, lang }),
      });
      const { id } = (await res.json()) as { id: string };
      games.push({ id, photos, step: 0, plays: 0, rounds: 0 });
    }
    let answered = 0;
    let measuring = false;
    let stop = false;
    const loop = async (g: (typeof games)[number]) => {
      while (!stop) {
        try {
          if (g.step === g.photos.length) {
            for (; g.plays > 0; g.plays--)
              await queue.run({ kind: 'act', game: g.id, action: { type: 'undo' } });
            g.step = 0;
            g.rounds++;
            continue;
          }
          const frame = g.photos[g.step++]!.toString('base64');
          const answer = await queue
            .run({ kind: 'frame', game: g.id, frame, endTurn: true, camera: 0 })
            // A refusal (a frame that shows no board, say) is an answer too: the camera goes on.
            .catch((err: unknown) => ({ refused: err as Error }));
          if (measuring) answered++;
          if ('refused' in answer) continue;
          let result = answer.result;
          if (result?.status === 'needs-confirmation')
            result = (await queue.run({ kind: 'act', game: g.id, action: { type: 'confirm' } })).result;
          if (result?.status === 'committed') g.plays++;
        } catch (err) {
          // An action refused (or a worker that did not answer in time): the game goes on from its next frame.
          if (process.env.HALL_DEBUG) console.log(g.id, (err as Error).message);
        }
      }
    };
    const loops = games.map((g) =>
      loop(g).catch((err: unknown) => console.error(`game ${g.id}: ${(err as Error).message}`)),
    );
    // Every game's first round (the board searched cold, the model warming up) is not measured.
    for (let t = 0; t < 600 && games.some((g) => g.rounds === 0 && g.step < g.photos.length); t++)
      await pause(100);
    const cpuAtStart = workers.map((w) => cpuSeconds(w.child.pid));
    measuring = true;
    const start = performance.now();
    await pause(PHASE_MS);
    measuring = false;
    const seconds = (performance.now() - start) / 1000;
    const cpu = workers.map((w, k) => cpuSeconds(w.child.pid) - cpuAtStart[k]!);
    stop = true;
    await Promise.all(loops);
    console.log(
      `\nthe workers alone, ${count} worker${count > 1 ? 's' : ''}, ${GAMES} games flat out, no viewers: ${answered} frames read in ${seconds.toFixed(0)} s, ${(answered / seconds).toFixed(1)} a second; worker CPU ${cpu.map((c) => `${c.toFixed(1)} s`).join(' + ')} (of ${(2 * seconds).toFixed(0)} s on 2 cores)`,
    );
    return answered / seconds;
  } finally {
    await queue.close();
    for (const p of [maker, ...workers]) if (p.alive) p.child.kill('SIGTERM');
    await pause(2000);
    for (const p of [maker, ...workers]) if (p.alive) p.child.kill('SIGKILL');
  }
}

let postgres: RunningPostgres | undefined;
let redis: RunningRedis | undefined;
const running: Instance[] = [];
const phases = new Set((process.env.HALL_PHASES ?? '1,2,3,4,5').split(',').map((p) => p.trim()));
/** Starts the processes of a phase, runs it and stops them. */
async function run(name: string, instances: Instance[], workers: Instance[], kill: boolean) {
  running.push(...instances, ...workers);
  await phase(name, instances, workers, kill, postgres!.url);
  // Stopped as an operator would (SIGTERM: the running jobs finish), then for good.
  for (const p of [...instances, ...workers]) if (p.alive) p.child.kill('SIGTERM');
  await pause(2000);
  for (const p of [...instances, ...workers]) if (p.alive) p.child.kill('SIGKILL');
}
try {
  console.log(
    `tilecam hall bench (node ${process.version}; its instances and workers started with ${NODE_FLAGS.join(' ')}): PostgreSQL and Redis on loopback, started here; cameras send ${real ? `the photos of the real German games (../shared), ${cameraPhotos.map((c) => c.photos.length).join('/')} moves before taking them back` : 'the rendered demo photos'}`,
  );
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const db = postgres.url;
  const r = redis.url;
  if (phases.has('1')) await run('single process', [await serve(db)], [], false);
  if (phases.has('2')) await run('two instances', [await serve(db, r), await serve(db, r)], [], true);
  const queued = async () => [await serve(db, r, true), await serve(db, r, true)];
  if (phases.has('3')) await run('queue, one worker', await queued(), [await worker(db, r)], false);
  if (phases.has('4'))
    await run('queue, two workers', await queued(), [await worker(db, r), await worker(db, r)], false);
  if (phases.has('5'))
    await run('queue, two workers, kills', await queued(), [await worker(db, r), await worker(db, r)], true);
  if (phases.has('workers')) {
    const one = await workersAlone(1, db, r);
    const two = await workersAlone(2, db, r);
    console.log(`  two workers read ${(two / one).toFixed(2)}× what one reads`);
  }
} finally {
  for (const i of running) if (i.alive) i.child.kill('SIGKILL');
  await redis?.stop();
  postgres?.stop();
}
process.exit(0);
