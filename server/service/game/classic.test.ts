/**
 * The classic game as the service plays it: auto capture, tile counts, the clocks, archiving, a store that refuses,
 * catching up, what no move can be, turns ended behind a held move, blanks. Size: one short game a rule.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { BoardReading } from '../../../vision/index.ts';
import { parseBoard } from '../../engine/index.ts';
import { SqliteStore } from '../../store/sqlite.ts';
import { GameService } from '../service.ts';
import { GameSession } from './classic.ts';
import { FrameIntake } from './live.ts';

const dir = mkdtempSync(join(tmpdir(), 'tilecam-session-'));
const store = new SqliteStore(join(dir, 'games.db'));
afterAll(() => store.close());
const photo = (n: number) => readFileSync(new URL(`../../../fixtures/demo_game/${n}.jpg`, import.meta.url));

/** A new English two-player classic game in `service`, captured as `capture` says. */
async function classicGame(service: GameService, capture: 'auto' | 'button'): Promise<GameSession> {
  const { id } = await service.create({
    players: ['Ann', 'Ben'],
    lang: 'en',
    variant: 'classic',
    challengeRule: 'double',
    capture,
  });
  const session = await service.session(id);
  if (!(session instanceof GameSession)) throw new Error('expected a classic game');
  return session;
}

describe('auto capture', () => {
  it('commits a reading once it has been the same for enough frames and time, and not before', async () => {
    const session = await classicGame(new GameService(store, { frames: 3, ms: 2000 }), 'auto');
    const t0 = 1_000_000;
    // The scorekeeper enters the first move by hand; the camera then watches the second.
    const board1 = readFileSync(new URL('../../../fixtures/demo_game/1.txt', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    expect((await session.act({ type: 'confirm', board: board1 })).status).toBe('committed');
    // The same confident reading three times, but not yet 2 s after it first appeared: still waiting.
    expect((await session.submitFrame(photo(2), false, { now: t0 })).status).toBe('waiting');
    expect((await session.submitFrame(photo(2), false, { now: t0 + 500 })).status).toBe('waiting');
    expect((await session.submitFrame(photo(2), false, { now: t0 + 1000 })).status).toBe('waiting');
    expect(session.snapshot().turns).toHaveLength(1);
    // Still the same after 2 s: committed, without anyone pressing a button.
    const settled = await session.submitFrame(photo(2), false, { now: t0 + 2100 });
    expect(settled.status).toBe('committed');
    expect(session.snapshot().players.map((p) => p.score)).toEqual([32, 9]);
    // A still board that has not changed since is left alone.
    for (const t of [3000, 3500, 4000, 6000])
      expect((await session.submitFrame(photo(2), false, { now: t0 + t })).status).not.toBe('committed');
  });
});

describe('tile counts', () => {
  it('holds a reading that shows more tiles of a letter than the set has, naming the square', async () => {
    const session = await classicGame(new GameService(store), 'button');
    const za = Array.from({ length: 15 }, (_, r) => (r === 7 ? '......ZA.......' : '.'.repeat(15)));
    expect((await session.act({ type: 'confirm', board: za })).status).toBe('committed');
    // The photo shows ADZ down through the A: a second Z, and English has one.
    const bytes = readFileSync(new URL('../../../fixtures/photos/a_second_z_tile.jpg', import.meta.url));
    const held = await session.submitFrame(bytes, true);
    expect(held).toEqual({
      status: 'needs-confirmation',
      reasons: ['the board would hold 2 Z tiles; the English tile set has 1'],
    });
    expect(session.snapshot().pending?.squares).toEqual([{ row: 9, col: 7 }]);
    expect(session.snapshot().turns).toHaveLength(1);
    // What it would score, confirmed as it stands: the scorekeeper sees it before deciding.
    const preview = session.snapshot().pending?.preview;
    expect(preview).toBeDefined();
    // The scorekeeper may know better (another set): confirming commits it, with the score the preview said.
    expect((await session.act({ type: 'confirm' })).status).toBe('committed');
    expect(session.snapshot().turns).toHaveLength(2);
    expect(session.snapshot().turns[1]).toMatchObject({
      points: preview?.points,
      position: preview?.position,
    });
    expect(preview?.sentence).toBe(`${preview?.points}`);
    expect(preview?.words).toHaveLength(1);
    expect(preview?.words[0]).toMatch(new RegExp(`^ADZ: .* = ${preview?.points}$`));
  });
});

describe('the turn clock', () => {
  it('gives each player the time up to the turns they ended, a challenge’s to the challenger, and keeps it across a restart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.parse('2026-11-23T10:00:00.000Z');
      vi.setSystemTime(start);
      const service = new GameService(store);
      const session = await classicGame(service, 'button');
      const board1 = readFileSync(new URL('../../../fixtures/demo_game/1.txt', import.meta.url), 'utf8')
        .trimEnd()
        .split('\n');
      // Ann takes 90 s for her move; Ben challenges it 20 s later (his time): the word stands, and under the double
      // challenge rule he loses his turn; Ann passes 40 s on.
      vi.setSystemTime(start + 90_000);
      expect((await session.act({ type: 'confirm', board: board1 })).status).toBe('committed');
      vi.setSystemTime(start + 110_000);
      expect((await session.act({ type: 'challenge', player: 1, acceptable: true })).status).toBe(
        'committed',
      );
      vi.setSystemTime(start + 150_000);
      expect((await session.act({ type: 'pass' })).status).toBe('committed');
      vi.setSystemTime(start + 155_000);
      const clock = session.snapshot().clock;
      expect(clock).toMatchObject({
        started: '2026-11-23T10:00:00.000Z',
        since: '2026-11-23T10:02:30.000Z',
        used: [130_000, 20_000],
        running: true,
      });
      // Rebuilt from the store, the clock is the same.
      const again = (await new GameService(store).get(session.id)) as GameSession;
      expect(again?.snapshot()).toMatchObject({ clock: { used: [130_000, 20_000], since: clock.since } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the game clock', () => {
  it('takes the overtime penalty at the end: 10 points for each minute or part of one over the limit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.parse('2026-11-23T12:00:00.000Z');
      vi.setSystemTime(start);
      const service = new GameService(store);
      const { id } = await service.create({
        players: ['Ann', 'Ben'],
        lang: 'en',
        variant: 'classic',
        challengeRule: 'double',
        capture: 'button',
        clockMinutes: 1,
      });
      const session = (await service.session(id)) as GameSession;
      const board1 = readFileSync(new URL('../../../fixtures/demo_game/1.txt', import.meta.url), 'utf8')
        .trimEnd()
        .split('\n');
      // Ann takes 2 min 30 s for her move (1 min 30 s over: two minutes begun, 20 points); Ben 10 s for a pass.
      vi.setSystemTime(start + 150_000);
      await session.act({ type: 'confirm', board: board1 });
      const scored = session.snapshot().players[0]!.score;
      vi.setSystemTime(start + 160_000);
      await session.act({ type: 'pass' });
      expect(session.snapshot().clock.limit).toEqual({ minutes: 1, pointsPerMinute: 10 });
      // Ann's clock runs 20 s more before the scorekeeper ends the game: still two minutes begun.
      vi.setSystemTime(start + 180_000);
      expect((await session.act({ type: 'end', racks: ['', ''] })).status).toBe('committed');
      const end = session.snapshot();
      expect(end.turns.filter((t) => t.kind === 'time-penalty')).toEqual([
        expect.objectContaining({ player: 0, points: -20 }),
      ]);
      expect(end.players[0]!.score).toBe(scored - 20);
      expect(end.clock).toMatchObject({ used: [170_000, 10_000], running: false });
      // Ended twice: refused, nothing charged again.
      await expect(session.act({ type: 'end', racks: ['', ''] })).rejects.toThrow(
        /racks are counted already/,
      );
      // Taken back and ended again a minute later: only the minute begun since costs more.
      await session.act({ type: 'undo' });
      vi.setSystemTime(start + 240_000);
      await session.act({ type: 'end', racks: ['', ''] });
      const again = session.snapshot();
      expect(again.turns.filter((t) => t.kind === 'time-penalty').reduce((sum, t) => sum + t.points, 0)).toBe(
        -30,
      );
      expect(again.players[0]!.score).toBe(scored - 30);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the clock as a broadcast field', () => {
  it('writes each player’s time as m:ss or h:mm:ss, the running turn counted to now', async () => {
    const { clockTexts, duration } = await import('./fields.ts');
    expect([0, 59_999, 60_000, 3_599_000, 3_600_000, 4_000_000].map(duration)).toEqual([
      '0:00',
      '0:59',
      '1:00',
      '59:59',
      '1:00:00',
      '1:06:40',
    ]);
    const session = await classicGame(new GameService(store), 'button');
    const s = session.snapshot();
    const since = Date.parse(s.clock.since);
    // Ann is to move: her running turn counts, Ben's time stands.
    expect(clockTexts(s, since + 75_000)).toEqual(['1:15', '0:00']);
  });
});

describe('archiving', () => {
  it('archives a game abandoned for a week, never one being played, and lists it as abandoned first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.parse('2026-11-01T10:00:00.000Z');
      vi.setSystemTime(start);
      const service = new GameService(store);
      const { id, token } = await service.create({
        players: ['Ann', 'Ben'],
        lang: 'en',
        variant: 'classic',
        challengeRule: 'double',
        capture: 'button',
      });
      await service.act(id, { type: 'pass' });
      vi.setSystemTime(start + 6 * 24 * 3600 * 1000);
      await expect(service.archive(id, token, true)).rejects.toThrow(/still being played/);
      const listed = async () => (await service.list({ limit: 100 })).games.find((g) => g.id === id);
      expect(await listed()).toMatchObject({ abandoned: false, archived: false, scores: [0, 0] });
      vi.setSystemTime(start + 8 * 24 * 3600 * 1000);
      expect(await listed()).toMatchObject({ abandoned: true });
      await service.archive(id, token, true);
      expect(await listed()).toBeUndefined();
      expect((await service.list({ status: 'archived', limit: 100 })).games.map((g) => g.id)).toContain(id);
      await expect(service.archive(id, 'not-the-token', false)).rejects.toThrow(/token/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a move the store refuses', () => {
  it('leaves the held reading and its photo as they were (another instance recorded the game’s next event first)', async () => {
    const { StoreConflict } = await import('../../store/types.ts');
    let refuse = false;
    // The same store, refusing the next append as PostgreSQL does when the event's number is taken.
    const refusing = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'appendEvents' && refuse)
          return async () => {
            refuse = false;
            throw new StoreConflict('event 2 is recorded already');
          };
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const service = new GameService(refusing);
    const session = await classicGame(service, 'button');
    const za = Array.from({ length: 15 }, (_, r) => (r === 7 ? '......ZA.......' : '.'.repeat(15)));
    await session.act({ type: 'confirm', board: za });
    const bytes = readFileSync(new URL('../../../fixtures/photos/a_second_z_tile.jpg', import.meta.url));
    expect((await session.submitFrame(bytes, true)).status).toBe('needs-confirmation');
    const held = session.snapshot().pending;
    const heldPhoto = held!.photo.split('/').pop()!;
    refuse = true;
    await expect(service.act(session.id, { type: 'confirm' })).rejects.toThrow(/another server recorded/);
    // Nothing changed: the reading still waits, with its photo, and no move photo was kept.
    expect((await service.session(session.id)).snapshot()).toMatchObject({
      version: 1,
      pending: { photo: held!.photo },
    });
    expect(await store.getPhoto(session.id, heldPhoto)).toBeDefined();
    expect(await store.getPhoto(session.id, 'event-2.jpg')).toBeUndefined();
    expect((await store.getGame(session.id))?.held).toHaveLength(1);
    // Confirmed again, it is recorded, its photo becoming the move's.
    expect((await service.act(session.id, { type: 'confirm' })).status).toBe('committed');
    expect(await store.getPhoto(session.id, 'event-2.jpg')).toBeDefined();
    expect(await store.getPhoto(session.id, heldPhoto)).toBeUndefined();
  });
});

describe('catching up with another instance', () => {
  it('makes the cameras forget what they learnt when the events caught up with take a move back', async () => {
    const { FrameIntake } = await import('./live.ts');
    const here = await classicGame(new GameService(store), 'button');
    const elsewhere = new GameService(store);
    const board1 = readFileSync(new URL('../../../fixtures/demo_game/1.txt', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    const forget = vi.spyOn(FrameIntake.prototype, 'forget');
    // The calls on this session's own intake (the other instance's commit forgets on its own).
    const intake = (here as unknown as { intake: unknown }).intake;
    const forgotten = () => forget.mock.contexts.filter((c) => c === intake).length;
    try {
      // Another instance records a move: caught up with here, nothing is forgotten.
      expect((await elsewhere.act(here.id, { type: 'confirm', board: board1 })).status).toBe('committed');
      here.refresh((await store.getGame(here.id))!);
      expect(here.version).toBe(1);
      expect(forgotten()).toBe(0);
      // It takes the move back (a correction): caught up with here, the cameras forget.
      expect((await elsewhere.act(here.id, { type: 'undo' })).status).toBe('committed');
      here.refresh((await store.getGame(here.id))!);
      expect(here.version).toBe(2);
      expect(forgotten()).toBe(1);
    } finally {
      forget.mockRestore();
      elsewhere.stopAll();
    }
  });
});

describe('what no move can be', () => {
  const row8 = (text: string) => Array.from({ length: 15 }, (_, r) => (r === 7 ? text : '.'.repeat(15)));

  it('holds more new tiles than a rack holds, naming the rack size, even when the scorekeeper confirms it', async () => {
    const session = await classicGame(new GameService(store), 'button');
    // Two names laid out on the board before the game: 13 tiles in one row.
    const names = row8('.INESSA?STEFAN.');
    const held = await session.act({ type: 'confirm', board: names });
    expect(held.status).toBe('needs-confirmation');
    expect(held.reasons?.[0]).toMatch(/^13 new tiles in one move: a rack holds 7\./);
    expect(session.snapshot().turns).toHaveLength(0);
    // Eight tiles are one too many for a rack of 7 …
    expect((await session.act({ type: 'confirm', board: row8('...SCRABBLE....') })).reasons?.[0]).toMatch(
      /^8 new tiles in one move: a rack holds 7/,
    );
    // … and seven are a move.
    expect((await session.act({ type: 'confirm', board: row8('....QUARTER....') })).status).toBe('committed');
  });

  it('allows nine in the nine-tile variant, and not ten', async () => {
    const { id } = await new GameService(store).create({
      players: ['Ann', 'Ben'],
      lang: 'en',
      variant: 'nine-tile',
      challengeRule: 'double',
      capture: 'button',
    });
    const session = await new GameService(store).session(id);
    expect((await session.act({ type: 'confirm', board: row8('..CRABAPPLES...') })).reasons?.[0]).toMatch(
      /^10 new tiles in one move: a rack holds 9/,
    );
    expect((await session.act({ type: 'confirm', board: row8('...ABANDONS....') })).status).toBe('committed');
  });

  it('holds a photo of an empty board after a move instead of recording a withdrawal', async () => {
    const session = await classicGame(new GameService(store), 'button');
    const board1 = readFileSync(new URL('../../../fixtures/demo_game/1.txt', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    expect((await session.act({ type: 'confirm', board: board1 })).status).toBe('committed');
    const held = await session.submitFrame(photo(0), true);
    expect(held).toEqual({
      status: 'needs-confirmation',
      reasons: [
        'the board is empty: every tile of the last move is gone. Confirm to record it as withdrawn, or take the reading back',
      ],
    });
    expect(session.snapshot().turns).toHaveLength(1);
    // The scorekeeper who knows it was withdrawn says so.
    expect((await session.act({ type: 'confirm' })).status).toBe('committed');
    expect(session.snapshot().players.map((p) => p.score)).toEqual([0, 0]);
  });
});

describe('turns ended while a move is held', () => {
  const board = (n: number) =>
    readFileSync(new URL(`../../../fixtures/demo_game/${n}.txt`, import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
  /** The camera's next reading (a stand-in for the model, so that a square is in doubt where the test says). */
  const nextReading = (rows: string[], unsure: { row: number; col: number }[] = []) => {
    const parsed = parseBoard(rows);
    if (!parsed.ok) throw new Error(parsed.message);
    vi.spyOn(FrameIntake.prototype, 'read').mockResolvedValueOnce({
      reading: { board: rows, unsure, alternatives: [] } as unknown as BoardReading,
      board: parsed.board,
    });
  };
  const frame = new Uint8Array([1]);

  it('wait behind it, are said on the panel, and are decided in order once it is confirmed (after a restart too)', async () => {
    const service = new GameService(store);
    const session = await classicGame(service, 'button');
    // Move 1 is read with a square in doubt: held.
    nextReading(board(1), [{ row: 7, col: 3 }]);
    expect((await session.submitFrame(frame, true)).status).toBe('needs-confirmation');
    // Two more End turns come (the players went on): each waits behind it; the held reading stays move 1.
    nextReading(board(2));
    expect(await session.submitFrame(new Uint8Array([2]), true)).toEqual({
      status: 'needs-confirmation',
      reasons: ['a move waits for the scorekeeper: this turn waits behind it (1 turn waits)'],
    });
    nextReading(board(3));
    expect((await session.submitFrame(new Uint8Array([3]), true)).reasons).toEqual([
      'a move waits for the scorekeeper: this turn waits behind it (2 turns wait)',
    ]);
    // The same turn again (End turn pressed twice) is a better look at it, not a third turn.
    nextReading(board(3));
    expect((await session.submitFrame(new Uint8Array([4]), true)).reasons?.[0]).toMatch(/2 turns wait/);
    expect(session.snapshot().pending).toMatchObject({ board: board(1), waiting: 2 });
    // A restart keeps them.
    const again = (await new GameService(store).get(session.id)) as GameSession;
    expect(again.snapshot().pending).toMatchObject({ board: board(1), waiting: 2 });
    // Confirmed: move 1, then the two turns behind it, in order, each by the player whose turn it was.
    expect((await again.act({ type: 'confirm' })).status).toBe('committed');
    const after = again.snapshot();
    expect(after.pending).toBeNull();
    expect(after.turns.map((t) => [t.player, t.points])).toEqual([
      [0, 32],
      [1, 9],
      [0, after.turns[2]!.points],
    ]);
    expect(after.board).toEqual(board(3));
  });

  it('an earlier photo sent again (tiles of earlier moves gone) is held, not taken as a withdrawal or a pass', async () => {
    const session = await classicGame(new GameService(store), 'button');
    for (const n of [1, 2, 3])
      expect((await session.act({ type: 'confirm', board: board(n) })).status).toBe('committed');
    // The photo of the empty board, fed again by mistake: read as facts, it would withdraw the last move.
    nextReading(Array.from({ length: 15 }, () => '.'.repeat(15)));
    const held = await session.submitFrame(frame, true);
    expect(held.status).toBe('needs-confirmation');
    expect(held.reasons?.[0]).toMatch(
      /^7 tiles of earlier moves look different or gone in this photo \(8D, 8E, 8F, 8G…\): an earlier photo/,
    );
    // The photo after move 1, sent again: move 2's tiles gone with the last move's; no withdrawal recorded.
    nextReading(board(1));
    expect((await session.submitFrame(new Uint8Array([5]), true)).reasons?.[0]).toMatch(
      /^2 tiles of earlier moves look different or gone in this photo \(9D, 9E\)/,
    );
    expect(session.snapshot().turns).toHaveLength(3);
    expect((await session.act({ type: 'dismiss' })).status).toBe('unchanged');
    expect(session.snapshot().turns).toHaveLength(3);
  });

  it('go on when the held reading is taken back (names laid out before the game)', async () => {
    const session = await classicGame(new GameService(store), 'button');
    const names = Array.from({ length: 15 }, (_, r) => (r === 7 ? '.INESSA?STEFAN.' : '.'.repeat(15)));
    nextReading(names);
    expect((await session.submitFrame(frame, true)).reasons?.[0]).toMatch(/^13 new tiles in one move/);
    // The scorekeeper says it was no move: the reading goes, nothing is recorded.
    expect(await session.act({ type: 'dismiss' })).toEqual({
      status: 'unchanged',
      reasons: ['the reading was let go'],
    });
    expect(session.snapshot().pending).toBeNull();
    expect(session.snapshot().turns).toEqual([]);
    await expect(session.act({ type: 'dismiss' })).rejects.toThrow(/no reading waiting/);
    // The first real move is the first player's.
    nextReading(board(1));
    expect((await session.submitFrame(new Uint8Array([2]), true)).status).toBe('committed');
    expect(session.snapshot().players.map((p) => p.score)).toEqual([32, 0]);
  });
});

describe('a blank in a game without a lexicon of its own', () => {
  const shared = new URL('../../../../shared/realdata/scrabscrap-de/game06/', import.meta.url);
  const present = (() => {
    try {
      readFileSync(new URL('image-2.txt', shared));
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!present)(
    'is named from the reading lexicon where only one letter makes every word',
    async () => {
      const { id } = await new GameService(store).create({
        players: ['Ann', 'Ben'],
        lang: 'de',
        variant: 'classic',
        challengeRule: 'double',
        capture: 'button',
      });
      const session = (await new GameService(store).get(id)) as GameSession;
      const board = (n: number) =>
        readFileSync(new URL(`image-${n}.txt`, shared), 'utf8')
          .trimEnd()
          .split('\n');
      expect((await session.act({ type: 'confirm', board: board(1) })).status).toBe('committed');
      // Move 2 of game06 is DUB?O.EN at 7C: the blank can only be an I (DUBIOSEN).
      expect((await session.act({ type: 'confirm', board: board(2) })).status).toBe('committed');
      const turn = session.snapshot().turns[1]!;
      expect(turn.words?.[0]?.word).toBe('DUBiOSEN');
    },
  );
});
