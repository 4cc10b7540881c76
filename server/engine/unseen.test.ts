import { describe, expect, it } from 'vitest';
import {
  boardFromText,
  describeOverdrawn,
  emptyBoard,
  overdrawnBy,
  place,
  tileCount,
  tileSets,
  unseenTiles,
} from './index.ts';

describe('tile sets', () => {
  it('has 100 English tiles, 102 German (with Ä Ö Ü), 102 French and Dutch, 100 Polish', () => {
    expect([tileSets.en, tileSets.de, tileSets.fr, tileSets.nl, tileSets.pl].map(tileCount)).toEqual([
      100, 102, 102, 102, 100,
    ]);
    expect(
      tileSets.de.letters.filter(([l]) => 'ÄÖÜ'.includes(l)).map(([, count, value]) => [count, value]),
    ).toEqual([
      [1, 6],
      [1, 8],
      [1, 6],
    ]);
  });
});

describe('unseen tiles', () => {
  it('starts as the full set, with 42 vowels, 56 consonants and 2 blanks in English', () => {
    const u = unseenTiles(tileSets.en, emptyBoard());
    expect([u.total, u.vowels, u.consonants, u.blanks]).toEqual([100, 42, 56, 2]);
    expect(u.bag).toBe(86); // two full racks not known
  });

  it('takes away the board and the viewer’s rack; a named blank counts as a blank', () => {
    const board = place(emptyBoard(), [
      { row: 7, col: 6, tile: 'Q' },
      { row: 7, col: 7, tile: 'i' },
    ]);
    const u = unseenTiles(tileSets.en, board, { rack: 'AEZ' });
    expect(u.tiles.has('Q')).toBe(false);
    expect(u.tiles.get('?')).toBe(1);
    expect(u.tiles.get('Z')).toBeUndefined();
    expect(u.tiles.get('A')).toBe(8);
    expect(u.total).toBe(95);
    expect(u.bag).toBe(88);
  });

  it('with two players and an empty bag, the unseen tiles are the opponent’s rack', () => {
    // A board holding every English tile but Q, U, I, Z and two E: the viewer holds the E's.
    const letters = tileSets.en.letters.flatMap(([l, c]) => Array<string>(c).fill(l)).concat(['?', '?']);
    for (const t of ['Q', 'U', 'I', 'Z', 'E', 'E']) letters.splice(letters.indexOf(t), 1);
    const rows = Array.from({ length: 15 }, (_, r) =>
      letters
        .slice(r * 15, r * 15 + 15)
        .join('')
        .padEnd(15, '.'),
    );
    const u = unseenTiles(tileSets.en, boardFromText(rows), { rack: 'EE' });
    expect([...u.tiles.entries()]).toEqual([
      ['I', 1],
      ['Q', 1],
      ['U', 1],
      ['Z', 1],
    ]);
    expect(u.bag).toBe(0);
    expect(u.overdrawn).toEqual([]);
  });

  it('names letters seen more often than the set holds (a misreading or another set)', () => {
    const board = place(emptyBoard(), [
      { row: 7, col: 6, tile: 'Z' },
      { row: 7, col: 7, tile: 'Z' },
    ]);
    expect(unseenTiles(tileSets.en, board).overdrawn).toEqual(['Z']);
  });
});

describe('tiles placed beyond the set', () => {
  const before = place(emptyBoard(), [
    { row: 7, col: 6, tile: 'Z' },
    { row: 7, col: 7, tile: 'A' },
    { row: 7, col: 8, tile: '?' },
    { row: 7, col: 9, tile: 'e' },
  ]);

  it('names the kinds a move adds beyond the set, with where it put them', () => {
    // ADZ down through the A, and a third blank: English has one Z and two blanks.
    const move = [
      { row: 8, col: 7, tile: 'D' },
      { row: 9, col: 7, tile: 'Z' },
      { row: 10, col: 7, tile: 's' },
    ];
    expect(overdrawnBy(tileSets.en, place(before, move), move)).toEqual([
      { tile: 'Z', onBoard: 2, inSet: 1, squares: [{ row: 9, col: 7 }] },
      { tile: '?', onBoard: 3, inSet: 2, squares: [{ row: 10, col: 7 }] },
    ]);
    // German also has one Z and two blanks.
    expect(overdrawnBy(tileSets.de, place(before, move), move).map((o) => o.tile)).toEqual(['Z', '?']);
  });

  it('is empty for a move within the set, and ignores kinds the move did not add to', () => {
    const move = [{ row: 8, col: 7, tile: 'D' }];
    expect(overdrawnBy(tileSets.en, place(before, move), move)).toEqual([]);
    // Two Z already on the board (entered by hand): a move of other letters is not held for them.
    const crowded = place(before, [{ row: 0, col: 0, tile: 'Z' }]);
    expect(overdrawnBy(tileSets.en, place(crowded, move), move)).toEqual([]);
    // A letter the set does not have at all (a German Ä on an English board).
    const umlaut = [{ row: 8, col: 7, tile: 'Ä' }];
    expect(overdrawnBy(tileSets.en, place(before, umlaut), umlaut)).toEqual([
      { tile: 'Ä', onBoard: 1, inSet: 0, squares: [{ row: 8, col: 7 }] },
    ]);
  });

  it('counts the tiles of every board of a game that shares one bag, and says it in words', () => {
    const other = place(emptyBoard(), [{ row: 7, col: 7, tile: 'Z' }]);
    const move = [
      { row: 8, col: 7, tile: 'D' },
      { row: 9, col: 7, tile: 'J' },
    ];
    const after = place(emptyBoard(), move);
    expect(overdrawnBy(tileSets.en, [other, after], move)).toEqual([]);
    const z = [{ row: 9, col: 7, tile: 'Z' }];
    const [over] = overdrawnBy(tileSets.en, [other, place(emptyBoard(), z)], z);
    expect(over).toEqual({ tile: 'Z', onBoard: 2, inSet: 1, squares: [{ row: 9, col: 7 }] });
    expect(describeOverdrawn(over!, tileSets.en, 'the boards')).toBe(
      'the boards would hold 2 Z tiles; the English tile set has 1',
    );
    expect(describeOverdrawn({ tile: '?', onBoard: 3, inSet: 2, squares: [] }, tileSets.en)).toBe(
      'the board would hold 3 blanks; the English tile set has 2',
    );
    expect(describeOverdrawn({ tile: 'Ä', onBoard: 1, inSet: 0, squares: [] }, tileSets.en)).toBe(
      'the board would hold 1 Ä tile; the English tile set has none',
    );
  });
});
