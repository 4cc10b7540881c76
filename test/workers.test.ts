/**
 * Frames read by `tilecam worker` processes through the work queue (server/service/hall/work.ts): an instance started
 * with `--queue` on PostgreSQL and Redis (each started by the test on a free loopback port), and two worker
 * processes. Frames and actions sent to the instance are decided by the workers, in order, each queue by one
 * worker; a worker killed in the middle of a frame loses nothing and records nothing twice.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  type RunningPostgres,
  type RunningRedis,
  startPostgres,
  startRedis,
  startTilecam,
} from '../server/dev/servers.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot, ServerMessage } from '../server/protocol/index.ts';
import { ownerOf, PARTITIONS, partitionOf } from '../server/service/hall/work.ts';
import { PostgresStore } from '../server/store/postgres.ts';

let postgres: RunningPostgres;
let redis: RunningRedis;
let server: RunningServer;
let store: PostgresStore;
const workers: { child: ChildProcess; id: string }[] = [];

async function startWorker(): Promise<{ child: ChildProcess; id: string }> {
  const { child, ready } = startTilecam(['worker', '--db', postgres.url, '--redis', redis.url]);
  try {
    return { child, id: String((await ready).worker) };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: postgres.url,
    redis: redis.url,
    queue: true,
    heartbeatMs: 60_000,
  });
  // Both, or whichever started is stopped after.
  const started = await Promise.allSettled([startWorker(), startWorker()]);
  for (const w of started) if (w.status === 'fulfilled') workers.push(w.value);
  for (const w of started) if (w.status === 'rejected') throw w.reason;
  store = await PostgresStore.open(postgres.url);
}, 120_000);

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await server?.close();
  await store?.close();
  await redis?.stop();
  postgres?.stop();
});

const base = () => `http://127.0.0.1:${server.port}`;
const photo = (n: number) => readFileSync(new URL(`../fixtures/demo_game/${n}.jpg`, import.meta.url));

async function newGame(): Promise<{ id: string; token: string }> {
  const res = await fetch(`${base()}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players: ['Ann', 'Ben'] }),
  });
  return (await res.json()) as { id: string; token: string };
}

async function endTurn(id: string, token: string, bytes: ReturnType<typeof photo>) {
  const res = await fetch(`${base()}/api/games/${id}/frames?endTurn=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as { status?: string; error?: { code: string } } };
}

/** The moves the database holds for the game. */
async function plays(id: string): Promise<number> {
  return ((await store.getGame(id))?.events ?? []).filter((e) => e.event.type === 'play').length;
}

/** The game's moves in effect: its events, less those taken back (and the taking back). */
async function moves(id: string): Promise<string[]> {
  const events = (await store.getGame(id))?.events ?? [];
  const undone = new Set(
    events.flatMap((e) => (e.event.type === 'correction' ? [(e.event as { target: number }).target] : [])),
  );
  return events.filter((e, i) => e.event.type !== 'correction' && !undone.has(i)).map((e) => e.event.type);
}

async function until<T>(what: () => Promise<T | undefined>, ms: number, label: string): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const found = await what();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${label}: not in ${ms} ms`);
}

describe('an instance with --queue and two tilecam worker processes', () => {
  it('shares the queues out: each is consumed by exactly one worker', async () => {
    const queues = Array.from(
      { length: PARTITIONS },
      (_, p) => new Queue(`tilecam-work-${p}`, { connection: { url: redis.url } }),
    );
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    const ids = workers.map((w) => w.id);
    const named = Array.from({ length: PARTITIONS }, (_, p) => ownerOf(p, ids));
    try {
      // Both workers have announced themselves (a heartbeat a second) and the one that started first has handed
      // the other its share: each queue's lease is held by the worker rendezvous hashing names for it, both hold
      // some, and each queue has exactly one consumer.
      const holders = await until(
        async () => {
          const held = await Promise.all(
            Array.from({ length: PARTITIONS }, (_, p) => client.get(`tilecam:queue-owner:${p}`)),
          );
          const consumers = await Promise.all(queues.map(async (q) => (await q.getWorkers()).length));
          return held.every((h, p) => h === named[p]) && consumers.every((c) => c === 1) ? held : undefined;
        },
        20_000,
        'each queue held and consumed by the worker named for it',
      );
      expect(new Set(holders).size).toBe(2);
      // Shared out evenly: 8 queues each.
      expect(holders.filter((h) => h === ids[0]).length).toBe(PARTITIONS / 2);
    } finally {
      client.disconnect();
      await Promise.all(queues.map((q) => q.close()));
    }
  }, 30_000);

  it('has the workers read a game’s frames and decide its actions, in order, and tells the viewers', async () => {
    const { id, token } = await newGame();
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?game=${id}`);
    const seen: number[] = [];
    const grids: unknown[] = [];
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'snapshot') seen.push((m.data as GameSnapshot).version);
      if (m.type === 'thumbnail') grids.push((m.data as { corners: unknown }).corners);
    });
    await new Promise((r) => ws.once('open', r));
    // The scorekeeper's page watches the camera at this instance: it is shown each frame with the grid the worker
    // found in it.
    ws.send(JSON.stringify({ type: 'camera-view', data: { token } }));
    for (const n of [1, 2, 3]) {
      const { status, body } = await endTurn(id, token, photo(n));
      expect(status).toBe(200);
      expect(body.status).toBe('committed');
    }
    // The same frame again: nothing new (the worker's copy of the game is the one that recorded it).
    expect((await endTurn(id, token, photo(3))).body.status).toBe('unchanged');
    // An action goes the same way; a bad one is refused with the game's own message.
    const act = async (action: object) => {
      const res = await fetch(`${base()}/api/games/${id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(action),
      });
      return {
        status: res.status,
        body: (await res.json()) as { status?: string; snapshot?: GameSnapshot; error?: { code: string } },
      };
    };
    const undo = await act({ type: 'undo' });
    expect(undo.body.status).toBe('committed');
    // The answer's snapshot already shows what the worker recorded.
    expect(undo.body.snapshot?.version).toBe(4);
    expect((await act({ type: 'fly' })).status).toBe(400);
    expect(await plays(id)).toBe(3);
    // Three frames read (the fourth, the very frame that had just ended a turn, is answered without a reading).
    expect(grids).toHaveLength(3);
    expect(grids.every((g) => Array.isArray(g) && g.length === 4)).toBe(true);
    await until(async () => (seen.includes(4) ? true : undefined), 5000, 'the viewer told');
    expect(seen.filter((v) => v > 0)).toEqual([...seen.filter((v) => v > 0)].sort((a, b) => a - b));
    ws.close();
    // Each answer is also kept a while in Redis, for an instance that missed its message.
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    try {
      const kept = await client.keys('tilecam:answer:*');
      expect(kept.length).toBeGreaterThanOrEqual(6);
      const ttl = await client.pttl(kept[0]!);
      expect(ttl).toBeGreaterThan(40_000);
      expect(ttl).toBeLessThanOrEqual(70_000);
      const answer = JSON.parse((await client.get(kept[0]!))!) as { id: string };
      expect(`tilecam:answer:${answer.id}`).toBe(kept[0]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('has the game’s worker look at a rack camera’s frames and keep the rack with the move it records', async () => {
    // fixtures/seat-game, seen from Cesar's place: after move 2 his rack AABEIIW stands in front of the board.
    const seat = (n: number, ext: 'jpg' | 'txt') =>
      readFileSync(
        new URL(`../fixtures/seat-game/move-${String(n).padStart(2, '0')}.${ext}`, import.meta.url),
      );
    const created = await fetch(`${base()}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Cesar', 'Frentz'] }),
    });
    const { id, token } = (await created.json()) as { id: string; token: string };
    const auth = { authorization: `Bearer ${token}` };
    const act = async (action: object) =>
      (await (
        await fetch(`${base()}/api/games/${id}/actions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(action),
        })
      ).json()) as { status?: string };
    for (const n of [1, 2])
      expect(
        (await act({ type: 'confirm', board: String(seat(n, 'txt')).trimEnd().split('\n') })).status,
      ).toBe('committed');
    const rackFrame = await fetch(`${base()}/api/games/${id}/frames?rack=0`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/jpeg' },
      body: seat(2, 'jpg'),
    });
    expect(rackFrame.status).toBe(200);
    expect(((await rackFrame.json()) as { status: string }).status).toBe('looking');
    // The pass waits for the look still running at the worker, which keeps the rack with it.
    expect((await act({ type: 'pass' })).status).toBe('committed');
    const gcg = await (await fetch(`${base()}/api/games/${id}/gcg`, { headers: auth })).text();
    expect(gcg).toMatch(/^>Cesar: AABEIIW -/m);
    expect(await (await fetch(`${base()}/api/games/${id}/gcg`)).text()).not.toContain('AABEIIW');
  }, 60_000);

  it('loses nothing and records nothing twice when the worker reading a frame is killed mid-frame', async () => {
    const { id, token } = await newGame();
    expect((await endTurn(id, token, photo(1))).body.status).toBe('committed');
    const queue = new Queue(`tilecam-work-${partitionOf(id)}`, { connection: { url: redis.url } });
    try {
      const owner = workers.find(
        (w) =>
          w.id ===
          ownerOf(
            partitionOf(id),
            workers.map((x) => x.id),
          ),
      )!;
      // The frame's job is being read: the worker is stopped there and, still mid-frame, killed. (Should the frame
      // have been read before the stop landed, the move is taken back and the frame sent again.)
      let answer: ReturnType<typeof endTurn> | undefined;
      for (let attempt = 0; attempt < 5 && !answer; attempt++) {
        const sent = endTurn(id, token, photo(2));
        await until(
          async () => ((await queue.getActiveCount()) > 0 ? true : undefined),
          10_000,
          'the job active',
        );
        owner.child.kill('SIGSTOP');
        if ((await queue.getActiveCount()) === 1) answer = sent;
        else {
          owner.child.kill('SIGCONT');
          expect((await sent).body.status).toBe('committed');
          const undo = await fetch(`${base()}/api/games/${id}/actions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'undo' }),
          });
          expect(undo.status).toBe(200);
        }
      }
      expect(answer).toBeDefined();
      owner.child.kill('SIGKILL');
      workers.splice(workers.indexOf(owner), 1);
      // The other worker takes the queue over and does the job again: the move is recorded, once ('unchanged'
      // when the killed worker had recorded it just before it was stopped), and no pass is made of it.
      const { status, body } = await answer!;
      expect(status).toBe(200);
      expect(['committed', 'unchanged']).toContain(body.status);
      expect(await moves(id)).toEqual(['play', 'play']);
      // And the game goes on on the survivor.
      expect((await endTurn(id, token, photo(3))).body.status).toBe('committed');
      expect(await moves(id)).toEqual(['play', 'play', 'play']);
    } finally {
      await queue.close();
    }
  }, 60_000);
});

describe('the work queue itself (a Redis of its own, a worker in this process)', () => {
  it('does a job again after its worker was lost, answering unchanged if that worker had recorded it', async () => {
    const own = await startRedis();
    const { Worker } = await import('bullmq');
    const { WorkConsumer, WorkQueue, startKey } = await import('../server/service/hall/work.ts');
    const { Redis } = await import('ioredis');
    const marks = new Redis(own.url);
    const queue = await WorkQueue.open(own.url);
    const game = 'g2';
    // The game is at version 0 when the lost worker starts the job; it records it (version 1) and dies.
    let version = 0;
    let decided = 0;
    let lost: { close(force?: boolean): Promise<void> } | undefined;
    let consumer: Awaited<ReturnType<typeof WorkConsumer.start>> | undefined;
    try {
      const taken = new Promise<void>((took) => {
        lost = new Worker(
          `tilecam-work-${partitionOf(game)}`,
          async (job) => {
            // As a worker does: the game's version noted as it starts the job; then it records it, and dies.
            await marks.set(startKey(String(job.id)), '0');
            version = 1;
            took();
            await new Promise(() => {});
          },
          {
            connection: { url: own.url, maxRetriesPerRequest: null },
            lockDuration: 1000,
            stalledInterval: 500,
          },
        );
      });
      const answer = queue.run({ kind: 'act', game, action: { type: 'pass' } });
      answer.catch(() => {});
      await taken;
      // Gone without a word: its lock is no longer renewed.
      await lost!.close(true);
      consumer = await WorkConsumer.start(own.url, {
        frame: async () => {
          decided++;
          return { status: 'committed' };
        },
        act: async () => {
          decided++;
          return { status: 'committed' };
        },
        rack: async () => ({ status: 'skipped' }),
        version: async () => version,
        gridOf: () => undefined,
        disturbanceOf: () => undefined,
        waitsOf: () => undefined,
        waitStands: () => undefined,
        settlePartition: async () => {},
        dropPartition: () => {},
      });
      const { result } = await answer;
      expect(result.status).toBe('unchanged');
      expect(result.reasons?.[0]).toMatch(/stopped before it could answer/);
      expect(decided).toBe(0);
      expect(consumer.done.again).toBe(1);
    } finally {
      marks.disconnect();
      await queue.close();
      await consumer?.close();
      await own.stop();
    }
  }, 40_000);

  it('hands a refusal to the caller even when it comes before the hand-over is acknowledged', async () => {
    const own = await startRedis();
    const { ServiceError } = await import('../server/service/errors.ts');
    const { WorkConsumer, WorkQueue } = await import('../server/service/hall/work.ts');
    const refuse = async (): Promise<never> => {
      throw new ServiceError('stale', 'the game has moved on');
    };
    const consumer = await WorkConsumer.start(own.url, {
      frame: refuse,
      act: refuse,
      rack: refuse,
      version: async () => 0,
      gridOf: () => undefined,
      disturbanceOf: () => undefined,
      waitsOf: () => undefined,
      waitStands: () => undefined,
      settlePartition: async () => {},
      dropPartition: () => {},
    });
    const queue = await WorkQueue.open(own.url);
    try {
      // The hand-over's acknowledgement is held back until the worker has answered.
      const queues = (queue as unknown as { queues: Queue[] }).queues;
      const game = 'g1';
      const q = queues[partitionOf(game)]!;
      const add = q.add.bind(q);
      q.add = (async (...args: Parameters<typeof add>) => {
        const job = await add(...args);
        await new Promise((r) => setTimeout(r, 1500));
        return job;
      }) as typeof q.add;
      // A refusal left unhandled meanwhile would end this process (and fail the run); it reaches the caller.
      await expect(queue.run({ kind: 'act', game, action: { type: 'pass' } })).rejects.toMatchObject({
        code: 'stale',
      });
    } finally {
      await queue.close();
      await consumer.close();
      await own.stop();
    }
  }, 30_000);
});
