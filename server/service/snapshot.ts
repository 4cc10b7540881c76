/** The game as the wire protocol shows it: derived from the engine state, nothing stored twice. */
import {
  formatBoard,
  formatPosition,
  type GameState,
  type Lexicon,
  unseenTiles,
  winners,
} from '../engine/index.ts';
import type { Decision, GameSnapshot, PendingView } from '../protocol/index.ts';

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
  };
}
