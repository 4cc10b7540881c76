/**
 * Tile distributions, one per language: each letter's count and face value. The sets themselves are data files,
 * `data/tilesets/*.json` (format in `data/README.md`), shared with the training renderer; this module checks them
 * once at load and owns the lookups. Never knows about boards or games.
 */

import deJson from './data/tilesets/de.json' with { type: 'json' };
import enJson from './data/tilesets/en.json' with { type: 'json' };
import frJson from './data/tilesets/fr.json' with { type: 'json' };
import nlJson from './data/tilesets/nl.json' with { type: 'json' };
import plJson from './data/tilesets/pl.json' with { type: 'json' };
import { checkTileSet } from './data-check.ts';

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
  /** The letters counted as vowels in the unseen-tile tally, e.g. `AEIOU`; Y is one in the Polish set only. */
  readonly vowels: string;
}

// `@__PURE__` lets a bundle that uses no tile set (the web pages) leave the sets and their check out.
const en = /* @__PURE__ */ checkTileSet(enJson, 'tilesets/en.json');
const de = /* @__PURE__ */ checkTileSet(deJson, 'tilesets/de.json');
const fr = /* @__PURE__ */ checkTileSet(frJson, 'tilesets/fr.json');
const nl = /* @__PURE__ */ checkTileSet(nlJson, 'tilesets/nl.json');
const pl = /* @__PURE__ */ checkTileSet(plJson, 'tilesets/pl.json');

/** Every tile set tilecam knows, by id. Spanish is missing: its CH, LL and RR tiles do not fit one character. */
export const tileSets = { en, de, fr, nl, pl } as const satisfies Record<string, TileSet>;
export type TileSetId = keyof typeof tileSets;
export const tileSetIds = /* @__PURE__ */ Object.keys(tileSets) as TileSetId[];

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

/** Vowels for the unseen-tile counts, as the set's data file lists them. */
export function isVowel(set: TileSet, letter: string): boolean {
  return [...letter].length === 1 && set.vowels.includes(letter);
}

/** Sum of face values of the tiles in a rack string (`?` for blanks). Unknown letters count 0. */
export function rackValue(set: TileSet, rack: string): number {
  let sum = 0;
  for (const tile of rack) sum += tileValue(set, tile) ?? 0;
  return sum;
}
