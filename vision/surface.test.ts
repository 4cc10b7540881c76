import { describe, expect, it } from 'vitest';
import { standardLayout } from '../server/engine/index.ts';
import { gridHomography } from './homography.ts';
import {
  boardColours,
  boardLines,
  borderColours,
  clearerMoved,
  facesOver,
  fewerBlanks,
  type Lab,
  layoutContrast,
  linesOffGrid,
  MAX_LINES_OFF,
  offTheFaces,
  oneColourEdge,
  ontoLines,
  settleBlanks,
  squaresShown,
  toLab,
  uncoveredWindow,
} from './surface.ts';
import type { Corners } from './types.ts';
import { CELL, MARGIN, WARPED } from './warp.ts';

type Rgb = readonly [number, number, number];
const SKIN: Rgb = [205, 150, 120];
const GREEN: Rgb = [40, 110, 60];
const CREAM: Rgb = [235, 225, 200];
/** Squares a little greyer than the cream tiles: 6.4 apart (CIE ΔE, lightness halved), as jheidel-en's red board's
 *  grey-beige squares are 6.5 from its pale wooden tiles. */
const PALE: Rgb = [224, 216, 203];
const INK: Rgb = [20, 20, 20];

/** A straightened board: every square `square`, tiles (cream, a dark bar for a letter unless blank) where asked,
 *  and a hand over the `hand` cells. */
function board(
  square: Rgb,
  tiles: ReadonlyMap<number, 'letter' | 'blank'>,
  hand: readonly number[] = [],
): Uint8Array {
  const data = new Uint8Array(WARPED * WARPED * 3);
  for (let y = 0; y < WARPED; y++) {
    for (let x = 0; x < WARPED; x++) {
      const [r, c] = [Math.floor((y - MARGIN) / CELL), Math.floor((x - MARGIN) / CELL)];
      const kind = r >= 0 && r < 15 && c >= 0 && c < 15 ? tiles.get(r * 15 + c) : undefined;
      const [u, v] = [(x - MARGIN) % CELL, (y - MARGIN) % CELL];
      const ink = kind === 'letter' && u > 16 && u < 23 && v > 8 && v < 32;
      const skin = r >= 0 && r < 15 && c >= 0 && c < 15 && hand.includes(r * 15 + c);
      data.set(skin ? SKIN : ink ? INK : kind ? CREAM : square, (y * WARPED + x) * 3);
    }
  }
  return data;
}

/** Row 8 holds CAT at columns 7–9 and a blank at column 10; the classifier read the blank as empty. */
const tiles = new Map<number, 'letter' | 'blank'>([
  [7 * 15 + 7, 'letter'],
  [7 * 15 + 8, 'letter'],
  [7 * 15 + 9, 'letter'],
  [7 * 15 + 10, 'blank'],
]);
const read = Array.from({ length: 225 }, (_, i) => (tiles.get(i) === 'letter' ? 'C' : '.'));

describe('settleBlanks', () => {
  it('takes a tile-coloured cell read empty for a blank, and keeps the green squares empty', () => {
    const image = { width: WARPED, height: WARPED, data: board(GREEN, tiles) };
    const settled = settleBlanks(boardColours(image), read, Array(225).fill(0.95), Array(225).fill(0.97));
    expect(settled.chars[7 * 15 + 10]).toBe('?');
    expect(settled.chars.filter((ch) => ch === '?')).toHaveLength(1);
    expect(settled.confidence[7 * 15 + 10]).toBeGreaterThan(0.8);
  });

  it('reads a tile-coloured cell read empty as the letter the model saw there, when it saw more of it than of a blank', () => {
    const image = { width: WARPED, height: WARPED, data: board(GREEN, tiles) };
    const at = 7 * 15 + 10;
    // The model read the cell as empty; a thin I was its best letter, at 0.2 of the readings.
    const letters = {
      letter: Array(225).fill('I'),
      letterShare: Array(225).fill(0.01),
      blankShare: Array(225).fill(0.02),
    };
    letters.letterShare[at] = 0.2;
    letters.blankShare[at] = 0.05;
    const settled = settleBlanks(
      boardColours(image),
      read,
      Array(225).fill(0.95),
      Array(225).fill(0.97),
      letters,
    );
    expect(settled.chars[at]).toBe('I');
    // Read, but never sure: the model did not prefer the letter.
    expect(settled.confidence[at]).toBeCloseTo(0.2, 6);
    // Where the model saw more of a blank than of any letter, a blank; green squares stay empty.
    letters.blankShare[at] = 0.3;
    const blank = settleBlanks(
      boardColours(image),
      read,
      Array(225).fill(0.95),
      Array(225).fill(0.97),
      letters,
    );
    expect(blank.chars[at]).toBe('?');
    expect(blank.chars.filter((ch) => ch !== '.' && ch !== 'C')).toEqual(['?']);
  });

  it('leaves a tile-coloured cell read empty in doubt, not a tile, where the tile in front may stand over it', () => {
    // Seen from a seat, the tile at 8J's face is drawn over the square behind it, 8K (here the blank's cell, as
    // seen, its colour a tile's): the colour cannot say whether it is that face or a tile of its own.
    const colours = boardColours({ width: WARPED, height: WARPED, data: board(GREEN, tiles) });
    const at = 7 * 15 + 10;
    const coveredBy = Array.from({ length: 225 }, () => [] as number[]);
    /** The cells read `chars`, each as sure as `sure`, with `coveredBy` as it stands. */
    const settle = (chars: readonly string[], sure: number) =>
      settleBlanks(colours, chars, Array(225).fill(sure), Array(225).fill(0.97), undefined, coveredBy);
    coveredBy[at] = [at - 1];
    const settled = settle(read, 0.95);
    expect(settled.chars[at]).toBe('.');
    expect(settled.confidence[at]).toBeLessThan(0.5);
    // Read as a blank there, it is not the surer for the colour.
    const asBlank = settle(
      read.map((c, i) => (i === at ? '?' : c)),
      0.3,
    );
    expect(asBlank.chars[at]).toBe('?');
    expect(asBlank.confidence[at]).toBe(0.3);
    // Behind an empty square, the colour decides as before.
    coveredBy[at] = [at + 1];
    expect(settle(read, 0.95).chars[at]).toBe('?');
  });

  it('takes a cell read empty behind a tile as sure as the part the face in front leaves uncovered shows the square', () => {
    // 8K read empty, its middle the colour of the face of the tile at 8J in front of it (a blank's cell, as seen).
    const colours = boardColours({ width: WARPED, height: WARPED, data: board(GREEN, tiles) });
    const at = 7 * 15 + 10;
    const coveredBy = Array.from({ length: 225 }, () => [] as number[]);
    coveredBy[at] = [at - 1];
    const green = boardColours({ width: WARPED, height: WARPED, data: board(GREEN, new Map()) })[at]!;
    const settle = (uncovered: Lab | undefined) => {
      const asked: (readonly number[])[] = [];
      const settled = settleBlanks(
        colours,
        read,
        Array.from({ length: 225 }, (_, i) => (i === at ? 0.2 : 0.95)),
        Array(225).fill(0.97),
        undefined,
        coveredBy,
        (i, fronts) => {
          asked.push([i, ...fronts]);
          return uncovered;
        },
      );
      return { settled, asked };
    };
    // What the face leaves shows the board's green: an empty square, as sure as a square read empty that shows it.
    const square = settle(green);
    expect(square.asked).toEqual([[at, at - 1]]);
    expect(square.settled.chars[at]).toBe('.');
    expect(square.settled.confidence[at]).toBeGreaterThan(0.9);
    // It shows a tile's cream (a blank behind the face), or too little is left to see: as unsure as the middle's
    // colour makes it, as without a look at what is left.
    for (const uncovered of [colours[at - 1]!, undefined]) {
      const { settled } = settle(uncovered);
      expect(settled.chars[at]).toBe('.');
      expect(settled.confidence[at]).toBeLessThan(0.2);
    }
  });

  it('takes board-coloured cells read as blanks for empty squares', () => {
    const image = { width: WARPED, height: WARPED, data: board(GREEN, tiles) };
    const seen = read.map((ch, i) => (i % 3 === 0 && ch === '.' ? '?' : ch));
    const settled = settleBlanks(boardColours(image), seen, Array(225).fill(0.9), Array(225).fill(0.97));
    expect(settled.chars.join('')).toBe(read.map((ch, i) => (i === 7 * 15 + 10 ? '?' : ch)).join(''));
  });

  it('leaves the reading alone where the squares look like the tiles', () => {
    const image = { width: WARPED, height: WARPED, data: board(CREAM, tiles) };
    const settled = settleBlanks(boardColours(image), read, Array(225).fill(0.95), Array(225).fill(0.97));
    expect(settled.chars).toEqual(read);
    expect(settled.confidence).toEqual(Array(225).fill(0.95));
  });

  it('takes a tile-coloured cell read empty for a blank where the squares are only a little greyer than the tiles', () => {
    const [tile, square] = [toLab(...CREAM), toLab(...PALE)];
    const apart = Math.hypot(0.5 * (tile[0] - square[0]), tile[1] - square[1], tile[2] - square[2]);
    expect(apart).toBeGreaterThan(5);
    expect(apart).toBeLessThan(8);
    const image = { width: WARPED, height: WARPED, data: board(PALE, tiles) };
    // A square read as a blank that shows the squares' colour is empty; the blank read empty is a blank.
    const seen = read.map((ch, i) => (i === 3 * 15 + 3 ? '?' : ch));
    const settled = settleBlanks(boardColours(image), seen, Array(225).fill(0.95), Array(225).fill(0.97));
    expect(settled.chars).toEqual(read.map((ch, i) => (i === 7 * 15 + 10 ? '?' : ch)));
    // Where the squares are the tiles' colour, nothing is settled (above); nearer still than these, neither.
    const near: Rgb = [230, 221, 201];
    const [n] = [toLab(...near)];
    expect(Math.hypot(0.5 * (tile[0] - n[0]), tile[1] - n[1], tile[2] - n[2])).toBeLessThan(5);
    const alike = { width: WARPED, height: WARPED, data: board(near, tiles) };
    expect(
      settleBlanks(boardColours(alike), seen, Array(225).fill(0.95), Array(225).fill(0.97)).chars,
    ).toEqual(seen);
  });

  it('does not take a hand, nearer the tiles than the board but far from both, for a blank', () => {
    const hand = [12 * 15 + 3, 12 * 15 + 4];
    const image = { width: WARPED, height: WARPED, data: board(GREEN, tiles, hand) };
    const settled = settleBlanks(boardColours(image), read, Array(225).fill(0.95), Array(225).fill(0.97));
    for (const i of hand) {
      expect(settled.chars[i]).toBe('.');
      expect(settled.confidence[i]).toBeLessThan(0.8);
    }
    expect(settled.chars[7 * 15 + 10]).toBe('?');
  });

  it('needs lettered tiles to know the tile colour', () => {
    const image = { width: WARPED, height: WARPED, data: board(GREEN, new Map([[112, 'blank']])) };
    const empty = Array(225).fill('.');
    expect(settleBlanks(boardColours(image), empty, Array(225).fill(0.9), Array(225).fill(1)).chars).toEqual(
      empty,
    );
  });
});

describe('an outer row of one colour, neither tiles nor squares (oneColourEdge)', () => {
  const colours = boardColours({ width: WARPED, height: WARPED, data: board(GREEN, tiles) });
  const sure = Array(225).fill(0.95);
  const black = boardColours({ width: WARPED, height: WARPED, data: board([12, 12, 12], new Map()) })[0]!;

  it('finds none on a board, whose edge rows show its squares', () => {
    expect(oneColourEdge(colours, read, sure)).toBeUndefined();
  });

  it("names the side whose row lies on the board's dark border", () => {
    const bottom = colours.map((c, i) => (i >= 14 * 15 ? black : c));
    expect(oneColourEdge(bottom, read, sure)).toBe('bottom');
    const left = colours.map((c, i) => (i % 15 === 0 ? black : c));
    expect(oneColourEdge(left, read, sure)).toBe('left');
    // One square of the row a board's colour: not one colour.
    expect(
      oneColourEdge(
        bottom.map((c, i) => (i === 14 * 15 + 7 ? colours[0]! : c)),
        read,
        sure,
      ),
    ).toBeUndefined();
  });

  it('says nothing without sure tiles and plain squares to compare with', () => {
    const bottom = colours.map((c, i) => (i >= 14 * 15 ? black : c));
    expect(oneColourEdge(bottom, read, Array(225).fill(0.5))).toBeUndefined();
  });
});

describe("a tile read where its face shows the board's colour (offTheFaces)", () => {
  // A green board read surely empty but for seven cream tiles along row 8 (C4–C10) and a W at H1, where a camera at a
  // seat sees the border's printed name above the far row's empty squares.
  const lab = (rgb: Rgb) => toLab(...rgb);
  const H1 = 7;
  const row8 = [3, 4, 5, 6, 7, 8, 9].map((c) => 7 * 15 + c);
  const chars = Array.from({ length: 225 }, (_, i) => (i === H1 ? 'W' : row8.includes(i) ? 'C' : '.'));
  const confidence = Array.from({ length: 225 }, (_, i) => (i === H1 ? 0.83 : 0.97));
  const onBoard = Array.from({ length: 225 }, (_, i) => lab(row8.includes(i) ? CREAM : GREEN));
  /** The faces' plane's colours: the board's, with H1's as given. */
  const faces = (h1: Rgb) => onBoard.map((c, i) => (i === H1 ? lab(h1) : c));

  it("puts in doubt a letter read on the board's colour, and nothing else", () => {
    // The border's print: green, a little darker than the squares.
    const out = offTheFaces(faces([34, 100, 52]), onBoard, chars, confidence);
    expect(out).toBeDefined();
    expect(out![H1]).toBeLessThan(0.83 / 4);
    expect(out!.filter((p, i) => i !== H1 && p !== confidence[i])).toEqual([]);
  });

  it("leaves a tile whose face is far from the others' but near no square's (a darker tile of wood)", () => {
    expect(offTheFaces(faces([125, 75, 35]), onBoard, chars, confidence)).toBeUndefined();
  });

  it("leaves a tile whose face shows the tiles' colour", () => {
    expect(offTheFaces(faces([228, 220, 196]), onBoard, chars, confidence)).toBeUndefined();
  });

  it("puts in doubt a letter read on the border's colour, where the border is not the squares' colour", () => {
    const red: Rgb = [150, 30, 35];
    const border = [lab(red), lab(red), lab(red), lab(red)];
    expect(offTheFaces(faces([140, 35, 40]), onBoard, chars, confidence)).toBeUndefined();
    expect(offTheFaces(faces([140, 35, 40]), onBoard, chars, confidence, border)![H1]).toBeLessThan(0.83 / 4);
  });

  it("takes the border's colour beside each side of the grid, top, right, bottom, left", () => {
    // A green board with a border a square wide, each side its own colour (the corners the left and right sides').
    const sides: Rgb[] = [
      [150, 30, 35],
      [30, 40, 150],
      [200, 180, 40],
      [90, 50, 20],
    ];
    const data = board(GREEN, tiles);
    const at = (x: number, y: number) => (y * WARPED + x) * 3;
    for (let y = 0; y < WARPED; y++)
      for (let x = 0; x < WARPED; x++) {
        if (x < MARGIN) data.set(sides[3]!, at(x, y));
        else if (x >= MARGIN + 15 * CELL) data.set(sides[1]!, at(x, y));
        else if (y < MARGIN) data.set(sides[0]!, at(x, y));
        else if (y >= MARGIN + 15 * CELL) data.set(sides[2]!, at(x, y));
      }
    const [a, b] = [MARGIN, MARGIN + 15 * CELL];
    const h = gridHomography([
      [a, a],
      [b, a],
      [b, b],
      [a, b],
    ]);
    const found = borderColours({ width: WARPED, height: WARPED, data }, h);
    expect(found).toHaveLength(4);
    found.forEach((c, k) => {
      expect(Math.hypot(...c.map((v, j) => v - lab(sides[k]!)[j]!)), `side ${k}`).toBeLessThan(1);
    });
  });

  it('judges a square against at least three other tiles read surely, and needs squares read surely empty', () => {
    // H1 itself is read surely (0.83): with C4–C6 it makes four sure tiles, three others for H1.
    const three = confidence.map((p, i) => (row8.indexOf(i) >= 3 ? 0.5 : p));
    expect(offTheFaces(faces(GREEN), onBoard, chars, three)?.[H1]).toBeLessThan(0.83 / 4);
    const two = confidence.map((p, i) => (row8.indexOf(i) >= 2 ? 0.5 : p));
    expect(offTheFaces(faces(GREEN), onBoard, chars, two)).toBeUndefined();
    const noEmpty = confidence.map((p, i) => (chars[i] === '.' ? 0.6 : p));
    expect(offTheFaces(faces(GREEN), onBoard, chars, noEmpty)).toBeUndefined();
  });

  it('puts in doubt the letters of a printed name side by side, though they outnumber the tiles near them', () => {
    // CROSSWORD read in the far row, E1–M1, surely; the only real tiles C4–C6 and C8 of row 8 lie farther from most.
    const name = [4, 5, 6, 7, 8, 9, 10, 11, 12];
    const real = [7 * 15 + 3, 7 * 15 + 4, 7 * 15 + 5, 7 * 15 + 7];
    const read = Array.from({ length: 225 }, (_, i) =>
      name.includes(i) ? 'W' : real.includes(i) ? 'C' : '.',
    );
    const sure = Array(225).fill(0.95);
    const squares = Array.from({ length: 225 }, (_, i) => lab(real.includes(i) ? CREAM : GREEN));
    const onFaces = squares.map((c, i) => (name.includes(i) ? lab([34, 100, 52]) : c));
    const out = offTheFaces(onFaces, squares, read, sure);
    expect(out).toBeDefined();
    for (const i of name) expect(out![i], `square ${i}`).toBeLessThan(0.95 / 4);
    for (const i of real) expect(out![i]).toBe(0.95);
  });
});

describe('the squares that show their own colour (squaresShown)', () => {
  const image = (hand: readonly number[]) => ({
    width: WARPED,
    height: WARPED,
    data: board(GREEN, tiles, hand),
  });
  const sure = Array(225).fill(0.95);

  it('names the empty squares that show their colour, not those under a hand, nor the tiles', () => {
    // A hand over four empty squares of row 5 and one of CAT's tiles.
    const hand = [4 * 15 + 5, 4 * 15 + 6, 5 * 15 + 5, 5 * 15 + 6, 7 * 15 + 8];
    const colours = boardColours(image(hand));
    const shown = squaresShown(colours, read, sure);
    for (const i of hand) expect(shown[i], `square ${i}`).toBe(false);
    for (const i of [7 * 15 + 7, 7 * 15 + 9]) expect(shown[i]).toBe(false);
    expect(shown.filter(Boolean)).toHaveLength(225 - hand.length - 2 - 1);
  });

  it('names none where too few squares of a kind read surely empty to know its colour', () => {
    const colours = boardColours(image([]));
    expect(squaresShown(colours, read, Array(225).fill(0.9)).some(Boolean)).toBe(false);
  });
});

describe('the squares behind tiles seen from the side (facesOver)', () => {
  /** Per square, the squares in front whose faces cover it. */
  const behindFaces = (corners: Corners, faces: Corners) =>
    facesOver(corners, faces).map((over) => over.map((f) => f.front));
  /** A grid of 20-pixel squares from (100, 100). */
  const grid = (dx: number, dy: number): Corners => [
    [100 + dx, 100 + dy],
    [400 + dx, 100 + dy],
    [400 + dx, 400 + dy],
    [100 + dx, 400 + dy],
  ];

  it('names, for each square, the one in front whose face is drawn over a quarter of it or more', () => {
    // The faces drawn 8 pixels (0.4 of a square) up: each face covers the square above its own.
    const covered = behindFaces(grid(0, 0), grid(0, -8));
    expect(covered[3 * 15 + 4]).toEqual([4 * 15 + 4]);
    expect(covered[0 * 15 + 9]).toEqual([1 * 15 + 9]);
    // The near row has no square in front of it.
    expect(covered[14 * 15 + 4]).toEqual([]);
    // Sideways too: faces drawn 6 pixels left cover the square to their left; from a corner, both.
    expect(behindFaces(grid(0, 0), grid(-6, 0))[7 * 15 + 3]).toEqual([7 * 15 + 4]);
    expect(behindFaces(grid(0, 0), grid(-6, -8))[6 * 15 + 3]).toEqual([6 * 15 + 4, 7 * 15 + 3]);
  });

  it('says how far into the square behind each face reaches, and what it leaves uncovered', () => {
    // Faces drawn 12 pixels (0.6 of a square) up: each reaches 0.6 into the square above from its bottom.
    const over = facesOver(grid(0, 0), grid(0, -12));
    expect(over[3 * 15 + 4]).toEqual([{ front: 4 * 15 + 4, side: 'bottom', reach: expect.closeTo(0.6, 6) }]);
    // What is left: the top of the square, clear of the face and of the square's edge; across, its middle half.
    const window = uncoveredWindow(over[3 * 15 + 4]!)!;
    expect(window.map((v) => Math.round(v * 100) / 100)).toEqual([0.25, 0.75, 0.08, 0.32]);
    // Drawn down and to the right (a view from the other corner): from the top and the left.
    const corner = facesOver(grid(0, 0), grid(6, 8))[5 * 15 + 5]!;
    expect(corner.map((f) => [f.front, f.side])).toEqual([
      [4 * 15 + 5, 'top'],
      [5 * 15 + 4, 'left'],
    ]);
    expect(uncoveredWindow(corner)!.map((v) => Math.round(v * 100) / 100)).toEqual([0.38, 0.92, 0.48, 0.92]);
    // Faces reaching 0.8 in leave less than a band to take a colour from.
    expect(uncoveredWindow(facesOver(grid(0, 0), grid(0, -16))[3 * 15 + 4]!)).toBeUndefined();
    expect(uncoveredWindow([])).toEqual([0.25, 0.75, 0.25, 0.75]);
  });

  it('names none where the faces are drawn over less than a quarter of a square, or on the board itself', () => {
    expect(behindFaces(grid(0, 0), grid(0, -4)).every((c) => c.length === 0)).toBe(true);
    const flat = grid(0, 0);
    expect(behindFaces(flat, flat).every((c) => c.length === 0)).toBe(true);
  });
});

describe('fewerBlanks', () => {
  const cells = (reads: [number, string, number][]) => {
    const chars = Array<string>(225).fill('.');
    const confidence = Array<number>(225).fill(0.99);
    for (const [i, c, p] of reads) {
      chars[i] = c;
      confidence[i] = p;
    }
    return { chars, confidence };
  };

  it('keeps the blanks read most surely and reads the others empty, all in doubt', () => {
    const read = cells([
      [10, '?', 0.42],
      [20, '?', 0.95],
      [30, 'E', 0.99],
      [40, '?', 0.12],
      [50, '?', 0.9],
    ]);
    const out = fewerBlanks(read, 2);
    expect([10, 20, 30, 40, 50].map((i) => out.chars[i])).toEqual(['.', '?', 'E', '.', '?']);
    expect(out.confidence[10]).toBeCloseTo(0.42);
    expect(out.confidence[40]).toBeCloseTo(0.12);
    // The blanks kept are in doubt too: which squares hold the set's blanks is the game's to say.
    expect(out.confidence[20]).toBe(0.5);
    expect(out.confidence[50]).toBe(0.5);
    expect(out.confidence[30]).toBe(0.99);
    // A blank read surely that the set has no room for is not surely empty either.
    expect(
      fewerBlanks(
        cells([
          [5, '?', 0.9],
          [6, '?', 0.97],
          [7, '?', 0.99],
        ]),
        2,
      ).confidence[5],
    ).toBeCloseTo(0.1);
  });

  it('leaves a board with no more blanks than the set alone, and a set without blanks has none read', () => {
    const read = cells([
      [10, '?', 0.6],
      [20, '?', 0.95],
    ]);
    expect(fewerBlanks(read, 2)).toBe(read);
    expect(fewerBlanks(read, 0).chars.includes('?')).toBe(false);
  });
});

describe('whether the grid lies on the board (layoutContrast)', () => {
  // The standard layout's premium kinds, each its own colour, in Lab; the plain squares grey-green.
  const colourOf: Record<string, Lab> = {
    '.': [50, -20, 10],
    d: [70, -15, -25],
    t: [50, -10, -40],
    D: [65, 35, 5],
    T: [45, 55, 35],
    '*': [65, 35, 5],
  };
  const kindAt = (i: number) => standardLayout.rows[Math.floor(i / 15)]![i % 15]!;
  const empty = Array.from({ length: 225 }, () => '.');
  const sure = Array.from({ length: 225 }, () => 0.95);

  it('is high where the squares read empty show each premium kind in its own colour', () => {
    const colours = Array.from({ length: 225 }, (_, i) => colourOf[kindAt(i)]!);
    expect(layoutContrast(colours, empty, sure)!).toBeGreaterThan(5);
  });

  it('is low where the grid lies elsewhere: the kinds’ squares show the same mixed colours', () => {
    // The board's colours, but a row and a column off: each premium kind takes its neighbours' colours.
    const colours = Array.from({ length: 225 }, (_, i) => colourOf[kindAt((i + 16) % 225)]!);
    expect(layoutContrast(colours, empty, sure)!).toBeLessThan(0.6);
    // Over a table: one colour, with noise.
    let seed = 7;
    const noise = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed / 2147483647 - 0.5) * 6;
    };
    const table = Array.from({ length: 225 }, (): Lab => [60 + noise(), 10 + noise(), 20 + noise()]);
    expect(layoutContrast(table, empty, sure)!).toBeLessThan(0.6);
  });

  it('tells a grid a row off: the layout shows more clearly a square beside it', () => {
    // The grid a row too far down: each of its squares shows the board's square below it, and its last row the border.
    const border: Lab = [30, 5, 5];
    const off = Array.from({ length: 225 }, (_, i) => (i + 15 < 225 ? colourOf[kindAt(i + 15)]! : border));
    const own = layoutContrast(off, empty, sure)!;
    expect(clearerMoved(off, empty, sure, own, 0.6)).toMatchObject({ rows: -1, cols: 0 });
    expect(clearerMoved(off, empty, sure, own, 0.6)!.contrast).toBeGreaterThan(own);
    // And a column too far right, with tiles over some of its squares.
    const left = Array.from({ length: 225 }, (_, i) => (i % 15 < 14 ? colourOf[kindAt(i + 1)]! : border));
    const tiles = empty.map((t, i) => (i % 7 === 3 ? 'E' : t));
    expect(clearerMoved(left, tiles, sure, layoutContrast(left, tiles, sure)!, 0.6)).toMatchObject({
      rows: 0,
      cols: -1,
    });
    // A grid on the board at its top edge and a row off at its bottom one: its lower half shows the squares below.
    const stretched = Array.from({ length: 225 }, (_, i) =>
      i < 8 * 15 ? colourOf[kindAt(i)]! : i + 15 < 225 ? colourOf[kindAt(i + 15)]! : border,
    );
    const half = clearerMoved(stretched, empty, sure, layoutContrast(stretched, empty, sure)!, 0.6);
    expect(half).toMatchObject({ rows: -1, cols: 0, half: 'second' });
    // A grid on the board is clearer than any square beside it, whole or half.
    const right = Array.from({ length: 225 }, (_, i) => colourOf[kindAt(i)]!);
    expect(clearerMoved(right, empty, sure, layoutContrast(right, empty, sure)!, 0.6)).toBeUndefined();
  });

  it('does not judge when too few squares are read surely empty', () => {
    const colours = Array.from({ length: 225 }, (_, i) => colourOf[kindAt(i)]!);
    const tiles = Array.from({ length: 225 }, (_, i) => (i < 222 ? 'A' : '.'));
    expect(layoutContrast(colours, tiles, sure)).toBeUndefined();
    expect(
      layoutContrast(
        colours,
        empty,
        sure.map(() => 0.5),
      ),
    ).toBeUndefined();
  });
});

describe("the board's lines against the grid (boardLines)", () => {
  /** A board of green squares parted by dark lines two pixels wide, its horizontal lines `down(x)` pixels below the
   *  grid's (its vertical ones on the grid's). */
  const lined = (down: (x: number) => number) => {
    const data = new Uint8Array(WARPED * WARPED * 3);
    for (let y = 0; y < WARPED; y++)
      for (let x = 0; x < WARPED; x++) {
        const across = (((y - MARGIN - down(x)) % CELL) + CELL) % CELL;
        const along = (((x - MARGIN) % CELL) + CELL) % CELL;
        data.set(across < 2 || along < 2 ? [10, 30, 15] : GREEN, (y * WARPED + x) * 3);
      }
    return { width: WARPED, height: WARPED, data };
  };
  const everywhere = () => true;
  const rightThird = (x: number) => x >= MARGIN + 10 * CELL;
  const off = (image: ReturnType<typeof lined>, empty: (cell: number) => boolean) =>
    linesOffGrid(boardLines(image, empty));

  it('finds the lines on a grid that lies on the board', () => {
    expect(
      off(
        lined(() => 0),
        everywhere,
      ),
    ).toBeLessThan(0.05);
    // A tenth of a square off everywhere: a grid found a little off, within the margin.
    expect(
      off(
        lined(() => 4),
        everywhere,
      ),
    ).toBeGreaterThan(0.05);
    expect(
      off(
        lined(() => 4),
        everywhere,
      ),
    ).toBeLessThan(MAX_LINES_OFF);
  });

  it("measures how far a third of the board's lines run off the grid, where the squares are empty", () => {
    const turned = lined((x) => (rightThird(x) ? 14 : 0));
    const lines = boardLines(turned, everywhere);
    expect(lines.down[0]).toBeCloseTo(0, 1);
    expect(lines.down[1]).toBeCloseTo(0, 1);
    expect(lines.down[2]).toBeCloseTo(14 / CELL, 1);
    for (const right of lines.right) expect(right).toBeCloseTo(0, 1);
    expect(linesOffGrid(lines)).toBeGreaterThanOrEqual(MAX_LINES_OFF);
    // The right third full of tiles: nothing there to judge by.
    expect(boardLines(turned, (cell) => cell % 15 < 10).down[2]).toBeUndefined();
    expect(off(turned, (cell) => cell % 15 < 10)).toBeLessThan(0.05);
    // Fewer than three boundaries between empty squares in a third: not judged.
    const two = new Set([0 * 15 + 12, 1 * 15 + 12, 2 * 15 + 12]);
    expect(off(turned, (cell) => cell % 15 < 10 || two.has(cell))).toBeLessThan(0.05);
    const three = new Set([...two, 3 * 15 + 12]);
    expect(off(turned, (cell) => cell % 15 < 10 || three.has(cell))).toBeGreaterThanOrEqual(MAX_LINES_OFF);
  });

  it('moves a grid onto the lines where each family lies on a straight line across its thirds', () => {
    // A grid of 40 pixels a square from the photo's corner; the horizontal lines 0, 0.15 and 0.3 of a square below
    // it in the left, middle and right thirds: down(u) = 0.03 (u - 2.5), -0.075 at the left edge, 0.375 at the right.
    const grid: Corners = [
      [0, 0],
      [600, 0],
      [600, 600],
      [0, 600],
    ];
    const moved = ontoLines(grid, { down: [0, 0.15, 0.3], right: [0, 0, 0] });
    const expected = [
      [0, -3],
      [600, 15],
      [600, 615],
      [0, 597],
    ];
    moved!.forEach(([x, y], k) => {
      expect(x).toBeCloseTo(expected[k]![0]!, 6);
      expect(y).toBeCloseTo(expected[k]![1]!, 6);
    });
    // A family judged nowhere does not move.
    expect(ontoLines(grid, { down: [0, 0.15, 0.3], right: [undefined, undefined, undefined] })).toEqual(
      moved,
    );
    // Not moved: a third unjudged (the grid may be off by more than the lines show), thirds off a straight line.
    expect(ontoLines(grid, { down: [0, undefined, 0.3], right: [0, 0, 0] })).toBeUndefined();
    expect(ontoLines(grid, { down: [0, 0.3, 0.3], right: [0, 0, 0] })).toBeUndefined();
  });

  it('cannot tell a grid a whole row off (the layout checks do)', () => {
    expect(
      off(
        lined(() => CELL),
        everywhere,
      ),
    ).toBeLessThan(0.05);
  });
});
