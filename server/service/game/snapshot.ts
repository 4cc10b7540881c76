/** The game as the wire protocol shows it: derived from the engine state, nothing stored twice. */
import {
  formatBoard,
  formatPosition,
  type GameState,
  type Lexicon,
  unseenTiles,
  winners,
} from '../../engine/index.ts';
import type { ClockView, Decision, GameSnapshot, PendingView, RevealedMove } from '../../protocol/index.ts';

export function snapshotOf(
  id: string,
  state: GameState,
  options: {
    pending: PendingView | null;
    capture: 'auto' | 'button';
    lang: string;
    variant: GameSnapshot['variant'];
    version: number;
    sources: GameSnapshot['sources'];
    /** How the move of the event at an index was decided, when the camera read it. */
    decisions?: ReadonlyMap<number, Decision>;
    disturbed?: readonly { row: number; col: number }[];
    lexicon?: Lexicon;
    /** When the game was created and when each of its events was recorded (ISO 8601), for the turn clock. */
    times: Parameters<typeof clockOf>[1];
    /** The move shown after the game's rack delay (absent: the game has none). */
    revealed?: RevealedMove | null;
  },
): GameSnapshot {
  const unseen = unseenTiles(state.rules.tileSet, state.board, {
    opponents: state.players.length - 1,
    rackSize: state.rules.rackSize,
  });
  const turns = state.turns.map((t) => ({
    player: t.player,
    kind: t.kind,
    points: t.points,
    cumulative: t.cumulative,
    ...(t.move ? { position: formatPosition(t.move.position) } : {}),
    ...(t.kind === 'play' && options.decisions?.has(t.event)
      ? { decided: options.decisions.get(t.event)! }
      : {}),
    ...(t.score
      ? {
          bingo: t.score.bingo,
          words: t.score.words.map((w) => ({
            word: w.word,
            score: w.score,
            wordMultiplier: w.wordMultiplier,
            premiums: w.letters
              .filter((l) => l.letterMultiplier > 1)
              .map((l) => ({ tile: l.tile, letterMultiplier: l.letterMultiplier })),
            unknown: options.lexicon ? !w.word.includes('?') && !options.lexicon.has(w.word) : false,
          })),
        }
      : {}),
  }));
  return {
    id,
    version: options.version,
    variant: options.variant,
    players: state.players.map((name, i) => ({ name, score: state.scores[i]! })),
    toMove: state.toMove,
    board: formatBoard(state.board),
    lastMove: state.lastPlay?.placements.map(({ row, col }) => ({ row, col })) ?? [],
    turns,
    unseen: {
      tiles: Object.fromEntries(unseen.tiles),
      total: unseen.total,
      vowels: unseen.vowels,
      consonants: unseen.consonants,
      blanks: unseen.blanks,
      bag: unseen.bag,
    },
    pending: options.pending,
    disturbed: options.disturbed ?? [],
    ended: state.ended ? { reason: state.ended.reason, winners: winners(state) } : null,
    capture: options.capture,
    lang: options.lang,
    sources: options.sources,
    clock: clockOf(state, options.times),
    ...(options.revealed === undefined ? {} : { revealed: options.revealed }),
  };
}

/** The turn-ending kinds: the time up to them is the turn's player's. */
const TURN_KINDS = new Set(['play', 'pass', 'exchange']);

/**
 * Each player's time used. The time from one event to the next is the player's whose turn it was: the player of a
 * play, pass or exchange for the time up to it; for any other event (a challenge, a correction, the end) the player
 * who was to move (a challenge's time is the challenger's, as on a chess clock). Times that go backwards count as
 * none.
 */
export function clockOf(
  state: GameState,
  times: {
    readonly created: string;
    /** When each event was recorded and who was to move before it. */
    readonly events: readonly { readonly at: string; readonly toMove: number }[];
  },
): ClockView {
  const turnOf = new Map<number, number>();
  for (const t of state.turns) if (TURN_KINDS.has(t.kind)) turnOf.set(t.event, t.player);
  const used: number[] = new Array(state.players.length).fill(0);
  let since = times.created;
  let last = Date.parse(times.created);
  times.events.forEach(({ at, toMove }, i) => {
    const t = Date.parse(at);
    if (!Number.isFinite(t)) return;
    // An event recorded after the game was over (toMove −1: the racks settled) counts for no one.
    const player = turnOf.get(i) ?? toMove;
    if (Number.isFinite(last) && t > last && used[player] !== undefined) used[player] += t - last;
    last = Number.isFinite(last) ? Math.max(last, t) : t;
    since = at;
  });
  const clock = state.rules.clock;
  return {
    started: times.created,
    since,
    used,
    running: !state.ended,
    ...(clock ? { limit: { minutes: clock.minutes, pointsPerMinute: clock.pointsPerMinute } } : {}),
  };
}
