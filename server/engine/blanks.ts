/**
 * Naming blanks from the lexicon: a blank placed as `?` changes no score, but its letter matters for the record and
 * for later challenges. When exactly one choice of letters for the move's blanks makes every word a word of the
 * lexicon, that is the blanks' letters; otherwise the players are asked.
 */
import { type Board, type Placement, place } from './board.ts';
import type { Direction } from './coords.ts';
import type { Lexicon } from './lexicon.ts';
import { wordsFormed } from './words.ts';

/** The placements with each `?` replaced by its lowercase letter, or undefined when none or several choices fit. */
export function nameBlanks(
  before: Board,
  placements: readonly Placement[],
  direction: Direction,
  letters: readonly string[],
  lexicon: Lexicon,
): Placement[] | undefined {
  const unknown = placements.map((p, i) => (p.tile === '?' ? i : -1)).filter((i) => i >= 0);
  if (unknown.length === 0 || unknown.length > 2) return undefined;
  let found: Placement[] | undefined;
  const choices =
    unknown.length === 1 ? letters.map((l) => [l]) : letters.flatMap((a) => letters.map((b) => [a, b]));
  for (const choice of choices) {
    const named = placements.map((p) => ({ ...p }));
    unknown.forEach((index, k) => {
      named[index] = { ...named[index]!, tile: choice[k]!.toLowerCase() };
    });
    const after = place(before, named);
    const words = wordsFormed(after, named, direction).map((w) =>
      w.squares.map((s) => after.cells[s.row * after.size + s.col]).join(''),
    );
    if (words.every((w) => lexicon.has(w))) {
      if (found) return undefined; // more than one fits: ask
      found = named;
    }
  }
  return found;
}
