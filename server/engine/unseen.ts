/**
 * Unseen tiles: the full set minus the tiles on the board, minus the viewer's own rack where known.
 * With two players and an empty bag, the unseen tiles are exactly the opponent's rack.
 */
import { type Board, EMPTY, type Placement } from './board.ts';
import type { Square } from './result.ts';
import { BLANK, isBlankTile, isVowel, type TileSet } from './tilesets.ts';

export interface Unseen {
  /** Letter (or `?`) → how many are unseen, in the set's order; letters with none left are omitted. */
  readonly tiles: ReadonlyMap<string, number>;
  readonly total: number;
  readonly vowels: number;
  readonly consonants: number;
  readonly blanks: number;
  /** Tiles still in the bag: the unseen tiles less full racks for every player whose rack is not known. */
  readonly bag: number;
  /** More tiles of a letter on the board and rack than the set holds: a misreading or a different set. */
  readonly overdrawn: readonly string[];
}

export interface UnseenOptions {
  /** The viewer's rack, if known (`?` for a blank). */
  readonly rack?: string;
  /** How many other players hold racks (default 1). */
  readonly opponents?: number;
  readonly rackSize?: number;
}

export function unseenTiles(set: TileSet, board: Board, options: UnseenOptions = {}): Unseen {
  const counts = new Map<string, number>(set.letters.map(([l, c]) => [l, c]));
  counts.set(BLANK, set.blanks);
  const take = (tile: string) => {
    const key = isBlankTile(tile) ? BLANK : tile;
    counts.set(key, (counts.get(key) ?? 0) - 1);
  };
  for (const cell of board.cells) if (cell !== EMPTY) take(cell);
  for (const tile of options.rack ?? '') take(tile);
  const tiles = new Map<string, number>();
  const overdrawn: string[] = [];
  let vowels = 0;
  let consonants = 0;
  let total = 0;
  for (const [letter, count] of counts) {
    if (count < 0) overdrawn.push(letter);
    if (count <= 0) continue;
    tiles.set(letter, count);
    total += count;
    if (letter === BLANK) continue;
    if (isVowel(set, letter)) vowels += count;
    else consonants += count;
  }
  // Unknown racks are counted full: the bag is what is left. With the bag empty, the unseen tiles are the racks.
  const unknownRacks = (options.opponents ?? 1) + (options.rack === undefined ? 1 : 0);
  const bag = Math.max(0, total - unknownRacks * (options.rackSize ?? 7));
  return {
    tiles,
    total,
    vowels,
    consonants,
    blanks: tiles.get(BLANK) ?? 0,
    bag,
    overdrawn,
  };
}

/** A kind of tile of which a board holds more than the set has. */
export interface Overdrawn {
  /** The letter, or `?` for blanks (a named blank counts as a blank). */
  readonly tile: string;
  readonly onBoard: number;
  readonly inSet: number;
  /** Where `placements` put tiles of this kind. */
  readonly squares: readonly Square[];
}

/**
 * The kinds of tile that `placements` put on the boards (as they are after them: one board, or all the boards of a
 * game that shares one bag among several) beyond what the set holds: a reading that shows a second Z in English,
 * or a third blank, is a misreading or another set, never a move to score unseen. Kinds already overdrawn before
 * the placements added to them count too; kinds they did not add to do not.
 */
export function overdrawnBy(
  set: TileSet,
  boards: Board | readonly Board[],
  placements: readonly Placement[],
): Overdrawn[] {
  const kind = (tile: string) => (isBlankTile(tile) ? BLANK : tile);
  const limit = new Map<string, number>(set.letters.map(([l, c]) => [l, c]));
  limit.set(BLANK, set.blanks);
  const onBoard = new Map<string, number>();
  for (const board of 'cells' in boards ? [boards] : boards)
    for (const cell of board.cells)
      if (cell !== EMPTY) onBoard.set(kind(cell), (onBoard.get(kind(cell)) ?? 0) + 1);
  const out: Overdrawn[] = [];
  for (const tile of new Set(placements.map((p) => kind(p.tile)))) {
    const inSet = limit.get(tile) ?? 0;
    const count = onBoard.get(tile) ?? 0;
    if (count <= inSet) continue;
    const squares = placements.filter((p) => kind(p.tile) === tile).map(({ row, col }) => ({ row, col }));
    out.push({ tile, onBoard: count, inSet, squares });
  }
  return out;
}

/** `the board would hold 2 Z tiles; the English tile set has 1` (`where`: "the boards" in a game of several). */
export function describeOverdrawn(o: Overdrawn, set: TileSet, where = 'the board'): string {
  const kind = o.tile === BLANK ? 'blank' : `${o.tile} tile`;
  const has = o.inSet === 0 ? 'none' : String(o.inSet);
  return `${where} would hold ${o.onBoard} ${kind}${o.onBoard === 1 ? '' : 's'}; the ${set.name} tile set has ${has}`;
}
