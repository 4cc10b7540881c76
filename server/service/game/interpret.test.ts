/** What a frame means for the game, rule by rule, on readings made by hand (the real photos: test/hands-free). */
import { describe, expect, it } from 'vitest';
import { type Board, lexiconFromWords, parseBoard, standardLayout, tileSets } from '../../engine/index.ts';
import { fromRack, interpret, type Option, type Reading } from './interpret.ts';

const empty = '.'.repeat(15);
/** A board with `rows` (row index → text) and every other row empty. */
function board(rows: Record<number, string>): Board {
  const parsed = parseBoard(Array.from({ length: 15 }, (_, r) => (rows[r] ?? empty).padEnd(15, '.')));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.board;
}
/** A reading of `read`, with the squares given as unsure and their options. */
function reading(read: Board, unsure: [row: number, col: number, options: Option[]][] = []): Reading {
  return {
    board: read,
    unsure: unsure.map(([row, col]) => ({ row, col })),
    alternatives: unsure.map(([row, col, options]) => ({ row, col, options })),
  };
}
const rowOf = (b: Board, r: number) => b.cells.slice(r * 15, r * 15 + 15).join('');
const en = { layout: standardLayout, tileSet: tileSets.en };
const lexicon = lexiconFromWords('test', ['CAT', 'CATS', 'MAT', 'AT', 'ZA', 'ZAS', 'ADZE']);

describe('a frame read in the game’s context', () => {
  it('takes a committed square as a fact when it is read unsure, and holds nothing for it', () => {
    const committed = board({ 7: '.......CAT' });
    // The C (7H) read unsure as a G, the new S confidently.
    const read = board({ 7: '.......GATS' });
    const seen = interpret(
      reading(read, [
        [
          7,
          7,
          [
            { tile: 'G', p: 0.5 },
            { tile: 'C', p: 0.4 },
          ],
        ],
      ]),
      {
        ...en,
        committed,
      },
    );
    expect(seen.doubts).toEqual([]);
    expect(rowOf(seen.board, 7)).toBe('.......CATS....');
    expect(seen.disturbed).toEqual([]);
  });

  it('reports a committed square read confidently as something else as disturbed, and still decides the move', () => {
    const committed = board({ 7: '.......CAT' });
    const read = board({ 7: '.......OATS' });
    const seen = interpret(reading(read), { ...en, committed });
    expect(seen.disturbed).toEqual([{ row: 7, col: 7 }]);
    expect(seen.doubts).toEqual([]);
    expect(rowOf(seen.board, 7)).toBe('.......CATS....');
  });

  it('takes a blank tile read where the game has a named blank as that blank, not as a disturbed square', () => {
    // CAT with its A a blank named A (lowercase), read as the camera sees it: a blank tile; and a letter where a
    // blank stands is another tile.
    const committed = board({ 7: '.......CaT' });
    const seen = interpret(reading(board({ 7: '.......C?TS' })), { ...en, committed });
    expect(seen.disturbed).toEqual([]);
    expect(rowOf(seen.board, 7)).toBe('.......CaTS....');
    const swapped = interpret(reading(board({ 7: '.......CATS' })), { ...en, committed });
    expect(swapped.disturbed).toEqual([{ row: 7, col: 8 }]);
  });

  it('lets the last move’s tiles read confidently as gone stand (a challenged play taken back)', () => {
    const committed = board({ 7: '.......CATS' });
    const read = board({ 7: '.......CAT' });
    const lastMove = [{ row: 7, col: 10, tile: 'S' }];
    expect(rowOf(interpret(reading(read), { ...en, committed, lastMove }).board, 7)).toBe('.......CAT.....');
    expect(rowOf(interpret(reading(read), { ...en, committed }).board, 7)).toBe('.......CATS....');
  });

  it('resolves a doubtful new letter by the lexicon when the model leans the same way', () => {
    const committed = board({ 7: '........AT' });
    // The new first letter: M 0.55 or W 0.3 — MAT is a word, WAT is not.
    const read = board({ 7: '.......MAT' });
    const seen = interpret(
      reading(read, [
        [
          7,
          7,
          [
            { tile: 'M', p: 0.55 },
            { tile: 'W', p: 0.3 },
            { tile: '#', p: 0.05 },
          ],
        ],
      ]),
      { ...en, committed, lexicon },
    );
    expect(seen.doubts).toEqual([]);
    expect(seen.resolved).toMatchObject([{ row: 7, col: 7, tile: 'M' }]);
    expect(rowOf(seen.board, 7)).toBe('.......MAT.....');
    // Without the lexicon the shares alone (0.55 against 0.3) are too close: the square waits for a person.
    const alone = interpret(
      reading(read, [
        [
          7,
          7,
          [
            { tile: 'M', p: 0.55 },
            { tile: 'W', p: 0.3 },
          ],
        ],
      ]),
      { ...en, committed },
    );
    expect(alone.doubts).toEqual([{ row: 7, col: 7 }]);
  });

  it('weighs a word the lexicon does not know as the lexicon says: less, the more of the words played it holds', () => {
    const committed = board({ 7: '........AT' });
    const read = board({ 7: '.......WAT' });
    const options: Option[] = [
      { tile: 'W', p: 0.6 },
      { tile: 'M', p: 0.3 },
    ];
    const take = (unknownWeight?: number) =>
      interpret(reading(read, [[7, 7, options]]), {
        ...en,
        committed,
        lexicon: unknownWeight === undefined ? lexicon : { ...lexicon, unknownWeight },
      });
    // WAT is no word: at 0.2 (UNKNOWN_WORD) M carries 0.3 against 0.12, too close; at 0.05, 0.3 against 0.03.
    expect(take().doubts).toEqual([{ row: 7, col: 7 }]);
    expect(take(0.2).doubts).toEqual([{ row: 7, col: 7 }]);
    expect(take(0.05).doubts).toEqual([]);
    expect(take(0.05).resolved).toMatchObject([{ row: 7, col: 7, tile: 'M' }]);
  });

  it('weighs a word with a blank by the letters the blank may be', () => {
    // A new C or G before AT and a blank after it: CAT? is a word with an S in the blank (CATS), GAT? none.
    const committed = board({ 7: '........AT' });
    const read = board({ 7: '.......CAT?' });
    const options: Option[] = [
      { tile: 'C', p: 0.55 },
      { tile: 'G', p: 0.3 },
    ];
    const seen = interpret(reading(read, [[7, 7, options]]), { ...en, committed, lexicon });
    expect(seen.doubts).toEqual([]);
    expect(seen.resolved).toMatchObject([{ row: 7, col: 7, tile: 'C' }]);
    expect(rowOf(seen.board, 7)).toBe('.......CAT?....');
    // And the other way: with GATE the only word of the list, CAT? is no word with any letter, GAT? is one. Weighed
    // at a twentieth, the G is taken (a word with a blank was not weighed before: the shares alone held it).
    const gate = { ...lexiconFromWords('test', ['GATE']), unknownWeight: 0.05 };
    const other = interpret(reading(read, [[7, 7, options]]), { ...en, committed, lexicon: gate });
    expect(other.doubts).toEqual([]);
    expect(other.resolved).toMatchObject([{ row: 7, col: 7, tile: 'G' }]);
  });

  it('never lets the lexicon turn a likelier reading into another: the square waits for a person', () => {
    const committed = board({ 7: '........AT' });
    const read = board({ 7: '.......WAT' });
    const seen = interpret(
      reading(read, [
        [
          7,
          7,
          [
            { tile: 'W', p: 0.7 },
            { tile: 'M', p: 0.1 },
          ],
        ],
      ]),
      {
        ...en,
        committed,
        lexicon,
      },
    );
    expect(seen.doubts).toEqual([{ row: 7, col: 7 }]);
    expect(seen.resolved).toEqual([]);
  });

  it('resolves a doubtful letter by the tile counts: English has one Z', () => {
    const committed = board({ 6: '.......Z', 7: '.......A' });
    // Down from the Z: ZA + a new tile read Z (0.5) or S (0.4); a second Z is no tile of the set.
    const read = board({ 6: '.......Z', 7: '.......A', 8: '.......Z' });
    const seen = interpret(
      reading(read, [
        [
          8,
          7,
          [
            { tile: 'Z', p: 0.5 },
            { tile: 'S', p: 0.4 },
          ],
        ],
      ]),
      {
        ...en,
        committed,
      },
    );
    expect(seen.resolved).toMatchObject([{ row: 8, col: 7, tile: 'S' }]);
  });

  it('takes no reading the model all but ruled out, however the others fail: the square waits for a person', () => {
    const committed = board({ 6: '.......Z', 7: '.......A' });
    const read = board({ 6: '.......Z', 7: '.......A', 8: '.......Z' });
    const seen = (s: number) =>
      interpret(
        reading(read, [
          [
            8,
            7,
            [
              { tile: 'Z', p: 0.9 },
              { tile: 'S', p: s },
            ],
          ],
        ]),
        { ...en, committed },
      );
    // A second Z is no tile of the set, and S alone is legal: at 0.04 it is a guess, at 0.06 the model's reading.
    expect(seen(0.04).doubts).toEqual([{ row: 8, col: 7 }]);
    expect(seen(0.04).resolved).toEqual([]);
    expect(seen(0.06).doubts).toEqual([]);
    expect(seen(0.06).resolved).toMatchObject([{ row: 8, col: 7, tile: 'S' }]);
  });

  it('only weighs readings that make one legal placement', () => {
    const committed = board({ 7: '.......CAT' });
    // A new S after CAT, and a square far off read as a tile (0.5) or empty (0.45): a tile there is no one move.
    const read = board({ 7: '.......CATS', 2: '..E' });
    const seen = interpret(
      reading(read, [
        [
          2,
          2,
          [
            { tile: 'E', p: 0.5 },
            { tile: '.', p: 0.45 },
          ],
        ],
      ]),
      {
        ...en,
        committed,
      },
    );
    expect(seen.doubts).toEqual([]);
    expect(rowOf(seen.board, 2)).toBe(empty);
    expect(rowOf(seen.board, 7)).toBe('.......CATS....');
  });

  // A hand over 8K, its arm reaching in from the board's edge down columns K and L.
  type Unsure = [row: number, col: number, options: Option[]];
  const odd = (row: number, col: number, p = 0.7): Unsure => [
    row,
    col,
    [
      { tile: '#', p },
      { tile: '.', p: 1 - p },
    ],
  ];
  const arm = Array.from({ length: 7 }, (_, k) => [odd(8 + k, 10), odd(8 + k, 11)]).flat();
  const handOver = (tile: string): Unsure => [
    7,
    10,
    [
      { tile: '#', p: 0.6 },
      { tile, p: 0.3 },
    ],
  ];

  it('holds a square under a hand, saying so', () => {
    const committed = board({ 7: '.......CAT' });
    const read = board({ 7: '.......CATS' });
    const seen = interpret(reading(read, [handOver('S'), ...arm]), { ...en, committed });
    expect(seen.hand).toBe(true);
    // The square under the arm beside the new tile waits too.
    expect(seen.doubts).toEqual([
      { row: 7, col: 10 },
      { row: 8, col: 10 },
    ]);
  });

  it('takes no hand from squares the model finds odd that no arm joins to the board’s edge', () => {
    const committed = board({ 7: '.......CAT' });
    const read = board({ 7: '.......CATS' });
    // The hand share alone on 8K, or on 8K and a neighbour: a doubtful square, not a hand.
    for (const extra of [[], [arm[0]!]]) {
      const seen = interpret(reading(read, [handOver('S'), ...extra]), { ...en, committed });
      expect(seen.hand).toBe(false);
    }
    // A run that stops short of the edge is not; one that reaches it is.
    const short = interpret(reading(read, [handOver('S'), ...arm.slice(0, 12)]), { ...en, committed });
    expect(short.hand).toBe(false);
    expect(interpret(reading(read, [handOver('S'), ...arm]), { ...en, committed }).hand).toBe(true);
  });

  it('takes no hand from a line of odd squares: a hand covers squares both ways', () => {
    const committed = board({ 7: '.......CAT' });
    const read = board({ 7: '.......CATS' });
    // One square wide down column K to the edge (a row of the grid over the board's border looks so).
    const line = arm.filter(([, col]) => col === 10);
    expect(interpret(reading(read, [handOver('S'), ...line]), { ...en, committed }).hand).toBe(false);
    // The diagonal's premium squares seen at an angle, read surely odd, touching corner to corner out to the edge.
    const diagonal = Array.from({ length: 4 }, (_, k) => odd(8 + k, 11 + k, 0.9));
    const seen = interpret(reading(read, [handOver('S'), ...diagonal]), { ...en, committed });
    expect(seen.hand).toBe(false);
    // Faint in a block (the arm read 0.4 each): no hand either; read 0.7, a hand.
    const faint = arm.map(([row, col]) => odd(row, col, 0.4));
    expect(interpret(reading(read, [handOver('S'), ...faint]), { ...en, committed }).hand).toBe(false);
  });

  it('holds when two legal readings are close and the lexicon cannot tell them apart', () => {
    const committed = board({ 7: '........AT' });
    const read = board({ 7: '.......BAT' });
    const seen = interpret(
      reading(read, [
        [
          7,
          7,
          [
            { tile: 'B', p: 0.45 },
            { tile: 'R', p: 0.4 },
          ],
        ],
      ]),
      {
        ...en,
        committed,
        lexicon,
      },
    );
    expect(seen.doubts).toEqual([{ row: 7, col: 7 }]);
  });

  it('takes a lone square read mostly as a hand, and empty among the rest, as empty (seen from a seat)', () => {
    const committed = board({ 7: '.......CAT' });
    const read = board({ 7: '.......CATS' });
    // 9K, below the new S: the model's hand share is high, with no hand's region around it; the rest reads empty.
    const odd = (empty: number): [number, number, Option[]] => [
      8,
      10,
      [
        { tile: '#', p: 0.88 },
        { tile: '.', p: empty },
        { tile: 'H', p: 0.002 },
        { tile: 'L', p: 0.001 },
      ],
    ];
    const seen = interpret(reading(read, [odd(0.104)]), { ...en, committed });
    expect(seen.doubts).toEqual([]);
    expect(rowOf(seen.board, 7)).toBe('.......CATS....');
    expect(rowOf(seen.board, 8)).toBe(empty);
    // The rest reading a letter as much: still in doubt.
    const letter: [number, number, Option[]] = [
      8,
      10,
      [
        { tile: '#', p: 0.6 },
        { tile: '.', p: 0.2 },
        { tile: 'S', p: 0.2 },
      ],
    ];
    expect(interpret(reading(read, [letter]), { ...en, committed }).doubts).toEqual([{ row: 8, col: 10 }]);
  });

  it('takes doubtful squares off the line of the move’s sure tiles as empty, however many they are', () => {
    const committed = board({ 7: '.......CAT' });
    // The new S read surely at 8K; a dozen empty squares around the words read unsure, empty first or a letter first.
    const read = board({ 7: '.......CATS' });
    const around: [number, number, Option[]][] = [];
    for (const col of [4, 5, 6, 7, 8, 9, 12, 13])
      for (const row of [6, 8])
        around.push([
          row,
          col,
          [
            { tile: col % 2 ? 'M' : '.', p: 0.5 },
            { tile: col % 2 ? '.' : 'U', p: 0.3 },
            { tile: '?', p: 0.1 },
          ],
        ]);
    // Over MAX_COMBINATIONS (3^16) to weigh: before, every one of them was held.
    const seen = interpret(reading(read, around), { ...en, committed });
    expect(seen.doubts).toEqual([]);
    expect(rowOf(seen.board, 6)).toBe(empty);
    expect(rowOf(seen.board, 8)).toBe(empty);
    expect(rowOf(seen.board, 7)).toBe('.......CATS....');
    // On the move's line, a square that could be a tile is still weighed (here: a second new tile at 8L, possible).
    const online: [number, number, Option[]] = [
      7,
      11,
      [
        { tile: 'S', p: 0.5 },
        { tile: '.', p: 0.45 },
      ],
    ];
    expect(interpret(reading(read, [...around, online]), { ...en, committed }).doubts).toEqual([
      { row: 7, col: 11 },
    ]);
    // No sure new tile to give the line: nothing is taken off.
    const beside = around.filter(([, col]) => col === 7 || col === 8);
    const none = interpret(reading(committed, beside), { ...en, committed });
    expect(none.doubts.length).toBeGreaterThan(0);
  });
});

describe('the rack a camera at the player’s place saw', () => {
  const placed = (tiles: string) => [...tiles].map((tile, col) => ({ row: 7, col, tile }));

  it('fits a move to the rack tile by tile: a letter to a tile that may be it, a blank to a tile not seen', () => {
    const rack = { tiles: [['A'], ['A'], ['C'], ['D'], ['E', 'B'], ['R']], unseen: 1 };
    expect(fromRack(placed('CRAA?ED'), rack)).toBe(true);
    expect(fromRack(placed('CRAAlED'), rack)).toBe(true);
    // An L: no tile seen may be one, and the one not seen holds the blank.
    expect(fromRack(placed('CRAA?LD'), rack)).toBe(false);
    expect(fromRack(placed('CRAALD'), rack)).toBe(true);
    // The unsure tile is an E or a B, not both: a B and an E take the tile not seen too, and the L then has none.
    expect(fromRack(placed('BE'), rack)).toBe(true);
    expect(fromRack(placed('BEL'), rack)).toBe(false);
    // Three As from a rack of two, one of them not seen.
    expect(fromRack(placed('AAA'), rack)).toBe(true);
    expect(fromRack(placed('AAAA'), rack)).toBe(false);
    expect(fromRack(placed('AACDERST'), rack)).toBe(false);
  });

  it('weighs a reading the rack cannot have held down, so that the one it could is taken', () => {
    const committed = board({});
    // CAT or CAR across the star, the last letter as likely either way; both words known.
    const words = lexiconFromWords('test', ['CAT', 'CAR']);
    const read = board({ 7: '......CAT' });
    const unsure = reading(read, [
      [
        7,
        8,
        [
          { tile: 'T', p: 0.45 },
          { tile: 'R', p: 0.45 },
        ],
      ],
    ]);
    const alone = interpret(unsure, { ...en, committed, lexicon: words });
    expect(alone.doubts).toEqual([{ row: 7, col: 8 }]);
    // The rack held an R and no T.
    const rack = { tiles: [['C'], ['A'], ['R'], ['E'], ['S'], ['I'], ['N']], unseen: 0 };
    const seen = interpret(unsure, { ...en, committed, lexicon: words, rack });
    expect(seen.doubts).toEqual([]);
    expect(rowOf(seen.board, 7)).toBe('......CAR......');
    // A rack that may hold either (a tile read T or R) decides nothing.
    const either = { tiles: [['C'], ['A'], ['T', 'R'], ['E']], unseen: 3 };
    expect(interpret(unsure, { ...en, committed, lexicon: words, rack: either }).doubts).toEqual([
      { row: 7, col: 8 },
    ]);
  });
});
