/**
 * Equity: a play's score plus the value of the tiles it keeps. The value of a leave is hand-set, not fitted: each
 * tile's own value (below), less a penalty for each tile a letter has beyond its first, less a penalty for vowels
 * and consonants out of balance. The single-tile values follow the order every published leave table agrees on (the
 * blank and S far ahead, then the tiles that make many words, Q, V and W at the bottom); their sizes are ours,
 * chosen so that a whole leave stays within about ±30 points. Fitted by the generator's self-play, as Quackle and
 * Macondo fit theirs, they come out nearly the same and play no better (HAND_SET). Letters not listed are worth 0
 * (the German umlauts -3).
 */
import { BLANK, isVowel, type TileSet } from '../tilesets.ts';

/** Each tile's value in a leave, in points. */
export const TILE_LEAVE: Readonly<Record<string, number>> = {
  [BLANK]: 25,
  S: 8,
  Z: 3,
  X: 3.5,
  E: 3.5,
  R: 1.5,
  H: 1,
  D: 0.5,
  A: 1,
  N: 0.5,
  L: 0,
  T: 0,
  C: 0.5,
  M: 0.5,
  P: -0.5,
  K: -0.5,
  Y: -0.5,
  I: -1,
  O: -1.5,
  F: -2,
  G: -2.5,
  B: -2,
  J: -1.5,
  U: -3.5,
  W: -3.5,
  V: -5.5,
  Q: -7,
  Ä: -3,
  Ö: -3,
  Ü: -3,
};

/** For each tile of a letter beyond its first: a vowel, a consonant. */
const DUPLICATE = { vowel: 4, consonant: 3 } as const;
/** For each vowel or consonant beyond one more than the other kind. */
const IMBALANCE = 2.5;

/**
 * A leave's value in equity.ts's form: each tile's own value (`?` the blank; letters not listed 0), less `duplicate`
 * for each tile of a letter beyond its first, less `imbalance` for each vowel or consonant beyond one more than the
 * other kind.
 */
export interface LeaveTable {
  readonly tiles: Readonly<Record<string, number>>;
  readonly duplicate: { readonly vowel: number; readonly consonant: number };
  readonly imbalance: number;
}

/**
 * The hand-set values above, the ones in use. Fitted by the generator's self-play instead (`npm run bench:leaves`,
 * 2,000 games, 33,609 leaves), they come out within about 1.5 points of these for most tiles (the blank 25.8, S 8.0,
 * Q −7.5; Z 2.7 more; a letter's second tile −6 against −4 and −3) and play no better: −0.9 ± 2.2 points a game against these over 2,000 games
 * (docs/measurements.md).
 */
export const HAND_SET: LeaveTable = { tiles: TILE_LEAVE, duplicate: DUPLICATE, imbalance: IMBALANCE };

/** The value of keeping `leave` (tiles, `?` for a blank) for the next turn, in points. */
export function leaveValue(leave: string, _set: TileSet): number {
  return leaveValueBy(HAND_SET, leave, _set);
}

/** The value of keeping `leave` under `table`, in points (to a tenth). */
export function leaveValueBy(table: LeaveTable, leave: string, set: TileSet): number {
  if (leave.length === 0) return 0;
  let value = 0;
  let vowels = 0;
  let consonants = 0;
  const seen = new Map<string, number>();
  for (const tile of leave) {
    value += table.tiles[tile] ?? 0;
    if (tile === BLANK) continue;
    const vowel = isVowel(set, tile);
    if (vowel) vowels++;
    else consonants++;
    const before = seen.get(tile) ?? 0;
    if (before > 0) value -= vowel ? table.duplicate.vowel : table.duplicate.consonant;
    seen.set(tile, before + 1);
  }
  value -= table.imbalance * Math.max(0, Math.abs(vowels - consonants) - 1);
  return Math.round(value * 10) / 10;
}

/** A play's equity: its score, plus its leave's value while tiles remain to be drawn (none: the score alone). */
export function equity(score: number, leave: string, set: TileSet, bagEmpty: boolean): number {
  return bagEmpty ? score : Math.round((score + leaveValue(leave, set)) * 10) / 10;
}
