/**
 * A hand is not a board: an End turn whose frame shows a hand over the board waits for the camera's next clear
 * frame when the camera is streaming, and holds (saying why) when no clear frame comes. The vision is replaced by
 * a queue of readings made by hand, so the timing is the session's alone.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { BoardReading } from '../../vision/index.ts';
import type { GameSnapshot, MeSnapshot } from '../protocol/index.ts';

const readings = vi.hoisted(() => [] as BoardReading[]);
vi.mock('../../vision/index.ts', async (original) => {
  const recognize = async () => {
    const next = readings.shift();
    if (!next) throw new Error('no reading queued');
    return next;
  };
  // A camera's frames are the queued readings too (it learns nothing from them: they have no features).
  const Camera = class {
    read = recognize;
    learn = () => 0;
  };
  return { ...(await original<typeof import('../../vision/index.ts')>()), recognize, Camera };
});

const { SqliteStore } = await import('../store/sqlite.ts');
const { GameService } = await import('./service.ts');
const { parseGameConfig } = await import('./validate.ts');
const { partitionOf } = await import('./work.ts');

const dir = mkdtempSync(join(tmpdir(), 'tilecam-hand-'));
const store = new SqliteStore(join(dir, 'games.db'));
const service = new GameService(store);
afterAll(() => {
  service.stopAll();
  store.close();
});
const photo = readFileSync(new URL('../../fixtures/demo_game/1.jpg', import.meta.url));
const rowsWith = (row8: string) => Array.from({ length: 15 }, (_, r) => (r === 7 ? row8 : '.'.repeat(15)));

/** WINDY on row 8; with `hand`, a hand over its last two squares (the model sees mostly a hand there). */
function reading(hand: boolean): BoardReading {
  const squares = hand ? [6, 7].map((col) => ({ row: 7, col })) : [];
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
  await service.get(id);
  return id;
};
const snap = (id: string) => service.loadedGame(id)!.snapshot() as GameSnapshot;
const turns = (id: string) => snap(id).turns.length;

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
    expect((await service.get(id)).busy).toBe(true);
    await service.handler.settlePartition(partitionOf(id));
    expect(snap(id).pending?.reasons).toEqual(['hand in view']);
    expect((await service.get(id)).busy).toBe(false);
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
    ]);
    // Kept across a restart, with the reading.
    const reloaded = new GameService(store);
    expect(((await reloaded.get(id)).snapshot() as GameSnapshot).pending?.look).toEqual(look);
    reloaded.stopAll();
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
    await service.get(id);
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
    expect((await service.get(id)).busy).toBe(true);
    expect(meSnap(id).boards[0]!.ended).toBe(false);
    expect((await service.submitFrame(id, photo, false, { camera: 0 })).status).toBe('ended-turn');
    expect(meSnap(id).boards[0]).toMatchObject({ ended: true, decided: { how: 'read' } });
    expect((await service.get(id)).busy).toBe(false);
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
    expect((await service.get(id)).busy).toBe(false);
  });

  it('decides a doubtful letter by the lexicon, and says so', async () => {
    const id = await newMeGame();
    // The W of WINDY read more likely an M: WINDY is a word, MINDY is not, and the word decides.
    const doubtful: BoardReading = {
      ...reading(false),
      unsure: [{ row: 7, col: 3 }],
      alternatives: [
        {
          row: 7,
          col: 3,
          options: [
            { tile: 'M', p: 0.5 },
            { tile: 'W', p: 0.45 },
          ],
        },
      ],
    };
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
