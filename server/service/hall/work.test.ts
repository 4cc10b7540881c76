/**
 * The instance's side of the work queue: what a worker answers reaches the game's views at the instance (the grid
 * for the camera's page, the board-disturbed notice), and answers on the reply channel are outside input (a Redis
 * of its own; nothing here reads a frame).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startRedis } from '../../dev/servers.ts';
import type { GameSnapshot } from '../../protocol/index.ts';
import { SqliteStore } from '../../store/sqlite.ts';
import { ServiceError } from '../errors.ts';
import { GameService } from '../service.ts';
import { parseGameConfig } from '../validate.ts';
import {
  answerKey,
  idInPartition,
  owners,
  PARTITIONS,
  partitionOf,
  placementOrder,
  type WorkAnswer,
  type WorkJob,
  WorkQueue,
} from './work.ts';

const photo = readFileSync(new URL('../../../fixtures/demo_game/1.jpg', import.meta.url));
const grid = [
  [10, 10],
  [90, 10],
  [90, 90],
  [10, 90],
] as const;

describe('an instance whose frames a worker reads', () => {
  it('shows the camera’s page the grid the worker found, and the scorekeeper its board-disturbed notice', async () => {
    const jobs: WorkJob[] = [];
    const answers: WorkAnswer[] = [
      { result: { status: 'waiting' }, grid, disturbed: [{ row: 7, col: 3 }] },
      { result: { status: 'waiting' }, grid, disturbed: [] },
    ];
    const work = {
      run: async (job: WorkJob) => {
        jobs.push(job);
        return answers.shift()!;
      },
    };
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-work-')), 'games.db'));
    const service = new GameService(store, { work });
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      const session = await service.session(id);
      const thumbs: unknown[] = [];
      session.pictures.onThumbnail((t) => thumbs.push(t.corners));
      expect((await service.submitFrame(id, photo, false)).status).toBe('waiting');
      // The frame went over whole.
      expect(jobs[0]).toMatchObject({ kind: 'frame', game: id, endTurn: false, camera: 0 });
      expect(Buffer.from((jobs[0] as { frame: string }).frame, 'base64')).toEqual(photo);
      expect(thumbs).toEqual([grid]);
      expect((session.snapshot() as GameSnapshot).disturbed).toEqual([{ row: 7, col: 3 }]);
      // The next frame's answer clears the notice.
      await service.submitFrame(id, photo, false);
      expect((session.snapshot() as GameSnapshot).disturbed).toEqual([]);
    } finally {
      service.stopAll();
      store.close();
    }
  });
});

describe('the answers an instance listens for', () => {
  it('takes only well-formed answers to its own jobs, and is not brought down by others', async () => {
    const redis = await startRedis();
    const queue = await WorkQueue.open(redis.url);
    const client = new Redis(redis.url);
    try {
      const channel = `tilecam:replies:${(queue as unknown as { instance: string }).instance}`;
      // A job no worker takes: its answers are sent by hand.
      const first = queue.run({ kind: 'act', game: 'g', action: { type: 'pass' } });
      first.catch(() => {});
      const id = () => [...(queue as unknown as { waiting: Map<string, unknown> }).waiting.keys()][0]!;
      for (const junk of [
        'null',
        '7',
        '"x"',
        '{}',
        '{"id":5}',
        '{"id":"not one of its jobs","result":{}}',
        '{',
      ])
        await client.publish(channel, junk);
      // An error whose code is no error of the service's (an inherited name) is no ServiceError.
      await client.publish(channel, JSON.stringify({ id: id(), error: { code: 'toString', message: 'x' } }));
      const refused = await first.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(refused).not.toBeInstanceOf(ServiceError);
      // A well-formed answer, with a grid that is no grid: the result stands, the grid is left out.
      const second = queue.run({ kind: 'act', game: 'g', action: { type: 'pass' } });
      await new Promise((r) => setTimeout(r, 50));
      await client.publish(
        channel,
        JSON.stringify({
          id: id(),
          result: { status: 'committed' },
          grid: [[1, 2]],
          disturbed: [{ row: 99 }],
        }),
      );
      expect(await second).toEqual({ result: { status: 'committed' } });
    } finally {
      client.disconnect();
      await queue.close();
      await redis.stop();
    }
  });
});

describe('an answer whose message was missed', () => {
  it('is found where the worker kept it: every few seconds, and at once when the subscriber is back', async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    const often = await WorkQueue.open(redis.url, { recheckMs: 100 });
    const rarely = await WorkQueue.open(redis.url, { recheckMs: 60_000 });
    const waitingId = (q: WorkQueue) =>
      [...(q as unknown as { waiting: Map<string, unknown> }).waiting.keys()][0]!;
    try {
      // Jobs no worker takes; their answers are kept as a worker keeps them, and never published.
      const first = often.run({ kind: 'act', game: 'g', action: { type: 'pass' } });
      await new Promise((r) => setTimeout(r, 50));
      const id = waitingId(often);
      await client.set(answerKey(id), JSON.stringify({ id, result: { status: 'committed' } }), 'PX', 60_000);
      expect(await first).toEqual({ result: { status: 'committed' } });
      // The other looks only when its subscriber comes back: Redis drops it, and it reconnects by itself.
      const second = rarely.run({ kind: 'act', game: 'g', action: { type: 'pass' } });
      await new Promise((r) => setTimeout(r, 50));
      const other = waitingId(rarely);
      await client.set(
        answerKey(other),
        JSON.stringify({ id: other, result: { status: 'unchanged' } }),
        'PX',
        60_000,
      );
      const early = await Promise.race([second, new Promise((r) => setTimeout(() => r('not yet'), 500))]);
      expect(early).toBe('not yet');
      await client.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      expect(await second).toEqual({ result: { status: 'unchanged' } });
    } finally {
      client.disconnect();
      await Promise.all([often.close(), rarely.close()]);
      await redis.stop();
    }
  });
});

describe('placing new games on the queues', () => {
  it('spreads the games made on any instance evenly over the queues, in turn', async () => {
    const redis = await startRedis();
    const one = await WorkQueue.open(redis.url);
    const two = await WorkQueue.open(redis.url);
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-place-')), 'games.db'));
    const service = new GameService(store, { work: one });
    try {
      // Games made through the service of one instance and directly on the other, interleaved.
      const made: string[] = [];
      for (let k = 0; k < PARTITIONS; k++) {
        made.push((await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }))).id);
        made.push(await two.newGameId());
      }
      const perQueue = new Array(PARTITIONS).fill(0);
      for (const id of made) perQueue[partitionOf(id)]++;
      expect(perQueue).toEqual(new Array(PARTITIONS).fill(2));
      // In turn: the first PARTITIONS games fill every queue once.
      expect(new Set(made.slice(0, PARTITIONS).map(partitionOf)).size).toBe(PARTITIONS);
      expect(new Set(made).size).toBe(made.length);
      expect(made.every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
    } finally {
      service.stopAll();
      store.close();
      await Promise.all([one.close(), two.close()]);
      await redis.stop();
    }
  });

  it('makes a game with a random id when the queues cannot place it, at once when Redis is away', async () => {
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-place-')), 'games.db'));
    const redis = await startRedis();
    const queue = await WorkQueue.open(redis.url);
    let asked = 0;
    const work = {
      run: (job: WorkJob) => queue.run(job),
      newGameId: () => {
        asked++;
        return queue.newGameId();
      },
    };
    const service = new GameService(store, { work });
    try {
      await redis.stop();
      const t0 = Date.now();
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      expect(Date.now() - t0).toBeLessThan(1500);
      expect(asked).toBe(1);
      expect(id).toMatch(/^[0-9a-f]{8}$/);
      expect((await service.session(id)).stored.id).toBe(id);
    } finally {
      service.stopAll();
      store.close();
      await queue.close().catch(() => {});
    }
  });

  it('places the games on each worker’s queues in turn, so that two workers’ games never differ by more than one', () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const live = Array.from({ length: n }, (_, k) => `worker-${k}`);
      const plan = owners(live);
      const order = placementOrder(plan);
      expect([...order].sort((x, y) => x - y)).toEqual(Array.from({ length: PARTITIONS }, (_, p) => p));
      for (let games = 1; games <= 3 * PARTITIONS; games++) {
        const load = new Map(live.map((w) => [w, 0]));
        for (let g = 0; g < games; g++) {
          const w = plan[order[g % PARTITIONS]!]!;
          load.set(w, load.get(w)! + 1);
        }
        // Workers that share the 16 queues evenly (1, 2, 4 of them) never differ by more than a game; others (3:
        // 6, 5 and 5 queues) by one more for every round of 16 games.
        const most = PARTITIONS % n === 0 ? 1 : 1 + Math.floor(games / PARTITIONS);
        expect(Math.max(...load.values()) - Math.min(...load.values())).toBeLessThanOrEqual(most);
      }
    }
    expect(placementOrder(new Array(PARTITIONS).fill(undefined))).toEqual(
      Array.from({ length: PARTITIONS }, (_, p) => p),
    );
  });

  it('draws ids until one goes to the queue asked for', () => {
    for (let p = 0; p < PARTITIONS; p++) expect(partitionOf(idInPartition(p))).toBe(p);
    // Bounded: a maker that never hits the queue gives up with its last id.
    let draws = 0;
    const stuck = () => {
      draws++;
      return 'same';
    };
    const other = (partitionOf('same') + 1) % PARTITIONS;
    expect(idInPartition(other, stuck)).toBe('same');
    expect(draws).toBe(100 * PARTITIONS);
  });
});

describe('sharing the queues out among the live workers', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, k) => `worker-${k}-${'abcdef'[k % 6]}`);

  it('gives every worker its share, whatever order the live set comes in', () => {
    for (const n of [1, 2, 3, 5, 16, 20]) {
      const live = ids(n);
      const plan = owners(live);
      expect(plan.every((w) => w !== undefined && live.includes(w))).toBe(true);
      const load = live.map((w) => plan.filter((o) => o === w).length);
      // As even as can be: 16 queues over 5 workers are 4, 3, 3, 3, 3.
      expect(Math.max(...load) - Math.min(...load)).toBeLessThanOrEqual(1);
      expect(owners([...live].reverse())).toEqual(plan);
    }
    expect(owners([])).toEqual(new Array(PARTITIONS).fill(undefined));
  });

  it('moves few queues when a worker joins or leaves', () => {
    // Worker ids as they are made (UUIDs), but the same on every run.
    const uuid = (k: number) => createHash('sha256').update(String(k)).digest('hex').slice(0, 32);
    for (const n of [2, 3, 4, 5, 7, 10]) {
      for (let trial = 0; trial < 40; trial++) {
        const live = Array.from({ length: n + 1 }, (_, k) => uuid(trial * 100 + k));
        const before = owners(live.slice(0, n));
        const after = owners(live);
        const moved = before.filter((w, p) => after[p] !== w).length;
        // The newcomer's share must move to it; a few more may move to keep the loads even (the first choices of
        // the queues it takes no longer fill up the same way).
        const share = after.filter((w) => w === live[n]).length;
        expect(share).toBeGreaterThanOrEqual(Math.floor(PARTITIONS / (n + 1)));
        expect(moved - share).toBeLessThanOrEqual(7);
      }
    }
  });
});
