import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../test/helpers.ts';
import { readFrame } from './recognize.ts';
import type { RgbImage } from './types.ts';
import { umlautDots, weighUmlauts } from './umlaut.ts';
import { WARPED } from './warp.ts';

// fixtures/photos/german_umlauts.jpg (a render): GRÜN across row 3 from E3, SPÄT on row 7, HAUS on row 9, NÄHE on
// row 11, Ö at H4 and E10 (rows and columns from 0 below).
const at = (row: number, col: number) => row * 15 + col;
const SQUARES = {
  Ü: at(2, 6),
  Ä: at(6, 6),
  Ö: at(9, 4),
  U: at(8, 6),
  A: at(8, 5),
  N: at(2, 7),
} as const;

/** The straightened board turned a quarter turn clockwise: square (r, c) is then seen at (c, 14 - r). */
function turned(board: RgbImage): RgbImage {
  const n = WARPED;
  const data = new Uint8Array(n * n * 3);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      // The pixel at (x, y) of the turned board is (y, n - 1 - x) of the upright one.
      const from = ((n - 1 - x) * n + y) * 3;
      data.set(board.data.subarray(from, from + 3), (y * n + x) * 3);
    }
  return { width: n, height: n, data };
}

let board: RgbImage;
beforeAll(async () => {
  board = (await readFrame(readFileSync(join(root, 'fixtures/photos/german_umlauts.jpg')))).warped;
  expect(board.width).toBe(WARPED);
});

describe('the dots above a letter', () => {
  it('are seen on Ä, Ö and Ü, and nothing above A, U or N', () => {
    expect(umlautDots(board, SQUARES.Ü, 0)).toBe('dots');
    expect(umlautDots(board, SQUARES.Ä, 0)).toBe('dots');
    expect(umlautDots(board, SQUARES.Ö, 0)).toBe('dots');
    expect(umlautDots(board, SQUARES.U, 0)).toBe('none');
    expect(umlautDots(board, SQUARES.A, 0)).toBe('none');
    expect(umlautDots(board, SQUARES.N, 0)).toBe('none');
  });

  it('say nothing on an empty square', () => {
    expect(umlautDots(board, at(0, 0), 0)).toBeUndefined();
    expect(umlautDots(board, at(14, 14), 0)).toBeUndefined();
  });

  it('are looked for above the letter as it stands, on a board seen turned', () => {
    const side = turned(board);
    const seen = (cell: number) => at(cell % 15, 14 - Math.floor(cell / 15));
    expect(umlautDots(side, seen(SQUARES.Ü), 1)).toBe('dots');
    expect(umlautDots(side, seen(SQUARES.U), 1)).toBe('none');
    // Looked at as if upright, the dots of the turned Ü stand beside its letter, not above it.
    expect(umlautDots(side, seen(SQUARES.Ü), 0)).not.toBe('dots');
  });
});

describe('settling a letter in doubt with its umlaut', () => {
  const classes = ['.', '?', 'U0', 'Ü0', 'A0', 'Ä0', 'N0', 'U1', 'Ü1'];
  const k = classes.length;
  /** Shares per square: every square empty but those given. */
  const shares = (given: Record<number, Record<string, number>>) => {
    const probs = new Float32Array(225 * k);
    for (let cell = 0; cell < 225; cell++) {
      const own = given[cell] ?? { '.': 1 };
      for (const [name, p] of Object.entries(own)) probs[cell * k + classes.indexOf(name)] = p;
    }
    return probs;
  };
  const share = (probs: Float32Array, cell: number, name: string) => probs[cell * k + classes.indexOf(name)]!;
  const all = Array.from({ length: 225 }, (_, i) => i);

  it('gives the plain letter’s share to the umlaut where the dots show, and the other way round', () => {
    const probs = shares({
      [SQUARES.Ü]: { U0: 0.3, Ü0: 0.6, N0: 0.1 },
      [SQUARES.U]: { U0: 0.55, Ü0: 0.4, N0: 0.05 },
    });
    const settled = weighUmlauts(classes, probs, board, 0, undefined, all, () => true);
    expect(settled.sort((a, b) => a - b)).toEqual([SQUARES.Ü, SQUARES.U].sort((a, b) => a - b));
    expect(share(probs, SQUARES.Ü, 'Ü0')).toBeCloseTo(0.9);
    expect(share(probs, SQUARES.Ü, 'U0')).toBe(0);
    expect(share(probs, SQUARES.Ü, 'N0')).toBeCloseTo(0.1);
    expect(share(probs, SQUARES.U, 'U0')).toBeCloseTo(0.95);
    expect(share(probs, SQUARES.U, 'Ü0')).toBe(0);
  });

  it('leaves a square alone where the pair is not its reading, the model is sure, the set lacks the umlaut, or the square is small', () => {
    const given: Record<number, Record<string, number>> = {
      [SQUARES.Ü]: { U0: 0.2, Ü0: 0.2, N0: 0.6 },
      [SQUARES.Ä]: { A0: 0.001, Ä0: 0.999 },
      [SQUARES.U]: { U0: 0.6, Ü0: 0.4 },
    };
    const probs = shares(given);
    expect(weighUmlauts(classes, probs, board, 0, undefined, [SQUARES.Ü, SQUARES.Ä], () => true)).toEqual([]);
    expect(
      weighUmlauts(classes, probs, board, 0, new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZ'), all, () => true),
    ).toEqual([]);
    expect(weighUmlauts(classes, probs, board, 0, undefined, all, (cell) => cell !== SQUARES.U)).toEqual([]);
    expect(probs).toEqual(shares(given));
    // No dots above a letter the model takes for an umlaut: left to the model (the dots may be too faint to see).
    const leaning = shares({ [SQUARES.U]: { U0: 0.4, Ü0: 0.6 } });
    expect(weighUmlauts(classes, leaning, board, 0, undefined, all, () => true)).toEqual([]);
    expect(leaning).toEqual(shares({ [SQUARES.U]: { U0: 0.4, Ü0: 0.6 } }));
  });

  it('reads the classes of the letters as they stand (the board’s quarter turns)', () => {
    const side = turned(board);
    const cell = at(SQUARES.Ü % 15, 14 - Math.floor(SQUARES.Ü / 15));
    const probs = shares({ [cell]: { U1: 0.5, Ü1: 0.45, U0: 0.05 } });
    expect(weighUmlauts(classes, probs, side, 1, undefined, all, () => true)).toEqual([cell]);
    expect(share(probs, cell, 'Ü1')).toBeCloseTo(0.95);
    expect(share(probs, cell, 'U0')).toBeCloseTo(0.05);
  });
});
