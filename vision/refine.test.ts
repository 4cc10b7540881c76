import { describe, expect, it } from 'vitest';
import { standardLayout } from '../server/engine/index.ts';
import { opencv, withMats } from './cv.ts';
import { refineGrid, refinePasses, select, symmetricShift } from './refine.ts';
import type { Point } from './types.ts';

const SIZE = 400;
/** The true grid: 15 cells of 20 px from (50, 50). */
const GRID: Point[] = [
  [50, 50],
  [350, 50],
  [350, 350],
  [50, 350],
];

/** Dark squares and light lines, 16 each way, as a board's grid looks. */
function board(): Uint8Array {
  const data = new Uint8Array(SIZE * SIZE).fill(60);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const inside = x >= 49 && x <= 351 && y >= 49 && y <= 351;
      const line = (x - 50 + 1000) % 20 < 2 || (y - 50 + 1000) % 20 < 2;
      if (inside && line) data[y * SIZE + x] = 220;
    }
  }
  return data;
}

const off = (a: Point[], b: Point[]) =>
  Math.max(...a.map((p, i) => Math.hypot(p[0] - b[i]![0], p[1] - b[i]![1])));

describe('refining the grid', () => {
  it('fits the lines near a close guess in one pass', () => {
    const { cv } = opencv();
    const guess: Point[] = GRID.map(([x, y]) => [x + 3, y - 2]);
    const refined = withMats((track) => {
      const gray = track(new cv.Mat(SIZE, SIZE, cv.CV_8UC1));
      gray.data.set(board());
      return refineGrid(cv, gray, guess, track);
    });
    expect(refined.partial).toBeUndefined();
    expect(off(refined.grid!, GRID)).toBeLessThan(1);
  });

  it('moves a guess off by most of a cell only half a cell at a time, then fits', () => {
    const { cv } = opencv();
    // The bottom edge guessed 0.7 of a cell too low.
    let grid: Point[] = GRID.map(([x, y]) => [x, y > 200 ? y + 14 : y]);
    const steps = withMats((track) => {
      const gray = track(new cv.Mat(SIZE, SIZE, cv.CV_8UC1));
      gray.data.set(board());
      const seen: { partial: boolean; off: number }[] = [];
      for (let pass = 0; pass < 3; pass++) {
        const refined = refineGrid(cv, gray, grid, track);
        if (!refined.grid) break;
        grid = refined.grid;
        seen.push({ partial: refined.partial === true, off: off(grid, GRID) });
      }
      return seen;
    });
    expect(steps[0]!.partial).toBe(true);
    expect(steps.at(-1)!.partial).toBe(false);
    expect(steps.at(-1)!.off).toBeLessThan(1);
  });

  it('takes more passes only while no pass fitted and the grid was still stepping', () => {
    const { cv } = opencv();
    // The bottom-right corner guessed two cells off each way: three passes only step towards the lines. (On this
    // periodic pattern any whole-cell shift also fits lines, so where it ends is not the point here: locate checks a
    // grid's place by the premium squares and the picture's edges afterwards.)
    const start: Point[] = GRID.map(([x, y]) => [x > 200 ? x + 40 : x, y > 200 ? y + 40 : y]);
    const [three, more] = withMats((track) => {
      const gray = track(new cv.Mat(SIZE, SIZE, cv.CV_8UC1));
      gray.data.set(board());
      return [refinePasses(cv, gray, start, track, 3), refinePasses(cv, gray, start, track, 3, 3)];
    });
    expect(three).toMatchObject({ anyFitted: false, stepped: true, passes: 3 });
    expect(more.passes).toBeGreaterThan(3);
    expect(more.anyFitted).toBe(true);
  });

  it('takes no more passes once one fitted', () => {
    const { cv } = opencv();
    const start: Point[] = GRID.map(([x, y]) => [x + 3, y - 2]);
    const [plain, more] = withMats((track) => {
      const gray = track(new cv.Mat(SIZE, SIZE, cv.CV_8UC1));
      gray.data.set(board());
      return [refinePasses(cv, gray, start, track, 3), refinePasses(cv, gray, start, track, 3, 3)];
    });
    expect(more).toEqual(plain);
    expect(plain.anyFitted).toBe(true);
  });
});

/**
 * A colour picture, `cells`×`cells` squares of 16 px: the standard premium layout with its top-left square at
 * (`col0`, `row0`), a striped side panel (the red board's) on the columns left of it, a plain tablecloth elsewhere.
 */
function colourBoard(cells: number, col0: number, row0: number): Uint8Array {
  const px = 16;
  const side = cells * px;
  const data = new Uint8Array(side * side * 3);
  const colours: Record<string, number[]> = {
    '.': [200, 190, 160],
    d: [150, 200, 230],
    t: [40, 90, 200],
    D: [240, 160, 160],
    T: [210, 40, 50],
  };
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const [r, c] = [Math.floor(y / px) - row0, Math.floor(x / px) - col0];
      let rgb = [120, 110, 100]; // the tablecloth
      if (r >= 0 && r < 15 && c >= 0 && c < 15) rgb = colours[standardLayout.rows[r]![c]!]!;
      else if (r >= 0 && r < 15 && c >= -3 && c < 0) rgb = x % 6 < 3 ? [200, 30, 40] : [235, 220, 200];
      data.set(rgb, (y * side + x) * 3);
    }
  }
  return data;
}

/** The grid whose top-left square is cell (`col`, `row`) of a `colourBoard`. */
const gridAt = (col: number, row: number): Point[] => [
  [col * 16, row * 16],
  [(col + 15) * 16, row * 16],
  [(col + 15) * 16, (row + 15) * 16],
  [col * 16, (row + 15) * 16],
];

describe('the premium-layout check', () => {
  const shift = (cells: number, col0: number, row0: number, grid: Point[]) => {
    const { cv } = opencv();
    return withMats((track) => {
      const colour = track(new cv.Mat(cells * 16, cells * 16, cv.CV_8UC3));
      colour.data.set(colourBoard(cells, col0, row0));
      return symmetricShift(cv, colour, grid, track);
    });
  };

  it('keeps a grid that sits on the premium squares', () => {
    const grid = gridAt(5, 5);
    expect(shift(25, 5, 5, grid)).toBe(grid);
  });

  it('moves a grid that took two columns of the side panel for squares, and one row of border', () => {
    expect(off(shift(25, 5, 5, gridAt(3, 6)), gridAt(5, 5))).toBeLessThan(0.5);
  });

  it('moves a grid three cells off', () => {
    expect(off(shift(25, 5, 5, gridAt(8, 2)), gridAt(5, 5))).toBeLessThan(0.5);
  });

  it('does not slide a grid onto a plain cloth, where the fit only improves the further it goes', () => {
    // The board is 8 cells away; the grid half on the cloth fits "evenly coloured" better at every step away.
    const grid = gridAt(0, 0);
    expect(shift(32, 8, 8, grid)).toBe(grid);
  });
});

describe('selecting the k-th smallest value', () => {
  it('agrees with sorting, duplicates included, for every k', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const n of [1, 2, 3, 8, 45, 164]) {
      const values = Float64Array.from({ length: n }, () => Math.floor(random() * 20));
      const sorted = Float64Array.from(values).sort();
      for (let k = 0; k < n; k++) expect(select(Float64Array.from(values), n, k)).toBe(sorted[k]);
    }
  });
});
