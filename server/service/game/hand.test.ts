/**
 * A hand is not a board: an End turn whose frame shows a hand over the board waits for the camera's next clear
 * frame when the camera is streaming, and holds (saying why) when no clear frame comes. The vision is replaced by
 * a queue of readings made by hand, so the timing is the session's alone.
 *
 * Size: each way a hand, a wait or a stale End turn meets the game (streaming, a worker dying, another instance,
 * Scrabble Me's boards), each with its own short game.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BoardReading } from '../../../vision/index.ts';
import { startRedis } from '../../dev/servers.ts';
import type { GameSnapshot, MeSnapshot } from '../../protocol/index.ts';

const readings = vi.hoisted(() => [] as BoardReading[]);
/** How many times a camera was told to forget what it learnt of the set. */
const forgotten = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../vision/index.ts', async (original) => {
  const recognize = async () => {
    const next = readings.shift();
    if (!next) throw new Error('no reading queued');
    return next;
  };
  // A camera's frames are the queued readings too (it learns nothing from them: they have no features).
  const Camera = class {
    read = recognize;
    learn = () => 0;
    unlearn = () => {
      forgotten.count++;
    };
  };
  return { ...(await original<typeof import('../../../vision/index.ts')>()), recognize, Camera };
});

const { SqliteStore } = await import('../../store/sqlite.ts');
const { GameService } = await import('../service.ts');
const { parseGameConfig } = await import('../validate.ts');
const { handWaitKey, partitionOf, PARTITIONS, WorkConsumer, WorkQueue } = await import('../hall/work.ts');

const dir = mkdtempSync(join(tmpdir(), 'tilecam-hand-'));
const store = new SqliteStore(join(dir, 'games.db'));
const service = new GameService(store);
afterAll(() => {
  service.stopAll();
  store.close();
});
// A test that fails leaves no readings queued for the next.
beforeEach(() => {
  readings.length = 0;
});
const photo = readFileSync(new URL('../../../fixtures/demo_game/1.jpg', import.meta.url));
const rowsWith = (row8: string) => Array.from({ length: 15 }, (_, r) => (r === 7 ? row8 : '.'.repeat(15)));

/** WINDY on row 8; with `hand`, a hand over its last two squares (the model sees mostly a hand there), its arm
 *  reaching in from the board's near edge down columns G and H. */
function reading(hand: boolean): BoardReading {
  const arm = Array.from({ length: 7 }, (_, k) => [6, 7].map((col) => ({ row: 8 + k, col }))).flat();
  const squares = hand ? [...[6, 7].map((col) => ({ row: 7, col })), ...arm] : [];
  return {
    board: rowsWith(hand ? '...WIN.........' : '...WINDY.......'),
    confidence: Array.from({ length: 15 }, () => Array(15).fill(0.99)),
    unsure: squares,
    alternatives: squares.map(({ row, col }) => ({
      row,
      col,
      options: [
        { tile: '#', p: 0.8 },
        { tile: '.', p: 0.1 },
      ],
    })),
    corners: [
      [0, 0],
      [100, 0],
      [100, 100],
      [0, 100],
    ],
    rotation: 0,
    ms: { decode: 0, locate: 0, classify: 0, total: 0 },
  };
}
/** A new game, loaded: its snapshot can be read at once. */
const newGame = async () => {
  const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
  await service.session(id);
  return id;
};
const snap = (id: string) => service.loadedGame(id)!.snapshot() as GameSnapshot;
const turns = (id: string) => snap(id).turns.length;

/** WINDY on row 8, read surely but for one square, in doubt between `options`. */
function doubtAt(row: number, col: number, options: { tile: string; p: number }[]): BoardReading {
  return { ...reading(false), unsure: [{ row, col }], alternatives: [{ row, col, options }] };
}

/** WINDY on row 8, its Y (8H) in doubt with a hand's share: the model finds the square odd, as it does a far square
 *  seen edge-on, but nothing joins it to the board's edge. */
const oddSquare = () =>
  doubtAt(7, 7, [
    { tile: 'Y', p: 0.7 },
    { tile: '#', p: 0.3 },
  ]);

describe('no hand where none is', () => {
  it('ends the turn at once on a still board whose odd square no arm reaches', async () => {
    const id = await newGame();
    readings.push(oddSquare(), oddSquare());
    expect((await service.submitFrame(id, photo, false)).status).toBe('waiting'); // the camera streams
    const ended = await service.submitFrame(id, photo, true);
    expect(ended.reasons ?? []).not.toContain('hand in view: the next clear frame ends the turn');
    expect(ended.status).toBe('committed');
    expect(turns(id)).toBe(1);
    expect(snap(id).players[0]!.score).toBe(32);
  });
});

describe('a rack kept while a reading waits', () => {
  it('is refused, and the reading waiting for the scorekeeper stays', async () => {
    const id = await newGame();
    readings.push(oddSquare(), oddSquare());
    await service.submitFrame(id, photo, false);
    expect((await service.submitFrame(id, photo, true)).status).toBe('committed');
    // The next move's new tile under WINDY's I, B or R alike: held for the scorekeeper.
    const doubt = (): BoardReading => ({
      ...doubtAt(8, 4, [
        { tile: 'B', p: 0.5 },
        { tile: 'R', p: 0.5 },
      ]),
      board: rowsWith('...WINDY.......').map((r, i) => (i === 8 ? '....B..........' : r)),
    });
    readings.push(doubt(), doubt());
    // Another photo: the one that ended the last turn, sent again, would be a doubled End turn.
    const next = Buffer.concat([photo, Buffer.from([0])]);
    await service.submitFrame(id, next, false);
    expect((await service.submitFrame(id, next, true)).status).toBe('needs-confirmation');
    await expect(service.act(id, { type: 'rack', turn: 1, rack: 'DINNVWY' })).rejects.toThrow(
      /settle it first/,
    );
    expect(snap(id).pending).not.toBeNull();
    // Let go, the rack is kept, and nothing else changes.
    await service.act(id, { type: 'dismiss' });
    expect((await service.act(id, { type: 'rack', turn: 1, rack: 'DINNVWY' })).status).toBe('committed');
    expect(turns(id)).toBe(1);
    expect(snap(id).players[0]!.score).toBe(32);
    expect(service.loadedGame(id)!.gcg({ racks: true })).toMatch(/: DINNVWY 8D WINDY \+32 32/);
  });
});

describe('a hand over the board at End turn', () => {
  it('waits for the streaming camera’s next clear frame, which ends the turn', async () => {
    const id = await newGame();
    readings.push(reading(false), reading(true), reading(false));
    expect((await service.submitFrame(id, photo, false)).status).toBe('waiting'); // the camera streams
    const ended = await service.submitFrame(id, photo, true);
    expect(ended).toEqual({
      status: 'waiting',
      reasons: ['hand in view: the next clear frame ends the turn'],
    });
    expect(turns(id)).toBe(0);
    // The hand is gone in the next frame: the turn ends with it.
    expect((await service.submitFrame(id, photo, false)).status).toBe('committed');
    expect(snap(id).players[0]!.score).toBe(32);
  });

  it('holds the reading, saying a hand is in view, when no clear frame comes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const id = await newGame();
      readings.push(reading(false), reading(true));
      await service.submitFrame(id, photo, false);
      expect((await service.submitFrame(id, photo, true)).status).toBe('waiting');
      vi.advanceTimersByTime(5000);
      await new Promise((r) => setImmediate(r)); // the hold runs in the game's queue
      const pending = snap(id).pending;
      expect(pending?.reasons).toEqual(['hand in view']);
      expect(turns(id)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds the waiting End turn at once when a worker gives the game up (its queue handed over, or stopping)', async () => {
    const id = await newGame();
    readings.push(reading(false), reading(true));
    await service.submitFrame(id, photo, false);
    expect((await service.submitFrame(id, photo, true)).status).toBe('waiting');
    expect((await service.session(id)).busy).toBe(true);
    await service.handler.settlePartition(partitionOf(id));
    expect(snap(id).pending?.reasons).toEqual(['hand in view']);
    expect((await service.session(id)).busy).toBe(false);
    expect(turns(id)).toBe(0);
  });

  it('holds a single uploaded photo with a hand at once (no camera streams)', async () => {
    const id = await newGame();
    readings.push(reading(true));
    expect(await service.submitFrame(id, photo, true)).toEqual({
      status: 'needs-confirmation',
      reasons: ['hand in view'],
    });
    // The held reading says where the board is in its photo and what the camera saw on the squares in doubt.
    const look = snap(id).pending?.look;
    expect(look?.corners).toEqual(reading(true).corners);
    expect(look?.squares.map((q) => [q.row, q.col, q.options[0]?.tile])).toEqual([
      [7, 6, '#'],
      [7, 7, '#'],
      ...Array.from({ length: 7 }, (_, k) => [
        [8 + k, 6, '#'],
        [8 + k, 7, '#'],
      ]).flat(),
    ]);
    // Kept across a restart, with the reading.
    const reloaded = new GameService(store);
    expect(((await reloaded.get(id)).snapshot() as GameSnapshot).pending?.look).toEqual(look);
    reloaded.stopAll();
  });
});

describe('an End turn waiting out a hand when its worker dies', () => {
  /**
   * A Redis, a queue, and worker A deciding the game's frames (a service of its own on the same database). A is then
   * killed as SIGKILL would: no more heartbeats, its jobs dropped, its database gone (its timer cannot hold the
   * reading), and its marks in Redis run out; worker B takes the queues over.
   */
  async function hall() {
    const redis = await startRedis();
    const marks = new Redis(redis.url);
    const storeA = new SqliteStore(join(dir, 'games.db'));
    const a = new GameService(storeA);
    let queue: Awaited<ReturnType<typeof WorkQueue.open>>;
    let workerA: Awaited<ReturnType<typeof WorkConsumer.start>>;
    try {
      queue = await WorkQueue.open(redis.url);
      workerA = await WorkConsumer.start(redis.url, a.handler);
    } catch (err) {
      // Nothing left running when the hall cannot start.
      marks.disconnect();
      storeA.close();
      await redis.stop();
      throw err;
    }
    let killed = false;
    let workerB: Awaited<ReturnType<typeof WorkConsumer.start>> | undefined;
    const b = new GameService(store);
    const frame = (game: string, endTurn: boolean, camera = 0) =>
      queue.run({ kind: 'frame', game, frame: photo.toString('base64'), endTurn, camera });
    return {
      marks,
      queue,
      frame,
      a,
      b,
      workerB: () => workerB!,
      /** A's heartbeat stopped (it would take notes away, or write them again), A still alive. */
      stopHeartbeatA() {
        clearInterval((workerA as unknown as { heartbeat: NodeJS.Timeout }).heartbeat);
      },
      async killA() {
        const dead = workerA as unknown as {
          heartbeat: NodeJS.Timeout;
          closed: boolean;
          workers: Map<number, { close(force?: boolean): Promise<void> }>;
          commands: Redis;
        };
        killed = true;
        dead.closed = true;
        clearInterval(dead.heartbeat);
        // Between jobs: the last one's completion is let through (killed in the middle of it, its job would be done
        // again by B, which work.test.ts and test/workers.test.ts cover).
        await Promise.all([...dead.workers.values()].map((w) => w.close()));
        dead.commands.disconnect();
        a.stopAll();
        storeA.close();
        // What runs out by itself 6 s after a kill: its heartbeat and its leases.
        await marks.zrem('tilecam:workers', workerA.id);
        await marks.del(...Array.from({ length: PARTITIONS }, (_, p) => `tilecam:queue-owner:${p}`));
        workerB = await WorkConsumer.start(redis.url, b.handler);
      },
      async close() {
        // A test that failed before A was killed: A stops as a worker does.
        if (!killed) {
          await workerA.close();
          await a.stopAll();
          storeA.close();
        }
        marks.disconnect();
        await queue.close();
        await workerB?.close();
        b.stopAll();
        await redis.stop();
      },
    };
  }

  it('is gone on with by the worker that takes the game over: the camera’s next clear frame ends the turn', async () => {
    const h = await hall();
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      readings.push(reading(false), reading(true));
      expect((await h.frame(id, false)).result.status).toBe('waiting'); // the camera streams
      expect((await h.frame(id, true)).result).toEqual({
        status: 'waiting',
        reasons: ['hand in view: the next clear frame ends the turn'],
      });
      // Noted for the next worker before the answer came: camera 0's End turn, the game at version 0.
      expect(await h.marks.hgetall(handWaitKey(id))).toEqual({ '0': '0' });
      await h.killA();
      // The hand is gone in the camera's next frame, which worker B reads: the turn ends with it.
      readings.push(reading(false));
      expect((await h.frame(id, false)).result.status).toBe('committed');
      const game = h.b.loadedGame(id)!.snapshot() as GameSnapshot;
      expect(game.turns).toHaveLength(1);
      expect(game.players[0]!.score).toBe(32);
      expect(h.workerB().done.wentOn).toBe(1);
      expect(await h.marks.exists(handWaitKey(id))).toBe(0);
      // The End turn is over: the next frame only feeds the views.
      readings.push(reading(false));
      expect((await h.frame(id, false)).result.status).toBe('waiting');
    } finally {
      await h.close();
    }
  }, 30_000);

  it('goes on with each seat’s End turn in Scrabble Me, whichever seat’s turn is recorded first', async () => {
    const h = await hall();
    try {
      const { id } = await service.create(
        parseGameConfig({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'EATRSN' }),
      );
      readings.push(reading(false), reading(true), reading(false), reading(true));
      for (const seat of [0, 1]) {
        await h.frame(id, false, seat);
        expect((await h.frame(id, true, seat)).result.status).toBe('waiting');
      }
      // Each wait's mark: the round (from version 0) and the board.
      expect(await h.marks.hgetall(handWaitKey(id))).toEqual({ '0': '0/0', '1': '0/1' });
      await h.killA();
      readings.push(reading(false), reading(false));
      expect((await h.frame(id, false, 0)).result.status).toBe('ended-turn');
      // Seat 0's turn is recorded (the game's version has moved on): seat 1's End turn still stands.
      expect(await h.marks.hgetall(handWaitKey(id))).toEqual({ '1': '0/1' });
      expect((await h.frame(id, false, 1)).result.status).not.toBe('waiting');
      const game = h.b.loadedGame(id)!.snapshot() as MeSnapshot;
      expect(game.rounds).toHaveLength(1);
      expect(h.workerB().done.wentOn).toBe(2);
      expect(await h.marks.exists(handWaitKey(id))).toBe(0);
    } finally {
      await h.close();
    }
  }, 30_000);

  it('is not gone on with once anything was recorded in the game, or End turn was pressed again', async () => {
    const h = await hall();
    const waiting = async () => {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      readings.push(reading(false), reading(true));
      await h.frame(id, false);
      expect((await h.frame(id, true)).result.status).toBe('waiting');
      return id;
    };
    try {
      const passed = await waiting();
      const again = await waiting();
      await h.killA();
      // The scorekeeper records a pass on worker B first: the camera's next frame is only a frame.
      expect((await h.queue.run({ kind: 'act', game: passed, action: { type: 'pass' } })).result.status).toBe(
        'committed',
      );
      expect(await h.marks.exists(handWaitKey(passed))).toBe(0);
      readings.push(reading(false));
      expect((await h.frame(passed, false)).result.status).toBe('waiting');
      // End turn pressed again, the hand still there: held at once (B has seen no stream yet), and not gone on with
      // later.
      readings.push(reading(true), reading(false));
      expect((await h.frame(again, true)).result.status).toBe('needs-confirmation');
      expect(await h.marks.exists(handWaitKey(again))).toBe(0);
      expect((await h.frame(again, false)).result.status).toBe('waiting');
      expect((h.b.loadedGame(again)!.snapshot() as GameSnapshot).pending?.reasons).toEqual(['hand in view']);
      expect(h.workerB().done.wentOn).toBe(0);
    } finally {
      await h.close();
    }
  }, 30_000);

  it.each([
    { kind: 'a classic game', config: { players: ['Ann', 'Ben'] } },
    { kind: 'Scrabble Me', config: { players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'EATRSN' } },
  ])(
    'is not gone on with once the reading was held, its note left behind by the kill ($kind)',
    async ({ config }) => {
      const h = await hall();
      // The reading held for seat 0's board, as the scorekeeper's page shows it.
      const held = (game: { snapshot(): unknown }) => {
        const s = game.snapshot() as GameSnapshot | MeSnapshot;
        return 'boards' in s ? s.boards[0]!.pending : s.pending;
      };
      try {
        const { id } = await service.create(parseGameConfig(config));
        readings.push(reading(false), reading(true));
        await h.frame(id, false);
        expect((await h.frame(id, true)).result.status).toBe('waiting');
        const note = await h.marks.hgetall(handWaitKey(id));
        // No clear frame comes: A's timer holds the reading (4 s), and A dies before its heartbeat takes the note
        // away: the note is left as it was.
        const since = Date.now();
        while (!held(h.a.loadedGame(id)!) && Date.now() - since < 10_000)
          await new Promise((r) => setTimeout(r, 50));
        h.stopHeartbeatA();
        await h.marks.hset(handWaitKey(id), note);
        await h.marks.pexpire(handWaitKey(id), 10_000);
        await h.killA();
        // The camera's next clear frame on B is only a frame: the held reading waits for the scorekeeper's click.
        readings.push(reading(false));
        expect((await h.frame(id, false)).result.status).toBe('waiting');
        expect(h.workerB().done.wentOn).toBe(0);
        expect(held(h.b.loadedGame(id)!)?.reasons).toEqual(['hand in view']);
      } finally {
        await h.close();
      }
    },
    30_000,
  );

  it('is not gone on with once its time has run out (a later move is never joined to it)', async () => {
    const h = await hall();
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      readings.push(reading(false), reading(true));
      await h.frame(id, false);
      expect((await h.frame(id, true)).result.status).toBe('waiting');
      await h.killA();
      // B looks at the note with 300 ms of it left (an action that changes nothing), and the frame comes later.
      await h.marks.pexpire(handWaitKey(id), 300);
      const refused = await h.queue
        .run({ kind: 'act', game: id, action: { type: 'confirm' } })
        .catch((e) => e);
      expect(refused).toMatchObject({ code: 'not-allowed' });
      await new Promise((r) => setTimeout(r, 500));
      readings.push(reading(false));
      expect((await h.frame(id, false)).result.status).toBe('waiting');
      expect(h.workerB().done.wentOn).toBe(0);
    } finally {
      await h.close();
    }
  }, 30_000);

  it('is no longer noted once it ended here: by a clear frame, or held when no clear frame came', async () => {
    const h = await hall();
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      await h.killA();
      readings.push(reading(false), reading(true), reading(false));
      await h.frame(id, false);
      expect((await h.frame(id, true)).result.status).toBe('waiting');
      expect(await h.marks.hgetall(handWaitKey(id))).toEqual({ '0': '0' });
      expect((await h.frame(id, false)).result.status).toBe('committed');
      expect(await h.marks.exists(handWaitKey(id))).toBe(0);
      // In another game no clear frame comes: held after 4 s by the session's timer, and the note goes at the next
      // heartbeat.
      const other = (await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }))).id;
      readings.push(reading(false), reading(true));
      await h.frame(other, false);
      expect((await h.frame(other, true)).result.status).toBe('waiting');
      expect(await h.marks.hgetall(handWaitKey(other))).toEqual({ '0': '0' });
      const since = Date.now();
      while ((await h.marks.exists(handWaitKey(other))) === 1 && Date.now() - since < 15_000)
        await new Promise((r) => setTimeout(r, 100));
      expect((h.b.loadedGame(other)!.snapshot() as GameSnapshot).pending?.reasons).toEqual(['hand in view']);
      expect(await h.marks.exists(handWaitKey(other))).toBe(0);
      // Not before the wait ran out (4 s).
      expect(Date.now() - since).toBeGreaterThan(3000);
    } finally {
      await h.close();
    }
  }, 40_000);
});

describe('a game changed by another instance (no queue) while an End turn waits out a hand here', () => {
  it('ends the wait when anything is recorded there', async () => {
    const id = await newGame();
    readings.push(reading(false), reading(true));
    await service.submitFrame(id, photo, false);
    expect((await service.submitFrame(id, photo, true)).status).toBe('waiting');
    const elsewhere = new GameService(store);
    try {
      expect((await elsewhere.act(id, { type: 'pass' })).status).toBe('committed');
      service.loadedGame(id)!.refresh((await store.getGame(id))!);
      expect((await service.session(id)).busy).toBe(false);
      // The camera's next clear frame is only a frame: the pass stands alone, nobody else's turn was ended.
      readings.push(reading(false));
      expect((await service.submitFrame(id, photo, false)).status).toBe('waiting');
      expect(turns(id)).toBe(1);
    } finally {
      elsewhere.stopAll();
    }
  });

  it('Scrabble Me: ends the waits over a board whose turn is recorded there, and forgets on a correction', async () => {
    const { id } = await service.create(
      parseGameConfig({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'EATRSN' }),
    );
    readings.push(reading(false), reading(true), reading(false), reading(true));
    for (const seat of [0, 1]) {
      await service.submitFrame(id, photo, false, { camera: seat });
      expect((await service.submitFrame(id, photo, true, { camera: seat })).status).toBe('waiting');
    }
    const elsewhere = new GameService(store);
    const here = () => service.loadedGame(id)!;
    try {
      readings.push(reading(false));
      expect((await elsewhere.submitFrame(id, photo, true, { camera: 0 })).status).toBe('ended-turn');
      here().refresh((await store.getGame(id))!);
      // Seat 0's wait is over (its board's turn is recorded); seat 1's goes on.
      expect(here().endTurnsWaiting.map((w) => w.camera)).toEqual([1]);
      readings.push(reading(false));
      expect((await service.submitFrame(id, photo, false, { camera: 1 })).status).not.toBe('waiting');
      expect((here().snapshot() as MeSnapshot).rounds).toHaveLength(1);
      // The round taken back there: the cameras here forget what they learnt from it.
      const before = forgotten.count;
      elsewhere.loadedGame(id)!.refresh((await store.getGame(id))!);
      expect((await elsewhere.act(id, { type: 'undo' })).status).toBe('committed');
      here().refresh((await store.getGame(id))!);
      expect(forgotten.count).toBeGreaterThan(before);
    } finally {
      elsewhere.stopAll();
    }
  });
});

describe('End turn pressed on the scorekeeper’s page', () => {
  it('reads the camera’s last frame while the camera sends, and refuses one it stopped sending 20 s ago', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const id = await newGame();
      readings.push(reading(false));
      await service.submitFrame(id, photo, false);
      // The phone's screen locks: no frame for 25 s, and the board may have moved on meanwhile.
      vi.setSystemTime(Date.now() + 25_000);
      const refused = await service.act(id, { type: 'end-turn' }).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: 'not-allowed' });
      expect((refused as Error).message).toMatch(/the last frame from the camera is 25 s old/);
      expect(turns(id)).toBe(0); // no pass made of an old picture
      // The camera sends again, but its pictures show no board (no reading comes of them): it is told so.
      await expect(service.submitFrame(id, photo, false)).rejects.toThrow();
      const noBoard = await service.act(id, { type: 'end-turn' }).catch((err: unknown) => err);
      expect((noBoard as Error).message).toMatch(/the camera has shown no board for 25 s/);
      // The camera sends again: End turn reads that frame.
      readings.push(reading(false), reading(false));
      await service.submitFrame(id, photo, false);
      vi.setSystemTime(Date.now() + 5_000);
      expect((await service.act(id, { type: 'end-turn' })).status).toBe('committed');
      expect(snap(id).players[0]!.score).toBe(32);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a committed square read as something else', () => {
  /** WINDY with its W read confidently as an M. */
  const knocked = (): BoardReading => ({ ...reading(false), board: rowsWith('...MINDY.......') });

  it('is a notice for the scorekeeper after two frames running, and holds nothing', async () => {
    const id = await newGame();
    readings.push(reading(false), reading(false), knocked(), knocked(), reading(false));
    await service.submitFrame(id, photo, false);
    expect((await service.submitFrame(id, photo, true)).status).toBe('committed');
    await service.submitFrame(id, photo, false);
    expect(snap(id).disturbed).toEqual([]); // once may be a shadow
    await service.submitFrame(id, photo, false);
    expect(snap(id).disturbed).toEqual([{ row: 7, col: 3 }]);
    expect(snap(id).pending).toBeNull();
    await service.submitFrame(id, photo, false);
    expect(snap(id).disturbed).toEqual([]);
    expect(snap(id).board[7]).toBe('...WINDY.......');
  });
});

describe('a forgotten End turn', () => {
  it('holds two moves that could have been played in either order, naming both', async () => {
    const id = await newGame();
    const rows = (r: Record<number, string>) =>
      Array.from({ length: 15 }, (_, i) => (r[i] ?? '').padEnd(15, '.'));
    await service.act(id, { type: 'confirm', board: rows({ 7: '..HORSES' }) });
    const both = rows({ 7: '..HORSES', 8: '...CAT.A', 9: '.......X', 10: '.......E' });
    const result = await service.act(id, { type: 'confirm', board: both });
    expect(result.status).toBe('needs-confirmation');
    expect(result.reasons?.[0]).toMatch(/two moves at once, legal in either order/);
    expect(snap(id).turns).toHaveLength(1);
  });
});

describe('Scrabble Me: the same decisions on each player’s board', () => {
  const newMeGame = async () => {
    const { id } = await service.create(
      parseGameConfig({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'EATRSN' }),
    );
    await service.session(id);
    return id;
  };
  const meSnap = (id: string) => service.loadedGame(id)!.snapshot() as MeSnapshot;

  it('waits out a hand on a streaming seat’s End turn, and records how the board was read', async () => {
    const id = await newMeGame();
    readings.push(reading(false), reading(true), reading(false));
    expect((await service.submitFrame(id, photo, false, { camera: 0 })).status).toBe('waiting');
    const ended = await service.submitFrame(id, photo, true, { camera: 0 });
    expect(ended).toMatchObject({
      status: 'waiting',
      reasons: ['hand in view: the next clear frame ends the turn'],
    });
    expect((await service.session(id)).busy).toBe(true);
    expect(meSnap(id).boards[0]!.ended).toBe(false);
    expect((await service.submitFrame(id, photo, false, { camera: 0 })).status).toBe('ended-turn');
    expect(meSnap(id).boards[0]).toMatchObject({ ended: true, decided: { how: 'read' } });
    expect((await service.session(id)).busy).toBe(false);
  });

  it('holds the reading, saying a hand is in view, when no clear frame comes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const id = await newMeGame();
      readings.push(reading(false), reading(true));
      await service.submitFrame(id, photo, false, { camera: 1 });
      expect((await service.submitFrame(id, photo, true, { camera: 1 })).status).toBe('waiting');
      vi.advanceTimersByTime(5000);
      await new Promise((r) => setImmediate(r));
      expect(meSnap(id).boards[1]!.pending?.reasons).toEqual(['hand in view']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds a seat’s waiting End turn at once when a worker gives the game up', async () => {
    const id = await newMeGame();
    readings.push(reading(false), reading(true));
    await service.submitFrame(id, photo, false, { camera: 1 });
    expect((await service.submitFrame(id, photo, true, { camera: 1 })).status).toBe('waiting');
    await service.handler.settlePartition(partitionOf(id));
    expect(meSnap(id).boards[1]!.pending?.reasons).toEqual(['hand in view']);
    expect((await service.session(id)).busy).toBe(false);
  });

  it('decides a doubtful letter by the lexicon, and says so', async () => {
    const id = await newMeGame();
    // The W of WINDY read more likely an M: WINDY is a word, MINDY is not, and the word decides.
    const doubtful = doubtAt(7, 3, [
      { tile: 'M', p: 0.5 },
      { tile: 'W', p: 0.45 },
    ]);
    readings.push(doubtful);
    expect((await service.submitFrame(id, photo, true, { camera: 0 })).status).toBe('ended-turn');
    const decided = meSnap(id).boards[0]!.decided;
    expect(decided?.how).toBe('context');
    expect(decided?.squares?.[0]).toMatchObject({ row: 7, col: 3, tile: 'W' });
    // Kept across a restart: the service loads the game again from the store.
    const reloaded = new GameService(store);
    expect(((await reloaded.get(id)).snapshot() as MeSnapshot).boards[0]!.decided?.how).toBe('context');
    reloaded.stopAll();
  });
});
