/**
 * A Scrabble Me game's history, derived from the events that count (corrections applied): the rounds' words and
 * bonus for the scoreboard, and the event whose word put a tile on a square, with its correction. Pure.
 */
import type { Placement } from '../board.ts';
import { effectiveEvents } from '../game.ts';
import { applyMeEvent, type MeEvent, type MeState, newMeGame } from './index.ts';

/** A word of a round, as the scoreboard lists it. */
export interface MeRoundWord {
  readonly player: number;
  readonly board: number;
  /** The main word; `words` lists every word formed with its score. */
  readonly word: string;
  readonly words: readonly { readonly word: string; readonly score: number }[];
  readonly score: number;
  /** Challenged off the board: scores nothing. */
  readonly withdrawn: boolean;
}

/** A round's words, and the last round's bonus word once built (score 0 when there was none). */
export interface MeRoundRecord {
  readonly round: number;
  readonly words: readonly MeRoundWord[];
  readonly bonus: { readonly player: number; readonly score: number } | null;
}

/** Walks the events that count from the start of the game, with the state before and after each. */
export function replayMe(
  state: MeState,
  visit: (event: MeEvent, before: MeState, after: MeState, index: number) => void,
): void {
  const { players, rules, origin } = state;
  const start = newMeGame(players, rules.base, origin.podium, { bag: origin.bag });
  if (!start.ok) throw new Error(start.message);
  let s = start.state;
  for (const { event, index } of effectiveEvents<MeEvent>(state.events)) {
    const step = applyMeEvent(s, event);
    if (!step.ok) throw new Error(`the game does not replay at event ${index + 1}: ${step.message}`);
    visit(event, s, step.state, index);
    s = step.state;
  }
}

/** The rounds so far, each with its words (after challenges) and the bonus word. */
export function meRounds(state: MeState): MeRoundRecord[] {
  const rounds: { round: number; words: MeRoundWord[]; bonus: MeRoundRecord['bonus'] }[] = [];
  replayMe(state, (event, before, after) => {
    const words = () =>
      [...after.words]
        .sort((a, b) => a.player - b.player)
        .map((w) => ({
          player: w.player,
          board: w.board,
          word: w.score.words[0]?.word ?? '',
          words: w.score.words.map((x) => ({ word: x.word, score: x.score })),
          score: w.score.score,
          withdrawn: w.withdrawn,
        }));
    const last = rounds[rounds.length - 1];
    if (event.type === 'round') rounds.push({ round: after.round, words: words(), bonus: null });
    else if (event.type === 'challenge' && last) last.words = words();
    else if (event.type === 'bonus' && last)
      last.bonus = {
        player: event.player,
        score: after.scores[event.player]! - before.scores[event.player]!,
      };
  });
  return rounds;
}

/**
 * The correction that fixes a committed tile: the round (or bonus) event whose word put a tile on square
 * (`row`, `col`) of `board`, with the tile as it really is (`.`: no tile there). Undefined when no word did.
 */
export function correctTile(
  state: MeState,
  board: number,
  row: number,
  col: number,
  tile: string,
): Extract<MeEvent, { type: 'correction' }> | undefined {
  let found:
    | { index: number; event: Extract<MeEvent, { type: 'round' | 'bonus' }>; player: number }
    | undefined;
  const here = (p: Placement) => p.row === row && p.col === col;
  replayMe(state, (event, before, _after, index) => {
    const player = before.holder[board]!;
    if (event.type === 'round') {
      if (event.words.some((w) => w.player === player && w.placements.some(here)))
        found = { index, event, player };
    } else if (event.type === 'bonus') {
      if (event.player === player && event.placements?.some(here)) found = { index, event, player };
    }
  });
  if (!found) return undefined;
  const fix = (placements: readonly Placement[]) =>
    placements.flatMap((p) => (!here(p) ? [p] : tile === '.' ? [] : [{ ...p, tile }]));
  const { event, player } = found;
  const corrected: MeEvent =
    event.type === 'round'
      ? {
          ...event,
          words: event.words
            .map((w) => (w.player === player ? { ...w, placements: fix(w.placements) } : w))
            .filter((w) => w.placements.length > 0),
        }
      : { ...event, placements: event.placements ? fix(event.placements) : null };
  return { type: 'correction', target: found.index, event: corrected };
}
