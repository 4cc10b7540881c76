import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  emptyBoard,
  type GameEvent,
  type GameRules,
  type GameState,
  lexiconFromWords,
  makeRules,
  nameBlanks,
  newGame,
  overtimePenalties,
  placementsFromNotation,
  type RulesOptions,
  winners,
} from './index.ts';

/** A game driven by short commands: `'8D WINDY'` plays, `'-'` passes, anything else is an event object. */
function game(options: RulesOptions & { players?: number } = {}) {
  const count = options.players ?? 2;
  const rules: GameRules = makeRules({ ...options, players: count });
  const start = newGame(['Ann', 'Ben', 'Cat', 'Dan'].slice(0, count), rules);
  if (!start.ok) throw new Error(start.message);
  let state: GameState = start.state;
  const api = {
    get state() {
      return state;
    },
    /** Plays for whoever is to move; returns the points of that play. */
    play(notation: string): number {
      const p = placementsFromNotation(state.board, notation);
      if (!p.ok) throw new Error(p.message);
      api.apply({ type: 'play', player: state.toMove, placements: p.placements });
      return state.turns.at(-1)!.points;
    },
    pass() {
      api.apply({ type: 'pass', player: state.toMove });
    },
    apply(event: GameEvent) {
      const step = applyEvent(state, event);
      if (!step.ok) throw new Error(`${step.reason}: ${step.message}`);
      state = step.state;
      return api;
    },
    try(event: GameEvent) {
      return applyEvent(state, event);
    },
  };
  return api;
}

describe('scoring scenarios', () => {
  it('scores a blank on the centre double word as 0 but still doubles the word', () => {
    expect(game().play('8G CaT')).toBe((3 + 0 + 1) * 2);
  });

  it('scores a bingo with a blank on the first move: letters doubled by the star, plus 50', () => {
    // R E T(8D, double letter) a I N S(8H, star).
    expect(game().play('8B RETaINS')).toBe((1 + 1 + 2 + 0 + 1 + 1 + 1) * 2 + 50);
  });

  it('scores a bingo through a letter on the board with a blank, counting triple letters under new tiles', () => {
    const g = game();
    g.play('8D WINDY');
    // M(5F) E(6F, TL) a(7F) N(8F, on the board) I(9F) N(10F, TL) G(11F) S(12F): 3+3+0+1+1+3+2+1 = 14, + 50.
    expect(g.play('F5 MEa.INGS')).toBe(64);
    expect(g.state.turns.at(-1)!.score!.bingo).toBe(50);
  });

  it('scores a parallel play: the main word and every cross-word', () => {
    const g = game();
    g.play('8D WINDY');
    const points = g.play('9D AN');
    expect(g.state.turns.at(-1)!.score!.words.map((w) => [w.word, w.score])).toEqual([
      ['AN', 2],
      ['WA', 5],
      ['IN', 2],
    ]);
    expect(points).toBe(9);
  });

  it('scores a hook: the extended word at face value, the new word with its premiums', () => {
    const g = game();
    expect(g.play('8E WIND')).toBe(16);
    // ITS down with T on 7I (double letter) and S hooking WIND → WINDS.
    expect(g.play('I6 ITS')).toBe(4 + 9);
  });

  it('scores one tile that makes two words, each counting the shared letter', () => {
    const g = game();
    g.play('8D WINDY');
    g.play('D8 .O');
    expect(g.play('9E F')).toBe(5 + 5); // OF across, IF down
  });

  it('refuses a play of more tiles than a rack holds: 8 in the classic game, 10 in the 9-tile variant', () => {
    const refused = (variant: 'classic' | 'nine-tile', notation: string) => {
      const g = game({ variant });
      const placed = placementsFromNotation(g.state.board, notation);
      if (!placed.ok) throw new Error(placed.message);
      const step = applyEvent(g.state, { type: 'play', player: 0, placements: placed.placements });
      return step.ok ? null : [step.reason, step.message];
    };
    expect(refused('classic', '8A STRAINED')).toEqual([
      'too-many-tiles',
      '8 tiles in one move: a rack holds 7, and no move places more',
    ]);
    expect(refused('classic', '8B RETAINS')).toBeNull();
    expect(refused('nine-tile', '8A RESTRAINS')).toBeNull();
    expect(refused('nine-tile', '8A CRABAPPLES')?.[0]).toBe('too-many-tiles');
  });

  it('gives the 9-tile variant’s bingo for 7, 8 or 9 tiles, and none for 6', () => {
    const bingo = (notation: string) => {
      const g = game({ variant: 'nine-tile' });
      expect(g.state.rules.rackSize).toBe(9);
      g.play(notation);
      return g.state.turns.at(-1)!.score!.bingo;
    };
    expect(bingo('8A RESTRAINS')).toBe(50); // 9 tiles
    expect(bingo('8A STRAINED')).toBe(50); // 8 tiles
    expect(bingo('8B RETAINS')).toBe(50); // 7 tiles
    expect(bingo('8C TRAINS')).toBe(0); // 6 tiles
  });

  it('does not give a bingo for 6 tiles in the standard game', () => {
    expect(game().play('8C TRAINS')).toBe((1 + 2 + 1 + 1 + 1 + 1) * 2);
  });
});

describe('challenges and withdrawals', () => {
  it('takes back a withdrawn phony: tiles off the board, its points cancelled, the turn counted scoreless', () => {
    const g = game();
    g.play('8D WINDY');
    const phony = g.play('F6 XY.');
    g.apply({ type: 'withdraw', player: 1 });
    expect(g.state.scores).toEqual([32, 0]);
    expect(g.state.turns.at(-1)).toMatchObject({ kind: 'withdraw', points: -phony });
    expect(g.state.board.cells[5 * 15 + 5]).toBe('.');
    expect(g.state.toMove).toBe(0);
    expect(g.state.scorelessRun).toBe(1);
  });

  it('withdraws the last play when a challenge finds it unacceptable', () => {
    const g = game();
    g.play('8D WINDY');
    g.apply({ type: 'challenge', player: 1, acceptable: false });
    expect(g.state.scores).toEqual([0, 0]);
    expect(g.state.board.cells.every((c) => c === '.')).toBe(true);
  });

  it('makes a wrong challenger lose their next turn under the double rule (2 players)', () => {
    const g = game();
    g.play('8D WINDY');
    g.apply({ type: 'challenge', player: 1, acceptable: true });
    expect(g.state.turns.at(-1)).toMatchObject({ kind: 'lost-turn', player: 1 });
    expect(g.state.toMove).toBe(0); // Ann plays again
    expect(g.try({ type: 'pass', player: 1 })).toMatchObject({ ok: false, reason: 'out-of-turn' });
  });

  it('skips a wrong challenger who is not next, when their turn comes (3 players)', () => {
    const g = game({ players: 3 });
    g.play('8D WINDY');
    g.apply({ type: 'challenge', player: 2, acceptable: true });
    expect(g.state.toMove).toBe(1);
    g.pass();
    expect(g.state.toMove).toBe(0);
    expect(g.state.turns.at(-1)).toMatchObject({ kind: 'lost-turn', player: 2 });
  });

  it('costs a wrong challenger nothing under the single rule', () => {
    const g = game({ challenge: 'single' });
    g.play('8D WINDY');
    g.apply({ type: 'challenge', player: 1, acceptable: true });
    expect(g.state.toMove).toBe(1);
    expect(g.state.scores).toEqual([32, 0]);
  });

  it('gives the player challenged 5 or 10 points under the point rules', () => {
    for (const [rule, bonus] of [
      ['5-point', 5],
      ['10-point', 10],
    ] as const) {
      const g = game({ challenge: rule });
      g.play('8D WINDY');
      g.apply({ type: 'challenge', player: 1, acceptable: true });
      expect(g.state.scores).toEqual([32 + bonus, 0]);
      expect(g.state.toMove).toBe(1);
    }
  });
});

describe('end of game', () => {
  it('going out (rule books): the others lose their letters, the one who went out gains their sum', () => {
    const g = game();
    g.play('8D WINDY');
    g.play('9D AN');
    g.apply({ type: 'end', racks: ['', 'QZ'] });
    expect(g.state.scores).toEqual([32 + 20, 9 - 20]);
    expect(g.state.ended).toMatchObject({ reason: 'out', before: [32, 9], racksSettled: true });
    expect(winners(g.state)).toEqual([0]);
  });

  it('going out (tournament convention): twice the opponent’s letters, the opponent loses nothing', () => {
    const g = game({ endRack: 'double' });
    g.play('8D WINDY');
    g.apply({ type: 'end', racks: ['QZ', ''] });
    expect(g.state.scores).toEqual([32, 40]);
  });

  it('ends after six consecutive scoreless turns, then deducts each rack', () => {
    const g = game();
    g.play('8D WINDY');
    for (let i = 0; i < 5; i++) g.pass();
    expect(g.state.ended).toBeUndefined();
    g.apply({ type: 'exchange', player: g.state.toMove, tiles: 'QU' });
    expect(g.state.ended?.reason).toBe('scoreless');
    expect(g.try({ type: 'pass', player: g.state.toMove })).toMatchObject({ ok: false, reason: 'game-over' });
    g.apply({ type: 'end', racks: ['AB', 'C'] });
    expect(g.state.scores).toEqual([32 - 4, -3]);
  });

  it('ends the UK way when every player has passed twice in succession', () => {
    const g = game({ variant: 'uk', players: 3 });
    for (let i = 0; i < 5; i++) g.pass();
    expect(g.state.ended).toBeUndefined();
    g.pass();
    expect(g.state.ended?.reason).toBe('scoreless');
  });

  it('counts a withdrawn phony among the scoreless turns', () => {
    const g = game();
    g.play('8D WINDY');
    for (let i = 0; i < 5; i++) g.pass();
    g.play('F6 XY.');
    expect(g.state.ended).toBeUndefined();
    g.apply({ type: 'withdraw', player: g.state.lastPlay!.player });
    expect(g.state.ended?.reason).toBe('scoreless');
  });

  it('ends a Finish Line game when a player reaches their level’s target', () => {
    const g = game({ variant: 'finish-line', players: 2, levels: ['beginner', 'expert'] });
    expect(g.state.rules.finishLine).toEqual([70, 200]);
    g.play('8B RETaINS'); // Ann 64
    g.play('C7 Q.'); // Ben 21
    g.play('D8 .O'); // Ann 66: short of 70
    g.pass();
    expect(g.state.ended).toBeUndefined();
    g.play('E8 .X'); // aX 8 + OX 9: Ann 83
    expect(g.state.scores).toEqual([83, 21]);
    expect(g.state.ended?.reason).toBe('finish-line');
    expect(g.try({ type: 'pass', player: g.state.toMove })).toMatchObject({ ok: false, reason: 'game-over' });
  });

  it('breaks a tie by the score before the end-of-game adjustments', () => {
    const g = game();
    g.play('8G CaT'); // Ann 8
    expect(g.play('I7 A.')).toBe(3); // Ben: AT down, A on a double letter
    g.apply({ type: 'end', racks: ['KE', 'E'] }); // nobody went out: Ann 8 − 6, Ben 3 − 1
    expect(g.state.scores).toEqual([2, 2]);
    expect(g.state.ended?.reason).toBe('ended');
    expect(winners(g.state)).toEqual([0]);
  });
});

describe('the event list', () => {
  it('refuses an illegal placement as a value, leaving the game unchanged', () => {
    const g = game();
    const bad = placementsFromNotation(g.state.board, '1A AT');
    if (!bad.ok) throw new Error();
    const r = g.try({ type: 'play', player: 0, placements: bad.placements });
    expect(r).toMatchObject({ ok: false, reason: 'illegal-placement' });
    expect(g.state.events).toHaveLength(0);
  });

  it('refuses a play out of turn and a letter that is not in the tile set', () => {
    const g = game();
    expect(g.try({ type: 'pass', player: 1 })).toMatchObject({ ok: false, reason: 'out-of-turn' });
    const r = g.try({
      type: 'play',
      player: 0,
      placements: [
        { row: 7, col: 7, tile: 'Ä' },
        { row: 7, col: 8, tile: 'B' },
      ],
    });
    expect(r).toMatchObject({ ok: false, reason: 'unknown-letter' });
  });

  it('re-derives every total after a correction of an earlier play', () => {
    const g = game();
    g.play('8D WINDY'); // 32
    g.play('9D AN'); // AN 2 + WA 5 + IN 2
    g.play('F6 XU.'); // X on 6F (triple letter) 24 + U 1 + N 1
    expect(g.state.scores).toEqual([58, 9]);
    // The camera misread M as W on the first move: correct event 0 and everything after re-derives.
    const first = g.state.events[0] as Extract<GameEvent, { type: 'play' }>;
    const placements = first.placements.map((p) => (p.tile === 'W' ? { ...p, tile: 'M' } : p));
    g.apply({ type: 'correction', target: 0, event: { ...first, placements } });
    expect(g.state.turns.map((t) => t.points)).toEqual([(6 + 1 + 1 + 2 + 4) * 2, 2 + 4 + 2, 26]);
    expect(g.state.turns[1]!.score!.words.map((w) => w.word)).toEqual(['AN', 'MA', 'IN']);
    expect(g.state.scores).toEqual([54, 8]);
    expect(g.state.events).toHaveLength(4);
  });

  it('refuses a correction that would make a later event illegal', () => {
    const g = game();
    g.play('8D WINDY');
    g.play('9D AN');
    const elsewhere = {
      type: 'play' as const,
      player: 0,
      placements: [
        { row: 7, col: 7, tile: 'A' },
        { row: 7, col: 8, tile: 'T' },
      ],
    };
    expect(g.try({ type: 'correction', target: 0, event: elsewhere })).toMatchObject({
      ok: false,
      reason: 'illegal-placement',
    });
    expect(g.state.events).toHaveLength(2);
  });
});

describe('naming blanks from the lexicon', () => {
  const lexicon = lexiconFromWords('test', ['WINDY', 'WINDS', 'AN', 'WA', 'IN', 'QI', 'XI']);
  const first = (notation: string) => {
    const p = placementsFromNotation(emptyBoard(), notation);
    if (!p.ok) throw new Error(p.message);
    return p.placements;
  };

  it('names a blank when exactly one letter makes every word a word', () => {
    const named = nameBlanks(
      emptyBoard(),
      first('8D WIN?Y'),
      'across',
      [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
      lexicon,
    );
    expect(named?.map((p) => p.tile).join('')).toBe('WINdY');
  });

  it('asks when several letters fit, or none', () => {
    expect(
      nameBlanks(emptyBoard(), first('8D WIND?'), 'across', [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'], lexicon),
    ).toBeUndefined();
    expect(
      nameBlanks(emptyBoard(), first('8D ?Z'), 'across', [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'], lexicon),
    ).toBeUndefined();
  });
});

describe('overtimePenalties', () => {
  it('costs the points per minute for each minute or part of one over the clock, and nothing without a clock', () => {
    const timed = makeRules({ clockMinutes: 25 });
    expect(timed.clock).toEqual({ minutes: 25, pointsPerMinute: 10 });
    const limit = 25 * 60_000;
    expect(overtimePenalties(timed, [limit, limit + 1, limit + 60_000, limit + 60_001, 0])).toEqual([
      0, 10, 10, 20, 0,
    ]);
    expect(overtimePenalties(makeRules(), [limit * 3, 0])).toEqual([0, 0]);
  });
});
