/**
 * `npm run bench:hall`: a tournament hall on this machine, loopback only, every loop bounded in count and time.
 * PostgreSQL and Redis are started here (test/servers.ts: temporary folders, free ports), then two phases with the
 * same load, for comparison:
 *   1. one instance (`tilecam serve` on PostgreSQL, no Redis): the single-process figure;
 *   2. two instances on the same PostgreSQL and Redis; half-way through, one instance is killed (SIGKILL): its
 *      viewers reconnect to the other and get a full snapshot, its cameras send there.
 * Load: GAMES boards, each a simulated camera sending a frame with End turn every FRAME_MS (the project's rendered
 * demo photos: moves 1, 2, 3, then the scorekeeper takes them back and the camera plays them again), VIEWERS
 * WebSocket viewers spread over the games and over the instances. Printed per phase: frames read per second, frame
 * posted → every viewer of its game updated (p50/p99/max), moves lost or recorded twice (from the database), viewers
 * reconnected, and each process's RSS.
 *
 * Not measured: a BullMQ queue of vision work and `tilecam worker` (not written): every instance reads the frames
 * sent to it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { type RunningPostgres, type RunningRedis, startPostgres, startRedis } from '../../test/servers.ts';
import type { GameSnapshot, ServerMessage } from '../protocol/index.ts';

const GAMES = Number(process.env.HALL_GAMES ?? 32);
const VIEWERS = Number(process.env.HALL_VIEWERS ?? 1000);
const FRAME_MS = 2000;
const PHASE_MS = Number(process.env.HALL_SECONDS ?? 40) * 1000;
const root = fileURLToPath(new URL('../..', import.meta.url));
const photos = [1, 2, 3].map((n) => readFileSync(join(root, `fixtures/demo_game/${n}.jpg`)));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
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

async function serve(db: string, redis?: string): Promise<Instance> {
  const args = ['server/cli/bin.mjs', 'serve', '--port', '0', '--host', '127.0.0.1', '--db', db, '--json'];
  if (redis) args.push('--redis', redis);
  // Many viewers and cameras from one address: the per-address and per-game limits are raised for the bench.
  args.push('--limit', 'framesPerSecond=50', '--limit', 'gamesPerMinute=1000');
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 60 s')), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  child.stdout!.resume();
  const { port } = JSON.parse(line) as { port: number };
  const instance = { child, base: `http://127.0.0.1:${port}`, port, alive: true };
  child.once('exit', () => {
    instance.alive = false;
  });
  return instance;
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
  step: number;
}

interface Viewer {
  game: Game;
  ws: WebSocket | undefined;
  at: Instance;
  version: number;
  reconnects: number;
  fullAfterReconnect: number;
}

async function phase(name: string, instances: Instance[], killHalfway: boolean, url: string) {
  const live = () => instances.filter((i) => i.alive);
  const pick = (k: number) => live()[k % live().length]!;
  const event = `bench-${name}-${Date.now()}`;
  const games: Game[] = [];
  for (let g = 0; g < GAMES; g++) {
    const res = await fetch(`${pick(g).base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'], event }),
    });
    const { id, token } = (await res.json()) as { id: string; token: string };
    games.push({ id, token, version: 0, viewers: [], committed: 0, step: 0 });
  }
  const latencies: number[] = [];
  /** Per game, the post time of the frame whose commit the viewers are waiting for, by version. */
  const waiting = new Map<string, { version: number; t0: number; left: Set<Viewer> }>();

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
      if (w && s.version >= w.version && w.left.delete(v)) latencies.push(performance.now() - w.t0);
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
  const start = performance.now();
  let killed: Instance | undefined;
  const camera = async (g: Game, offset: number) => {
    await pause(offset);
    let k = 0;
    while (performance.now() - start < PHASE_MS) {
      const t0 = performance.now();
      if (g.step === 3) {
        // The scorekeeper takes the three moves back; the camera plays them again.
        for (let u = 0; u < 3; u++) {
          const res = await fetch(`${pick(k++).base}/api/games/${g.id}/actions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'undo' }),
          }).catch(() => undefined);
          if (res?.ok) g.version = ((await res.json()) as { snapshot: GameSnapshot }).snapshot.version;
        }
        g.step = 0;
      } else {
        const at = pick(k++);
        const expected = g.version + 1;
        const left = new Set(g.viewers);
        waiting.set(g.id, { version: expected, t0, left });
        try {
          const res = await fetch(`${at.base}/api/games/${g.id}/frames?endTurn=1`, {
            method: 'POST',
            headers: { authorization: `Bearer ${g.token}`, 'content-type': 'image/jpeg' },
            body: photos[g.step]!,
          });
          const result = (await res.json()) as { status?: string; error?: { code: string } };
          frames++;
          if (result.status === 'committed') {
            g.committed++;
            g.version = expected;
            g.step++;
          } else if (result.status === 'unchanged') {
            // Recorded already (a retry after the instance that recorded it went away).
            g.version = expected;
            g.step++;
          } else failed++;
        } catch {
          // The instance was killed mid-request: the next frame goes to another.
          failed++;
        }
      }
      await pause(Math.max(0, FRAME_MS - (performance.now() - t0)));
    }
  };
  const cameras = games.map((g, i) => camera(g, (i * FRAME_MS) / GAMES));
  if (killHalfway && instances.length > 1) {
    await pause(PHASE_MS / 2);
    killed = instances[1]!;
    killed.child.kill('SIGKILL');
  }
  await Promise.all(cameras);
  const seconds = (performance.now() - start) / 1000;
  await pause(1500);
  stopping = true;
  const rss = instances.map((i) => (i.alive ? rssMb(i.child.pid) : Number.NaN));
  for (const g of games) for (const v of g.viewers) v.ws?.close();

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
    `\n${name}: ${instances.length} instance${instances.length > 1 ? 's' : ''}, ${GAMES} games, ${VIEWERS} viewers, ${Math.round(seconds)} s`,
  );
  console.log(
    `  frames read: ${frames} (${(frames / seconds).toFixed(1)} a second; ${failed} not committed: killed mid-request or held)`,
  );
  console.log(
    `  frame posted → every viewer updated: p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}, max ${ms(Math.max(...latencies))} (${latencies.length} updates)`,
  );
  console.log(
    `  moves recorded: ${games.reduce((a, g) => a + g.committed, 0)}; lost ${lost}; recorded twice ${doubled}`,
  );
  if (killed)
    console.log(
      `  killed one instance half-way: ${reconnected.length} viewers reconnected, ${reconnected.filter((v) => v.fullAfterReconnect > 0).length} of them got a full snapshot first`,
    );
  console.log(
    `  RSS: ${rss.map((r, i) => `instance ${i + 1} ${Number.isFinite(r) ? `${Math.round(r)} MB` : 'killed'}`).join(', ')}`,
  );
}

let postgres: RunningPostgres | undefined;
let redis: RunningRedis | undefined;
const instances: Instance[] = [];
try {
  console.log(`tilecam hall bench (node ${process.version}): PostgreSQL and Redis on loopback, started here`);
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  instances.push(await serve(postgres.url));
  await phase('single process', instances, false, postgres.url);
  instances.pop()!.child.kill('SIGKILL');
  instances.push(await serve(postgres.url, redis.url), await serve(postgres.url, redis.url));
  await phase('two instances', instances, true, postgres.url);
} finally {
  for (const i of instances) if (i.alive) i.child.kill('SIGKILL');
  await redis?.stop();
  postgres?.stop();
}
process.exit(0);
