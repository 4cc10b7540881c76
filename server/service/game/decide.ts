/**
 * What a board shown at the end of a turn does to the game, decided from the game and the board alone: the events to
 * record, a reading to hold for the scorekeeper (with why, and the squares concerned), or nothing at all. Pure: the
 * engine's state in, a value out; the classic game (classic.ts) stores what it says.
 */
import {
  applyEvent,
  type Board,
  describeOverdrawn,
  EMPTY,
  type GameEvent,
  type GameState,
  inferMove,
  type Lexicon,
  nameBlanks,
  overdrawnBy,
  removeTiles,
  type Square,
  splitTwoMoves,
  squareName,
} from '../../engine/index.ts';

export type BoardDecision =
  /** Nothing to record: the board has not changed (or is the empty board before the first move). */
  | { readonly kind: 'unchanged'; readonly reasons?: readonly string[] }
  /** Record these events, in order (a play; a pass; a withdrawal and the next play; two plays of a forgotten End turn). */
  | { readonly kind: 'record'; readonly events: readonly GameEvent[] }
  /** Hold the board for the scorekeeper, saying why, with the squares concerned. */
  | { readonly kind: 'hold'; readonly reasons: readonly string[]; readonly squares: readonly Square[] };

export interface DecideOptions {
  /** The turn was ended (End turn, or the scorekeeper's confirmation), not only seen. */
  readonly endTurn: boolean;
  /** The scorekeeper confirmed this board: the set's tile counts and an emptied board are theirs to judge. */
  readonly confirmed?: boolean;
  /** Names a blank read as `?` when exactly one letter fits its words. */
  readonly naming?: Lexicon;
}

/** What `board`, shown after the game `state`, records or holds. */
export function decideBoard(state: GameState, board: Board, options: DecideOptions): BoardDecision {
  const { endTurn, confirmed = false } = options;
  const inferred = inferMove(state.board, board, {
    layout: state.rules.layout,
    ...(state.lastPlay ? { lastMove: state.lastPlay.placements } : {}),
  });
  const hold = (reasons: readonly string[], squares: readonly Square[] = []): BoardDecision => ({
    kind: 'hold',
    reasons,
    squares,
  });
  if (!inferred.ok) {
    if (inferred.reason === 'no-change') {
      if (!endTurn && !confirmed) return { kind: 'unchanged' };
      // The empty board before the first move (a photo taken as the game starts, or after names laid out on it were
      // cleared away) is no one's pass: only the Pass button records one then.
      if (!confirmed && state.turns.length === 0 && board.cells.every((c) => c === EMPTY))
        return {
          kind: 'unchanged',
          reasons: [
            'the board is empty and no move has been made yet: nothing recorded (Pass records a pass)',
          ],
        };
      // An end of turn with nothing new on the board is a pass (the scorekeeper can make it an exchange).
      return { kind: 'record', events: [{ type: 'pass', player: state.toMove }] };
    }
    // A forgotten End turn: the tiles make two moves in a row; recorded as two turns when one order is legal.
    const split =
      inferred.reason === 'tile-changed' || inferred.reason === 'tile-removed' ? [] : twoMoves(state, board);
    if (split.length === 1) return { kind: 'record', events: split[0]! };
    if (split.length > 1)
      return hold([
        `two moves at once, legal in either order (${split
          .map((events) =>
            events.map((e) => (e.type === 'play' ? squareName(e.placements[0]!) : '')).join(' then '),
          )
          .join(', or ')}): confirm the board after the first, then the second`,
      ]);
    return hold([inferred.message], [...(inferred.squares ?? [])]);
  }
  const move = inferred.kind === 'withdrawal' ? inferred.next : inferred.move;
  // More new tiles than a rack holds is no move (names laid out before the game, turns run together): the engine
  // refuses it, and the scorekeeper sets the board or takes the reading back.
  const rack = state.rules.rackSize;
  if (move && move.placements.length > rack)
    return hold([
      `${move.placements.length} new tiles in one move: a rack holds ${rack}. Set the board to what the game shows, or take the reading back`,
    ]);
  // A photo with no tile left on the board is no withdrawal (the board cleared, names swept away, a new game): only
  // the scorekeeper records one so.
  if (inferred.kind === 'withdrawal' && !move && !confirmed && board.cells.every((c) => c === EMPTY))
    return hold([
      'the board is empty: every tile of the last move is gone. Confirm to record it as withdrawn, or take the reading back',
    ]);
  // More tiles of a kind than the set has: a misreading, unless the scorekeeper says otherwise.
  const over = move && !confirmed ? overdrawnBy(state.rules.tileSet, board, move.placements) : [];
  if (over.length > 0)
    return hold(
      over.map((o) => describeOverdrawn(o, state.rules.tileSet)),
      over.flatMap((o) => o.squares),
    );
  const events: GameEvent[] = [];
  if (inferred.kind === 'withdrawal') events.push({ type: 'withdraw', player: state.lastPlay!.player });
  if (move) {
    // A blank read as `?` takes its letter from the lexicon when only one fits; otherwise it waits to be named.
    const before =
      inferred.kind === 'withdrawal' ? removeTiles(state.board, inferred.withdrawn) : state.board;
    const letters = state.rules.tileSet.letters.map(([l]) => l);
    const named =
      options.naming && nameBlanks(before, move.placements, move.direction, letters, options.naming);
    events.push({ type: 'play', player: state.toMove, placements: named ?? move.placements });
  }
  return { kind: 'record', events };
}

/**
 * The events of each way the new tiles on `board` split into two legal moves, played in turn by the player to move
 * and the next, within the set's tile counts.
 */
function twoMoves(state: GameState, board: Board): GameEvent[][] {
  return splitTwoMoves(state.board, board, state.rules.layout).flatMap(({ first, second }) => {
    if (overdrawnBy(state.rules.tileSet, board, [...first.placements, ...second.placements]).length > 0)
      return [];
    const one: GameEvent = { type: 'play', player: state.toMove, placements: first.placements };
    const after = applyEvent(state, one);
    if (!after.ok || after.state.ended) return [];
    const two: GameEvent = { type: 'play', player: after.state.toMove, placements: second.placements };
    return applyEvent(after.state, two).ok ? [[one, two]] : [];
  });
}
