import { describe, expect, it } from 'vitest';
import { opencv, withMats } from './cv.ts';
import { refineGrid } from './refine.ts';
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
});
