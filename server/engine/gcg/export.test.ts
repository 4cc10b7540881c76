/**
 * tilecam's GCG export as another program reads it. No GCG reader is published on npm, so the second reader here is
 * written from the format's rules as Macondo's reader (domino14/macondo, gcgio) states them in its regular
 * expressions — independent of tilecam's own reader: every move line must have the shape one of them accepts
 * (a rack on every play), and the running totals must follow the scores.
 */
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  type GameEvent,
  gcgFromGame,
  makeRules,
  newGame,
  readGcg,
  replayGcg,
  writeGcg,
} from '../index.ts';

const MOVE =
  /^>(?<nick>\S+):\s+(?<rack>\S+)\s+(?<pos>\w+)\s+(?<play>[\p{L}.?]+)\s+\+(?<score>\d+)\s+(?<cumul>-?\d+)$/u;
const END_RACK = /^>(?<nick>\S+):\s+\((?<rack>\S+)\)\s+\+(?<score>\d+)\s+(?<cumul>-?\d+)$/u;
const RACK_PENALTY = /^>(?<nick>\S+):\s+\((?<rack>\S+)\)\s+-(?<score>\d+)\s+(?<cumul>-?\d+)$/u;
const PLAYER = /^#player(?<n>[1-4])\s+(?<nick>\S+)\s+(?<name>.+)$/u;

function play(board: string[], row: number, col: number, word: string, player: number): GameEvent {
  return {
    type: 'play',
    player,
    placements: [...word]
      .map((tile, k) => ({ row, col: col + k, tile }))
      .filter((p) => board[p.row]![p.col] === '.'),
  };
}

describe('the GCG export, read by a second reader', () => {
  it('writes lines of the shapes Macondo reads, a rack on every play, totals that follow the scores', () => {
    const rules = makeRules();
    const state = newGame(['Ann Lee', 'Ben'], rules);
    if (!state.ok) throw new Error(state.message);
    let s = state.state;
    const board = () => s.board.cells.join('').match(/.{15}/g)!;
    const events: GameEvent[] = [
      play(board(), 7, 3, 'WINDY', 0),
      {
        type: 'play',
        player: 1,
        placements: [
          { row: 8, col: 3, tile: 'A' },
          { row: 8, col: 4, tile: 'n' },
        ],
      },
    ];
    for (const e of events) {
      const step = applyEvent(s, e);
      if (!step.ok) throw new Error(step.message);
      s = step.state;
    }
    const text = writeGcg(gcgFromGame(s));
    const lines = text.split('\n').filter(Boolean);
    const nicks = lines.flatMap((l) => PLAYER.exec(l)?.groups?.nick ?? []);
    expect(nicks).toEqual(['Ann_Lee', 'Ben']);
    const totals = new Map<string, number>();
    for (const line of lines.filter((l) => l.startsWith('>'))) {
      const m = MOVE.exec(line) ?? END_RACK.exec(line) ?? RACK_PENALTY.exec(line);
      expect(m, line).not.toBeNull();
      const g = m!.groups!;
      expect(nicks).toContain(g.nick);
      const sign = RACK_PENALTY.test(line) ? -1 : 1;
      const total = (totals.get(g.nick!) ?? 0) + sign * Number(g.score);
      expect(Number(g.cumul), line).toBe(total);
      totals.set(g.nick!, total);
      if (MOVE.test(line)) expect(g.rack!.length, line).toBeGreaterThan(0);
    }
    expect(lines.filter((l) => MOVE.test(l)).map((l) => MOVE.exec(l)!.groups!.rack)).toEqual(['WINDY', 'A?']);
    // And tilecam's own reader replays it to the same scores.
    const read = readGcg(text);
    if (!read.ok) throw new Error(read.message);
    const again = replayGcg(read.document);
    if (!again.ok) throw new Error(again.message);
    expect(again.report.players.map((p) => p.score)).toEqual([...s.scores]);
    expect(again.report.mismatches).toEqual([]);
  });
});

describe('a name that holds a line break (a game stored before names were checked)', () => {
  it('cannot add a line to the export: the record reads back with its players and no move', () => {
    const state = newGame(
      ['Ann', 'Ben\n>Ann: ZAX 8G ZAX +500 500', 'Cy\r#player1 x y', 'Di\u2028>Di: - +9 9'],
      makeRules(),
    );
    if (!state.ok) throw new Error(state.message);
    const text = writeGcg(gcgFromGame(state.state));
    expect(text.split('\n').filter(Boolean)).toHaveLength(5);
    const read = readGcg(text);
    if (!read.ok) throw new Error(read.message);
    expect(read.document.players.map((p) => p.nick)).toEqual([
      'Ann',
      'Ben_>Ann_ZAX_8G_ZAX_+500_500',
      'Cy_#player1_x_y',
      'Di_>Di_-_+9_9',
    ]);
    expect(read.document.lines.filter((l) => l.type === 'entry')).toEqual([]);
  });
});

describe('players whose names are written alike', () => {
  it('get nicknames apart, so the record reads back with each move its player’s', () => {
    // Two grandmothers called Anna, and a name that is written as another's nickname.
    const state = newGame(['Anna', 'Anna', 'Bo B', 'Bo_B'], makeRules({ players: 4 }));
    if (!state.ok) throw new Error(state.message);
    let s = state.state;
    const board = Array.from({ length: 15 }, () => '.'.repeat(15));
    const events: GameEvent[] = [
      play(board, 7, 7, 'AT', 0),
      { type: 'pass', player: 1 },
      { type: 'pass', player: 2 },
      { type: 'pass', player: 3 },
    ];
    for (const event of events) {
      const step = applyEvent(s, event);
      if (!step.ok) throw new Error(step.message);
      s = step.state;
    }
    const text = writeGcg(gcgFromGame(s));
    const read = readGcg(text);
    if (!read.ok) throw new Error(read.message);
    expect(read.document.players.map((p) => p.nick)).toEqual(['Anna', 'Anna_2', 'Bo_B', 'Bo_B_2']);
    expect(read.document.players.map((p) => p.name)).toEqual(['Anna', 'Anna', 'Bo B', 'Bo_B']);
    const replayed = replayGcg(read.document);
    if (!replayed.ok) throw new Error(replayed.message);
    expect(replayed.report.state.turns.map((t) => t.player)).toEqual([0, 1, 2, 3]);
    expect(replayed.report.players.map((p) => p.name)).toEqual(['Anna', 'Anna', 'Bo B', 'Bo_B']);
    expect(replayed.report.mismatches).toEqual([]);
  });
});
