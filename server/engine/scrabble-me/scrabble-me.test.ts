import { describe, expect, it } from 'vitest';
import { emptyBoard, makeRules, type Placement, place, placementsFromNotation } from '../index.ts';
import {
  applyMeEvent,
  lowestScorer,
  type MeEvent,
  type MeState,
  matchBoard,
  newMeGame,
  roundFromReadings,
} from './index.ts';

function tiles(notation: string, board = emptyBoard()): Placement[] {
  const p = placementsFromNotation(board, notation);
  if (!p.ok) throw new Error(p.message);
  return p.placements;
}

function game(players = 2, options: { bag?: number } = {}) {
  const start = newMeGame(
    ['Ann', 'Ben', 'Cat', 'Dan'].slice(0, players),
    makeRules({ players }),
    'QUIZXYABCDEF'.slice(0, 3 * players),
    options,
  );
  if (!start.ok) throw new Error(start.message);
  let state: MeState = start.state;
  return {
    get s() {
      return state;
    },
    apply(event: MeEvent) {
      const r = applyMeEvent(state, event);
      if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
      state = r.state;
    },
    try: (event: MeEvent) => applyMeEvent(state, event),
    /** Every pick from the bag, in the order the rules give. */
    refillFromBag() {
      while (state.phase === 'refill' || (state.phase === 'scored' && state.swaps.length === 0)) {
        // Whoever the rules say picks next is the one whose pick is accepted.
        const next = state.players
          .map((_, p) => applyMeEvent(state, { type: 'pick', player: p, from: 'bag' }))
          .find((r) => r.ok);
        if (!next?.ok) return;
        state = next.state;
      }
    },
  };
}

describe('Scrabble Me', () => {
  it('scores each player’s word on the board they hold, the first covering its centre star', () => {
    const g = game();
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WINDY') },
        { player: 1, placements: tiles('8G CAT') },
      ],
    });
    expect(g.s.scores).toEqual([32, (3 + 1 + 1) * 2]);
    expect(g.s.boards[0]!.cells[7 * 15 + 3]).toBe('W');
    expect(g.s.boards[1]!.cells[7 * 15 + 6]).toBe('C');
    const off = g.try({ type: 'round', words: [] });
    expect(off).toMatchObject({ ok: false, reason: 'wrong-phase' }); // racks are refilled first
  });

  it('refuses a first word off the centre, and a later word that uses no tile already on that board', () => {
    const g = game();
    expect(g.try({ type: 'round', words: [{ player: 0, placements: tiles('1A CAT') }] })).toMatchObject({
      ok: false,
      reason: 'illegal-placement',
    });
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WINDY') },
        { player: 1, placements: tiles('8G CAT') },
      ],
    });
    g.refillFromBag();
    // Nobody took from the podium: it is still full, and the next round begins at once.
    expect(g.s.phase).toBe('build');
    // Ann's second word must touch WINDY on her own board; Ben's must touch CAT on his.
    const bad = g.try({ type: 'round', words: [{ player: 1, placements: tiles('1A ZA') }] });
    expect(bad).toMatchObject({ ok: false, reason: 'illegal-placement' });
  });

  it('refills from the lowest scorer round the table, one tile at a time, from the bag or the podium', () => {
    const g = game(3);
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WINDY') }, // 32, 5 tiles
        { player: 1, placements: tiles('8H AT') }, // 4, 2 tiles
        { player: 2, placements: tiles('8G CAT') }, // 10, 3 tiles
      ],
    });
    g.apply({ type: 'pick', player: 1, from: 'podium', letter: 'Q' });
    expect(g.s.picks).toEqual([2, 0, 1, 2, 0, 2, 0, 0, 0]);
    expect(g.try({ type: 'pick', player: 0, from: 'bag' })).toMatchObject({
      ok: false,
      reason: 'out-of-order',
    });
    expect(g.try({ type: 'pick', player: 2, from: 'podium', letter: 'Q' })).toMatchObject({ ok: false }); // Q is gone
    g.refillFromBag();
    expect(g.s.phase).toBe('podium');
    // The podium is topped up to three tiles a player.
    expect(g.try({ type: 'podium', letters: 'AB' })).toMatchObject({ ok: false });
    g.apply({ type: 'podium', letters: 'A' });
    expect(g.s.podium).toHaveLength(9);
    expect(g.s.phase).toBe('build');
  });

  it('breaks a tie for the lowest score by the letter closest to A', () => {
    const g = game();
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8G TO') }, // 2 × 2 = 4
        { player: 1, placements: tiles('8G AT') }, // 4, and A is closer to A than O or T
      ],
    });
    expect(lowestScorer(g.s)).toBe(1);
  });

  it('takes back an unacceptable word, which scores nothing; a wrong challenger sits out the next round', () => {
    const g = game();
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WINDY') },
        { player: 1, placements: tiles('8G XAT') },
      ],
    });
    g.apply({ type: 'challenge', player: 1, challenger: 0, acceptable: false });
    expect(g.s.scores[1]).toBe(0);
    expect(g.s.boards[1]!.cells.every((c) => c === '.')).toBe(true);
    g.apply({ type: 'challenge', player: 0, challenger: 1, acceptable: true });
    g.refillFromBag();
    // Nobody took from the podium: it is still full, and the next round begins at once.
    expect(g.s.phase).toBe('build');
    const sat = g.try({ type: 'round', words: [{ player: 1, placements: tiles('8G CAT') }] });
    expect(sat).toMatchObject({ ok: false, reason: 'out-of-order' });
    g.apply({ type: 'round', words: [{ player: 0, placements: tiles('D8 .O', g.s.boards[0]!) }] });
    expect(g.s.scores[0]).toBe(32 + 5);
  });

  it('makes a blank player swap boards after scoring; with two, the lower scorer swaps last and may get their board back', () => {
    const g = game(3);
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WInDY') }, // blank, 30
        { player: 1, placements: tiles('8G cAT') }, // blank, 4
        { player: 2, placements: tiles('8G CAT') },
      ],
    });
    expect(g.s.swaps).toEqual([0, 1]);
    expect(g.try({ type: 'swap', player: 1, with: 0 })).toMatchObject({ ok: false, reason: 'out-of-order' });
    g.apply({ type: 'swap', player: 0, with: 1 }); // Ann takes Ben's board, Ben holds Ann's
    expect(g.s.holder).toEqual([1, 0, 2]);
    g.apply({ type: 'swap', player: 1, with: 0 }); // Ben, the lower scorer, swaps last: his own board back
    expect(g.s.holder).toEqual([0, 1, 2]);
    expect(g.s.phase).toBe('refill');
  });

  it('plays one last round once the bag is empty, then gives the lowest scorer of that round a bonus word', () => {
    const g = game(2, { bag: 5 });
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WINDY') },
        { player: 1, placements: tiles('8G CAT') },
      ],
    });
    // 8 tiles to refill, 5 in the bag and 6 on the podium: the bag runs out, the rest come from the podium.
    while (g.s.phase !== 'build') {
      const from = g.s.bag > 0 ? 'bag' : 'podium';
      const pick = (player: number): MeEvent => ({
        type: 'pick',
        player,
        from,
        ...(from === 'podium' ? { letter: g.s.podium[0]! } : {}),
      });
      const player = [0, 1].find((p) => g.try(pick(p)).ok)!;
      g.apply(pick(player));
    }
    expect(g.s.lastRound).toBe(true);
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('D8 .O', g.s.boards[0]!) }, // 5
        { player: 1, placements: tiles('H8 .T', g.s.boards[1]!) }, // AT: 2
      ],
    });
    // No refill after the last round: Ben, its lowest scorer, alone builds one bonus word.
    expect(g.try({ type: 'bonus', player: 0, placements: null })).toMatchObject({
      ok: false,
      reason: 'out-of-order',
    });
    g.apply({ type: 'bonus', player: 1, placements: tiles('I8 .O', g.s.boards[1]!) });
    expect(g.s.phase).toBe('ended');
    expect(g.s.scores[0]).toBe(32 + 5);
    expect(g.s.scores[1]).toBeGreaterThan(10 + 2);
  });

  it('ends when nobody can form a word in a round', () => {
    const g = game();
    g.apply({ type: 'round', words: [] });
    expect(g.s.phase).toBe('ended');
  });
});

describe('Scrabble Me from camera readings', () => {
  const put = (board: ReturnType<typeof emptyBoard>, notation: string) => {
    const p = placementsFromNotation(board, notation);
    if (!p.ok) throw new Error(p.message);
    return place(board, p.placements);
  };

  it('builds the round from one reading per board, each word for the board’s holder', () => {
    const g = game(3);
    const readings = new Map([
      [0, put(emptyBoard(), '8D WINDY')],
      [1, emptyBoard()], // Ben built nothing this round
      [2, put(emptyBoard(), '8G CAT')],
    ]);
    const round = roundFromReadings(g.s, readings);
    if (!round.ok) throw new Error(round.message);
    g.apply(round.event);
    expect(g.s.scores).toEqual([32, 0, 10]);
    expect(roundFromReadings(g.s, new Map([[0, emptyBoard()]]))).toMatchObject({ ok: false });
  });

  it('corrects a misread word after the fact: everything after it is derived again, or the correction is refused', () => {
    const g = game(2);
    g.apply({
      type: 'round',
      words: [
        { player: 0, placements: tiles('8D WINDY') }, // 32
        { player: 1, placements: tiles('8G CAT') }, // 10
      ],
    });
    g.refillFromBag();
    g.apply({ type: 'round', words: [{ player: 1, placements: tiles('H8 .O', g.s.boards[1]!) }] }); // AO 2
    expect(g.s.scores).toEqual([32, 12]);
    // The camera read Ben's C where the tile is an H: HAT scores 12, and round 2 still fits on top of it.
    g.apply({
      type: 'correction',
      target: 0,
      event: {
        ...(g.s.events[0] as Extract<MeEvent, { type: 'round' }>),
        words: [
          { player: 0, placements: tiles('8D WINDY') },
          { player: 1, placements: tiles('8G HAT') },
        ],
      },
    });
    expect(g.s.scores).toEqual([32, 12 + 2]);
    expect(g.s.boards[1]!.cells[7 * 15 + 6]).toBe('H');
    expect(g.s.round).toBe(2);
    // Ben's word taken out of round 1 would leave his round-2 O touching nothing on his board: refused.
    const broken = g.try({
      type: 'correction',
      target: 0,
      event: { type: 'round', words: [{ player: 0, placements: tiles('8D WINDY') }] },
    });
    expect(broken).toMatchObject({ ok: false });
    expect(broken.ok ? '' : broken.message).toMatch(/after the correction, event \d+ no longer fits/);
    expect(g.try({ type: 'correction', target: 99, event: null })).toMatchObject({ ok: false });
  });

  it('names the board whose reading is not a legal move, and waits for every board', () => {
    const g = game(2);
    const bad = roundFromReadings(
      g.s,
      new Map([
        [0, put(emptyBoard(), '1A CAT')],
        [1, emptyBoard()],
      ]),
    );
    expect(bad).toMatchObject({ ok: false, reason: 'reading-rejected', board: 0 });
    expect(roundFromReadings(g.s, new Map([[0, emptyBoard()]]))).toMatchObject({
      ok: false,
      reason: 'missing-board',
      board: 1,
    });
  });

  it('tells which board a camera sees after a swap, by the tiles on it', () => {
    const windy = put(emptyBoard(), '8D WINDY');
    const cat = put(emptyBoard(), '8G CAT');
    const boards = [windy, cat];
    // Ann's camera now looks at CAT with a new word on it: it is board 1.
    expect(matchBoard(put(cat, 'G8 .O'), boards)).toBe(1);
    expect(matchBoard(put(windy, 'D8 .O'), boards)).toBe(0);
    // An empty reading fits no board clearly.
    expect(matchBoard(emptyBoard(), boards)).toBeUndefined();
  });
});
