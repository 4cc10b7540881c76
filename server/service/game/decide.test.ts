/** What a board at the end of a turn records or holds, on engine states made by hand (decide.ts). */
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  type Board,
  boardFromText,
  emptyBoard,
  type GameEvent,
  type GameState,
  lexiconFromWords,
  makeRules,
  newGame,
  place,
  placementsFromNotation,
} from '../../engine/index.ts';
import { decideBoard } from './decide.ts';

function start(): GameState {
  const made = newGame(['Ann', 'Ben'], makeRules({ lang: 'en' }));
  if (!made.ok) throw new Error(made.message);
  return made.state;
}

/** `board` with the play in GCG notation put on it. */
function with_(board: Board, notation: string): Board {
  const placed = placementsFromNotation(board, notation);
  if (!placed.ok) throw new Error(placed.message);
  return place(board, placed.placements);
}

function played(state: GameState, notation: string): GameState {
  const placed = placementsFromNotation(state.board, notation);
  if (!placed.ok) throw new Error(placed.message);
  const step = applyEvent(state, { type: 'play', player: state.toMove, placements: placed.placements });
  if (!step.ok) throw new Error(step.message);
  return step.state;
}

const types = (events: readonly GameEvent[]) => events.map((e) => e.type);

describe('decideBoard', () => {
  it('records a legal play by the player to move', () => {
    const d = decideBoard(start(), with_(emptyBoard(), '8D WINDY'), { endTurn: true });
    expect(d.kind).toBe('record');
    if (d.kind !== 'record') return;
    expect(d.events).toHaveLength(1);
    expect(d.events[0]).toMatchObject({ type: 'play', player: 0 });
  });

  it('records nothing for an unchanged board seen, and a pass for one whose turn was ended', () => {
    const state = played(start(), '8D WINDY');
    expect(decideBoard(state, state.board, { endTurn: false })).toEqual({ kind: 'unchanged' });
    const pass = decideBoard(state, state.board, { endTurn: true });
    expect(pass).toEqual({ kind: 'record', events: [{ type: 'pass', player: 1 }] });
  });

  it('records no pass for the empty board before the first move, and says why', () => {
    const d = decideBoard(start(), emptyBoard(), { endTurn: true });
    expect(d.kind).toBe('unchanged');
    expect(d.kind === 'unchanged' && d.reasons?.[0]).toMatch(/no move has been made yet/);
    // The scorekeeper's confirmation of it is a pass.
    expect(decideBoard(start(), emptyBoard(), { endTurn: true, confirmed: true })).toMatchObject({
      kind: 'record',
      events: [{ type: 'pass' }],
    });
  });

  it('holds more new tiles than a rack holds: names laid out before the game are no move', () => {
    const names = boardFromText(
      [
        '.'.repeat(15),
        '.'.repeat(15),
        '.'.repeat(15),
        '.'.repeat(15),
        '.'.repeat(15),
        '.'.repeat(15),
        '.'.repeat(15),
        '.CHRISTOPHERS..',
        ...Array(7).fill('.'.repeat(15)),
      ].join('\n'),
    );
    const d = decideBoard(start(), names, { endTurn: true, confirmed: true });
    expect(d.kind).toBe('hold');
    expect(d.kind === 'hold' && d.reasons[0]).toMatch(/^12 new tiles in one move: a rack holds 7/);
  });

  it('holds an emptied board rather than record the last play withdrawn, unless the scorekeeper confirms it', () => {
    const state = played(start(), '8D WINDY');
    const d = decideBoard(state, emptyBoard(), { endTurn: true });
    expect(d.kind).toBe('hold');
    expect(d.kind === 'hold' && d.reasons[0]).toMatch(/^the board is empty/);
    const confirmed = decideBoard(state, emptyBoard(), { endTurn: true, confirmed: true });
    expect(confirmed.kind === 'record' && types(confirmed.events)).toEqual(['withdraw']);
  });

  it('records a withdrawal and the next play when the last play is gone and another made', () => {
    const first = played(start(), '8D WINDY');
    const state = played(first, 'D8 (W)O');
    // Ben's O taken back, and Ann's E played below the Y.
    const d = decideBoard(state, with_(first.board, 'H8 (Y)E'), { endTurn: true });
    expect(d.kind === 'record' && types(d.events)).toEqual(['withdraw', 'play']);
  });

  it('records a forgotten End turn as two plays when one order is legal, and holds it when both are', () => {
    // WINDY and AN under it on an empty board: AN cannot have come first (off the centre).
    const two = with_(with_(emptyBoard(), '8D WINDY'), '9D AN');
    const d = decideBoard(start(), two, { endTurn: true });
    expect(d.kind === 'record' && d.events.map((e) => (e.type === 'play' ? e.player : -1))).toEqual([0, 1]);
    // CAT under HORSES and AXE down from its last S: either may have come first, and the scorekeeper says which.
    const state = played(start(), '8C HORSES');
    const either = with_(with_(state.board, '9D CAT'), 'H9 AXE');
    const e = decideBoard(state, either, { endTurn: true });
    expect(e.kind).toBe('hold');
    expect(e.kind === 'hold' && e.reasons[0]).toMatch(/^two moves at once, legal in either order/);
  });

  it('holds more tiles of a letter than the set has, with their squares, unless confirmed', () => {
    const state = played(start(), '8G ZA');
    const z = with_(state.board, 'G7 Z(Z)');
    const d = decideBoard(state, z, { endTurn: true });
    expect(d.kind).toBe('hold');
    if (d.kind !== 'hold') return;
    expect(d.reasons[0]).toMatch(/Z/);
    expect(d.squares.length).toBeGreaterThan(0);
    expect(decideBoard(state, z, { endTurn: true, confirmed: true }).kind).toBe('record');
  });

  it('holds a board no move explains, with the squares concerned', () => {
    const state = played(start(), '8D WINDY');
    // A tile of the last play changed: no legal move makes that.
    const changed = boardFromText(
      state.board.cells.join('').replace('WINDY', 'WANDY').match(/.{15}/g)!.join('\n'),
    );
    const d = decideBoard(state, changed, { endTurn: true });
    expect(d.kind).toBe('hold');
    expect(d.kind === 'hold' && d.squares).toEqual([{ row: 7, col: 4 }]);
  });

  it('names a blank read as ? from the lexicon when exactly one letter fits', () => {
    const board = with_(emptyBoard(), '8G Q?');
    const naming = lexiconFromWords('test', ['QI']);
    const d = decideBoard(start(), board, { endTurn: true, naming });
    expect(
      d.kind === 'record' && d.events[0]?.type === 'play' && d.events[0].placements.map((p) => p.tile),
    ).toEqual(['Q', 'i']);
    const unnamed = decideBoard(start(), board, { endTurn: true });
    expect(
      unnamed.kind === 'record' &&
        unnamed.events[0]?.type === 'play' &&
        unnamed.events[0].placements[1]?.tile,
    ).toBe('?');
  });
});
