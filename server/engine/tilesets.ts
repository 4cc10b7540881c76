/**
 * Tile distributions as data, one per language: each letter's count and face value.
 * Owns nothing but data and lookups; never knows about boards or games.
 */

/** One entry of a distribution: letter, how many tiles carry it, its face value. */
export type LetterSpec = readonly [letter: string, count: number, value: number];

export interface TileSet {
  /** Short id used in configs and on the CLI (`en`, `de`, …). */
  readonly id: string;
  readonly name: string;
  /** Letters in the set's alphabetical order. Blanks are not listed here. */
  readonly letters: readonly LetterSpec[];
  /** Number of blank tiles (value 0). */
  readonly blanks: number;
}

// Standard English (North American / Commonwealth) distribution: 98 letters + 2 blanks = 100 tiles.
const en: TileSet = {
  id: 'en',
  name: 'English',
  blanks: 2,
  letters: [
    ['A', 9, 1],
    ['B', 2, 3],
    ['C', 2, 3],
    ['D', 4, 2],
    ['E', 12, 1],
    ['F', 2, 4],
    ['G', 3, 2],
    ['H', 2, 4],
    ['I', 9, 1],
    ['J', 1, 8],
    ['K', 1, 5],
    ['L', 4, 1],
    ['M', 2, 3],
    ['N', 6, 1],
    ['O', 8, 1],
    ['P', 2, 3],
    ['Q', 1, 10],
    ['R', 6, 1],
    ['S', 4, 1],
    ['T', 6, 1],
    ['U', 4, 1],
    ['V', 2, 4],
    ['W', 2, 4],
    ['X', 1, 8],
    ['Y', 2, 4],
    ['Z', 1, 10],
  ],
};

// German distribution (since 1989): 100 letters + 2 blanks = 102 tiles, with Ä Ö Ü.
const de: TileSet = {
  id: 'de',
  name: 'Deutsch',
  blanks: 2,
  letters: [
    ['A', 5, 1],
    ['Ä', 1, 6],
    ['B', 2, 3],
    ['C', 2, 4],
    ['D', 4, 1],
    ['E', 15, 1],
    ['F', 2, 4],
    ['G', 3, 2],
    ['H', 4, 2],
    ['I', 6, 1],
    ['J', 1, 6],
    ['K', 2, 4],
    ['L', 3, 2],
    ['M', 4, 3],
    ['N', 9, 1],
    ['O', 3, 2],
    ['Ö', 1, 8],
    ['P', 1, 4],
    ['Q', 1, 10],
    ['R', 6, 1],
    ['S', 7, 1],
    ['T', 6, 1],
    ['U', 6, 1],
    ['Ü', 1, 6],
    ['V', 1, 6],
    ['W', 1, 3],
    ['X', 1, 8],
    ['Y', 1, 10],
    ['Z', 1, 3],
  ],
};

// French distribution: 100 letters + 2 blanks = 102 tiles.
const fr: TileSet = {
  id: 'fr',
  name: 'Français',
  blanks: 2,
  letters: [
    ['A', 9, 1],
    ['B', 2, 3],
    ['C', 2, 3],
    ['D', 3, 2],
    ['E', 15, 1],
    ['F', 2, 4],
    ['G', 2, 2],
    ['H', 2, 4],
    ['I', 8, 1],
    ['J', 1, 8],
    ['K', 1, 10],
    ['L', 5, 1],
    ['M', 3, 2],
    ['N', 6, 1],
    ['O', 6, 1],
    ['P', 2, 3],
    ['Q', 1, 8],
    ['R', 6, 1],
    ['S', 6, 1],
    ['T', 6, 1],
    ['U', 6, 1],
    ['V', 2, 4],
    ['W', 1, 10],
    ['X', 1, 10],
    ['Y', 1, 10],
    ['Z', 1, 10],
  ],
};

// Dutch distribution (2003 onwards): 100 letters + 2 blanks = 102 tiles.
const nl: TileSet = {
  id: 'nl',
  name: 'Nederlands',
  blanks: 2,
  letters: [
    ['A', 6, 1],
    ['B', 2, 3],
    ['C', 2, 5],
    ['D', 5, 2],
    ['E', 18, 1],
    ['F', 2, 4],
    ['G', 3, 3],
    ['H', 2, 4],
    ['I', 4, 1],
    ['J', 2, 4],
    ['K', 3, 3],
    ['L', 3, 3],
    ['M', 3, 3],
    ['N', 10, 1],
    ['O', 6, 1],
    ['P', 2, 3],
    ['Q', 1, 10],
    ['R', 5, 2],
    ['S', 5, 2],
    ['T', 5, 2],
    ['U', 3, 4],
    ['V', 2, 4],
    ['W', 2, 5],
    ['X', 1, 8],
    ['Y', 1, 8],
    ['Z', 2, 4],
  ],
};

// Polish distribution: 98 letters + 2 blanks = 100 tiles.
const pl: TileSet = {
  id: 'pl',
  name: 'Polski',
  blanks: 2,
  letters: [
    ['A', 9, 1],
    ['Ą', 1, 5],
    ['B', 2, 3],
    ['C', 3, 2],
    ['Ć', 1, 6],
    ['D', 3, 2],
    ['E', 7, 1],
    ['Ę', 1, 5],
    ['F', 1, 5],
    ['G', 2, 3],
    ['H', 2, 3],
    ['I', 8, 1],
    ['J', 2, 3],
    ['K', 3, 2],
    ['L', 3, 2],
    ['Ł', 2, 3],
    ['M', 3, 2],
    ['N', 5, 1],
    ['Ń', 1, 7],
    ['O', 6, 1],
    ['Ó', 1, 5],
    ['P', 3, 2],
    ['R', 4, 1],
    ['S', 4, 1],
    ['Ś', 1, 5],
    ['T', 3, 2],
    ['U', 2, 3],
    ['W', 4, 1],
    ['Y', 4, 2],
    ['Z', 5, 1],
    ['Ź', 1, 9],
    ['Ż', 1, 5],
  ],
};

/** Every tile set tilecam knows, by id. Spanish is missing: its CH, LL and RR tiles do not fit one character. */
export const tileSets = { en, de, fr, nl, pl } as const satisfies Record<string, TileSet>;
export type TileSetId = keyof typeof tileSets;
export const tileSetIds = Object.keys(tileSets) as TileSetId[];

export function isTileSetId(id: string): id is TileSetId {
  return Object.hasOwn(tileSets, id);
}

/** The character a blank tile shows in board text when its letter is not known. */
export const BLANK = '?';

const valueCache = new WeakMap<TileSet, Map<string, number>>();

function values(set: TileSet): Map<string, number> {
  let map = valueCache.get(set);
  if (!map) {
    map = new Map(set.letters.map(([letter, , value]) => [letter, value]));
    valueCache.set(set, map);
  }
  return map;
}

/** A blank on the board: `?` (letter unknown) or a lowercase letter (the blank's designated letter). */
export function isBlankTile(tile: string): boolean {
  return tile === BLANK || tile !== tile.toUpperCase();
}

/** Face value of a tile as it appears in board text: blanks score 0; `undefined` for a letter not in the set. */
export function tileValue(set: TileSet, tile: string): number | undefined {
  if (isBlankTile(tile)) return 0;
  return values(set).get(tile);
}

/** Whether the letter (uppercase) belongs to the set. */
export function hasLetter(set: TileSet, letter: string): boolean {
  return values(set).has(letter);
}

/** Total number of tiles in the set, blanks included. */
export function tileCount(set: TileSet): number {
  return set.letters.reduce((sum, [, count]) => sum + count, set.blanks);
}

const VOWELS = new Set('AEIOUÄÖÜĄĘÓY'.split(''));

/** Vowels for the unseen-tile counts. Y counts as a vowel in the Polish set only, by convention of its players. */
export function isVowel(set: TileSet, letter: string): boolean {
  if (letter === 'Y') return set.id === 'pl';
  return VOWELS.has(letter);
}

/** Sum of face values of the tiles in a rack string (`?` for blanks). Unknown letters count 0. */
export function rackValue(set: TileSet, rack: string): number {
  let sum = 0;
  for (const tile of rack) sum += tileValue(set, tile) ?? 0;
  return sum;
}
