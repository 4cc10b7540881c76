/**
 * A board read in one tile set that shows letters only another set has: an Ä on a board checked as English. The
 * vision keeps the chosen set's letter in the reading and names the other (`BoardReading.foreign`); this says it
 * for people, so that a German board is never scored at English values with confidence.
 */
import { squareName, type TileSetId, tileSets } from '../../engine/index.ts';

/** The sets' names in English, as the rest of the messages are written. */
const ENGLISH_NAMES: Record<TileSetId, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  nl: 'Dutch',
  pl: 'Polish',
};

export interface ForeignTile {
  readonly row: number;
  readonly col: number;
  readonly letter: string;
}

/**
 * `these tiles look German: Ä at 9G, Ü at 12C. This is the English set: check it with the German set (…)` for the tiles of
 * `foreign` (the first few named), or undefined when there are none. `ask` ends the sentence (a question for a
 * check, an instruction for a live game).
 */
export function foreignNote(
  foreign: readonly ForeignTile[],
  lang: TileSetId,
  ask: (set: string, id: string) => string = (set, id) =>
    `check it with the ${set} set (the Check page's tile set, or tilecam verify --lang ${id})`,
): string | undefined {
  const seen = new Set<string>();
  foreign = foreign.filter((f) => !seen.has(`${f.row},${f.col}`) && seen.add(`${f.row},${f.col}`));
  if (foreign.length === 0) return undefined;
  const sets = (Object.keys(tileSets) as TileSetId[]).filter(
    (id) => id !== lang && foreign.every((f) => tileSets[id].letters.some(([l]) => l === f.letter)),
  );
  const other = sets[0] ? ENGLISH_NAMES[sets[0]] : 'of another set';
  const id = sets[0] ?? '…';
  const named = foreign
    .slice(0, 3)
    .map((f) => `${f.letter} at ${squareName(f)}`)
    .join(', ');
  const more = foreign.length > 3 ? ` and ${foreign.length - 3} more` : '';
  return `these tiles look ${other}: ${named}${more}. This is the ${ENGLISH_NAMES[lang]} set: ${ask(other, id)}`;
}
