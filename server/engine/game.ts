/**
 * The game reducer: folds the event list into the derived state (board, scores, turns, whose turn, end of game).
 * Totals are never patched: a correction re-derives the whole list. Illegal events are refused as values and
 * never enter the list.
 */
import { type Board, emptyBoard, type Placement, removeTiles } from './board.ts';
import type { GameEvent } from './events.ts';
import { type Move, makeMove } from './infer.ts';
import type { Failure, Result } from './result.ts';
import type { GameRules } from './rules.ts';
import { type PlayScore, scorePlay } from './score.ts';
import { rackValue } from './tilesets.ts';

export type TurnKind =
  | 'play'
  | 'pass'
  | 'exchange'
  | 'withdraw'
  | 'challenge-bonus'
  | 'lost-turn'
  | 'end-rack'
  | 'rack-penalty'
  | 'time-penalty';

/** One line of the score sheet, derived from an event. */
export interface Turn {
  /** Index of the event it came from. */
  readonly event: number;
  readonly player: number;
  readonly kind: TurnKind;
  /** Change to the player's score. */
  readonly points: number;
  /** The player's score after this line. */
  readonly cumulative: number;
  readonly move?: Move;
  readonly score?: PlayScore;
  /** For an exchange: the tiles or their number. */
  readonly tiles?: string | number;
  /** For end-rack lines: the letters counted. */
  readonly rack?: string;
  /** For a withdrawal: the index of the play turn taken back. */
  readonly withdraws?: number;
}

export type EndReason = 'out' | 'scoreless' | 'finish-line' | 'ended';

export interface GameState {
  readonly rules: GameRules;
  readonly players: readonly string[];
  readonly events: readonly GameEvent[];
  readonly board: Board;
  readonly scores: readonly number[];
  readonly turns: readonly Turn[];
  /** Seat of the player to move. */
  readonly toMove: number;
  /** The last play still on the board and its turn index, for challenges and withdrawal. */
  readonly lastPlay?: {
    readonly player: number;
    readonly placements: readonly Placement[];
    readonly turn: number;
  };
  /** Players who lose their next turn (wrong challenge, double rule). */
  readonly losesNextTurn: readonly number[];
  readonly scorelessRun: number;
  readonly ended?: {
    readonly reason: EndReason;
    /** Scores before end-of-game rack adjustments, the tie-break. */
    readonly before: readonly number[];
    readonly racksSettled: boolean;
  };
}

export type GameFailure = Failure<
  | 'bad-players'
  | 'bad-event'
  | 'out-of-turn'
  | 'game-over'
  | 'no-play-to-challenge'
  | 'illegal-placement'
  | 'bad-correction'
  | 'unknown-letter'
  | 'too-many-tiles'
>;

type Step = Result<{ state: GameState }, GameFailure>;

/** A new game for 2–4 players. */
export function newGame(
  players: readonly string[],
  rules: GameRules,
): Result<{ state: GameState }, GameFailure> {
  if (players.length < 2 || players.length > 4) {
    return fail('bad-players', `a game needs 2 to 4 players, got ${players.length}`);
  }
  if (rules.finishLine && rules.finishLine.length !== players.length) {
    return fail('bad-players', 'Finish Line needs one target per player');
  }
  return {
    ok: true,
    state: {
      rules,
      players: [...players],
      events: [],
      board: emptyBoard(rules.layout),
      scores: players.map(() => 0),
      turns: [],
      toMove: 0,
      losesNextTurn: [],
      scorelessRun: 0,
    },
  };
}

/** Appends an event, or refuses it with the reason. A correction re-derives every event after its target. */
export function applyEvent(state: GameState, event: GameEvent): Step {
  if (event.type === 'correction') return applyCorrection(state, event);
  const step = reduce(state, event, state.events.length);
  if (!step.ok) return step;
  return { ok: true, state: { ...step.state, events: [...state.events, event] } };
}

/** Folds a whole event list. */
export function replayEvents(
  players: readonly string[],
  rules: GameRules,
  events: readonly GameEvent[],
): Step {
  const start = newGame(players, rules);
  if (!start.ok) return start;
  let state = start.state;
  for (const event of events) {
    const step = applyEvent(state, event);
    if (!step.ok) return { ...step, message: `event ${state.events.length + 1}: ${step.message}` };
    state = step.state;
  }
  return { ok: true, state };
}

/** A correction in an event list: event `target` is replaced by `event`, or dropped when it is null. */
interface Correction<E> {
  readonly type: 'correction';
  readonly target: number;
  readonly event: E | null;
}

/**
 * The events with every correction applied, each paired with its index in the original list (a corrected event
 * keeps its target's place). For the classic game and Scrabble Me alike: any list whose corrections have this shape.
 */
export function effectiveEvents<E extends { readonly type: string }>(
  events: readonly (E | Correction<E>)[],
): { event: E; index: number }[] {
  const slots: ({ event: E; index: number } | null)[] = [];
  for (const [index, event] of events.entries()) {
    if (event.type === 'correction') {
      const { target, event: replacement } = event as Correction<E>;
      slots[target] = replacement ? { event: replacement, index: target } : null;
      slots.push(null);
    } else slots.push({ event: event as E, index });
  }
  return slots.filter((s) => s !== null);
}

function applyCorrection(state: GameState, event: Extract<GameEvent, { type: 'correction' }>): Step {
  const target = state.events[event.target];
  if (!Number.isInteger(event.target) || !target || target.type === 'correction') {
    return fail('bad-correction', `no event ${event.target} to correct`);
  }
  if (event.event?.type === 'correction')
    return fail('bad-correction', 'a correction cannot replace with a correction');
  const events = [...state.events, event];
  const start = newGame(state.players, state.rules);
  if (!start.ok) return start;
  let s = start.state;
  for (const { event: e, index } of effectiveEvents(events)) {
    const step = reduce(s, e, index);
    if (!step.ok)
      return { ...step, message: `after the correction, event ${index + 1} no longer fits: ${step.message}` };
    s = step.state;
  }
  return { ok: true, state: { ...s, events } };
}

/** Applies one (non-correction) event; `index` is its place in the event list. */
function reduce(state: GameState, event: GameEvent, index: number): Step {
  const n = state.players.length;
  if ('player' in event && !(Number.isInteger(event.player) && event.player >= 0 && event.player < n)) {
    return fail('bad-event', `no player ${event.player}`);
  }
  const endLike = event.type === 'end' || event.type === 'end-rack' || event.type === 'rack-penalty';
  if (state.ended && !endLike && event.type !== 'time-penalty') {
    return fail('game-over', 'the game is over');
  }
  switch (event.type) {
    case 'play':
      return play(state, event, index);
    case 'pass':
    case 'exchange':
    case 'lost-turn': {
      if (event.player !== state.toMove) return outOfTurn(state, event.player);
      const tiles = event.type === 'exchange' ? { tiles: event.tiles } : {};
      return ok(
        endTurn(
          addTurn(state, { event: index, player: event.player, kind: event.type, points: 0, ...tiles }),
          false,
        ),
      );
    }
    case 'withdraw':
      return withdraw(state, event.player, index);
    case 'challenge':
      return challenge(state, event, index);
    case 'challenge-bonus':
      return ok(
        addTurn(state, { event: index, player: event.player, kind: 'challenge-bonus', points: event.points }),
      );
    case 'time-penalty':
      return ok(
        addTurn(state, { event: index, player: event.player, kind: 'time-penalty', points: -event.points }),
      );
    case 'end-rack': {
      const value = rackValue(state.rules.tileSet, event.rack);
      const points = state.rules.endRack === 'double' ? 2 * value : value;
      const s = addTurn(endGame(state, 'out'), {
        event: index,
        player: event.player,
        kind: 'end-rack',
        points,
        rack: event.rack,
      });
      return ok(settle(s));
    }
    case 'rack-penalty': {
      const points = -rackValue(state.rules.tileSet, event.rack);
      const s = addTurn(endGame(state, 'ended'), {
        event: index,
        player: event.player,
        kind: 'rack-penalty',
        points,
        rack: event.rack,
      });
      return ok(settle(s));
    }
    case 'end':
      return end(state, event.racks, index);
    default:
      return fail('bad-event', `unknown event type ${(event as { type: unknown }).type}`);
  }
}

function play(state: GameState, event: Extract<GameEvent, { type: 'play' }>, index: number): Step {
  if (event.player !== state.toMove) return outOfTurn(state, event.player);
  if (event.placements.length > state.rules.rackSize)
    return fail(
      'too-many-tiles',
      `${event.placements.length} tiles in one move: a rack holds ${state.rules.rackSize}, and no move places more`,
    );
  for (const p of event.placements) {
    if (!validTile(state, p.tile))
      return fail('unknown-letter', `'${p.tile}' is not a tile of ${state.rules.tileSet.name}`);
  }
  const made = makeMove(state.board, event.placements, state.rules.layout);
  if (!made.ok)
    return { ok: false, reason: 'illegal-placement', message: made.message, squares: made.squares };
  const score = scorePlay(made.after, event.placements, made.move.direction, state.rules);
  let s: GameState = { ...state, board: made.after };
  s = addTurn(s, {
    event: index,
    player: event.player,
    kind: 'play',
    points: score.score,
    move: made.move,
    score,
  });
  s = { ...s, lastPlay: { player: event.player, placements: event.placements, turn: s.turns.length - 1 } };
  const target = state.rules.finishLine?.[event.player];
  if (target !== undefined && s.scores[event.player]! >= target) s = endGame(s, 'finish-line');
  return ok(endTurn(s, score.score > 0));
}

function withdraw(state: GameState, player: number, index: number): Step {
  const last = state.lastPlay;
  if (!last || last.player !== player)
    return fail('no-play-to-challenge', `player ${player + 1} has no play on the board to withdraw`);
  const turn = state.turns[last.turn]!;
  const s = addTurn(
    { ...state, board: removeTiles(state.board, last.placements), lastPlay: undefined },
    { event: index, player, kind: 'withdraw', points: -turn.points, withdraws: last.turn },
  );
  // The withdrawn play becomes a scoreless turn.
  return ok(checkScoreless({ ...s, scorelessRun: scorelessRun(s.turns) }));
}

function challenge(state: GameState, event: Extract<GameEvent, { type: 'challenge' }>, index: number): Step {
  const last = state.lastPlay;
  if (!last) return fail('no-play-to-challenge', 'there is no play to challenge');
  if (!event.acceptable) return withdraw(state, last.player, index);
  switch (state.rules.challenge) {
    case 'double':
      return ok(loseNextTurn(state, event.player));
    case '5-point':
    case '10-point': {
      const points = state.rules.challenge === '5-point' ? 5 : 10;
      return ok(addTurn(state, { event: index, player: last.player, kind: 'challenge-bonus', points }));
    }
    default:
      return ok(state);
  }
}

function end(state: GameState, racks: readonly string[], index: number): Step {
  if (racks.length !== state.players.length) return fail('bad-event', 'give one rack per player');
  for (const rack of racks) {
    for (const tile of rack)
      if (!validTile(state, tile)) return fail('unknown-letter', `'${tile}' is not a tile of this set`);
  }
  const out = racks.findIndex((r) => r.length === 0);
  let s = endGame(state, out >= 0 ? 'out' : 'ended');
  racks.forEach((rack, player) => {
    if (rack.length === 0) return;
    if (out >= 0) {
      s = addTurn(s, {
        event: index,
        player: out,
        kind: 'end-rack',
        points: (state.rules.endRack === 'double' ? 2 : 1) * rackValue(s.rules.tileSet, rack),
        rack,
      });
      if (state.rules.endRack === 'double') return;
    }
    s = addTurn(s, {
      event: index,
      player,
      kind: 'rack-penalty',
      points: -rackValue(s.rules.tileSet, rack),
      rack,
    });
  });
  return ok(settle(s));
}

function validTile(state: GameState, tile: string): boolean {
  if (tile === '?') return true;
  return state.rules.tileSet.letters.some(([l]) => l === tile.toUpperCase());
}

function addTurn(state: GameState, turn: Omit<Turn, 'cumulative'>): GameState {
  const scores = state.scores.slice();
  scores[turn.player] = scores[turn.player]! + turn.points;
  return { ...state, scores, turns: [...state.turns, { ...turn, cumulative: scores[turn.player]! }] };
}

/** Passes the turn on, skipping (and recording) anyone who lost their next turn. */
function endTurn(state: GameState, scored: boolean): GameState {
  let s: GameState = checkScoreless({ ...state, scorelessRun: scored ? 0 : state.scorelessRun + 1 });
  let next = (s.toMove + 1) % s.players.length;
  while (s.losesNextTurn.includes(next) && !s.ended) {
    s = { ...s, losesNextTurn: s.losesNextTurn.filter((p) => p !== next), scorelessRun: s.scorelessRun + 1 };
    s = addTurn(s, { event: s.events.length, player: next, kind: 'lost-turn', points: 0 });
    s = checkScoreless(s);
    next = (next + 1) % s.players.length;
  }
  return { ...s, toMove: next };
}

/** Consecutive scoreless turns at the end of the sheet: passes, exchanges, lost turns, withdrawn or 0-point plays. */
function scorelessRun(turns: readonly Turn[]): number {
  const withdrawn = new Set(turns.flatMap((t) => (t.withdraws === undefined ? [] : [t.withdraws])));
  let run = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.kind === 'play' && t.points > 0 && !withdrawn.has(i)) break;
    if (t.kind === 'play' || t.kind === 'pass' || t.kind === 'exchange' || t.kind === 'lost-turn') run++;
  }
  return run;
}

function loseNextTurn(state: GameState, player: number): GameState {
  if (state.losesNextTurn.includes(player)) return state;
  // If the challenger is the one to move now, the turn is lost at once.
  if (player === state.toMove) {
    const s = addTurn(state, { event: state.events.length, player, kind: 'lost-turn', points: 0 });
    return endTurn({ ...s, toMove: player }, false);
  }
  return { ...state, losesNextTurn: [...state.losesNextTurn, player] };
}

function checkScoreless(state: GameState): GameState {
  const limit = state.rules.scorelessTurns;
  if (limit > 0 && state.scorelessRun >= limit && !state.ended) return endGame(state, 'scoreless');
  return state;
}

function endGame(state: GameState, reason: EndReason): GameState {
  if (state.ended) return state;
  return { ...state, ended: { reason, before: state.scores, racksSettled: false } };
}

function settle(state: GameState): GameState {
  return state.ended ? { ...state, ended: { ...state.ended, racksSettled: true } } : state;
}

/** Seats of the winner(s): highest score; a tie is broken by the score before the end-of-game adjustments. */
export function winners(state: GameState): number[] {
  const seats = state.players.map((_, i) => i);
  const best = Math.max(...state.scores);
  const top = seats.filter((i) => state.scores[i] === best);
  if (top.length < 2 || !state.ended) return top;
  const before = state.ended.before;
  const bestBefore = Math.max(...top.map((i) => before[i]!));
  return top.filter((i) => before[i] === bestBefore);
}

function ok(state: GameState): Step {
  return { ok: true, state };
}

function outOfTurn(state: GameState, player: number): Step {
  return fail(
    'out-of-turn',
    `it is ${state.players[state.toMove]}'s turn, not ${state.players[player] ?? player}'s`,
  );
}

function fail(
  reason: GameFailure['reason'],
  message: string,
): { ok: false; reason: GameFailure['reason']; message: string } {
  return { ok: false, reason, message };
}
