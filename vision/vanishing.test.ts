import { describe, expect, it } from 'vitest';
import { opencv, withMats } from './cv.ts';
import { apply, pointsMat, square } from './geometry.ts';
import { locateBoard } from './locate.ts';
import type { Point } from './types.ts';
import { gridByVanishingPoints } from './vanishing.ts';

const [W, H] = [640, 480];
/** Where the grid's corners lie in the picture: a board seen from about 60° off vertical, its far side narrower. */
const GRID: Point[] = [
  [250, 190],
  [420, 194],
  [505, 340],
  [160, 334],
];

/**
 * A table seen from a player's seat: planks along the board's columns, running to the far edge of the table, and,
 * with `board`, a board of 15×15 squares with a dark border lying on it. Drawn through the plane: each pixel's place on
 * the table in squares (the grid spans 0..15 both ways), through the inverse of the grid's homography.
 */
function scene(board: boolean): Uint8Array {
  const { cv } = opencv();
  return withMats((track) => {
    const toPlane = track(
      cv.getPerspectiveTransform(pointsMat(cv, GRID, track), pointsMat(cv, square(15), track)),
    );
    const data = new Uint8Array(W * H);
    const near = (t: number, width: number) => Math.abs(t - Math.round(t)) < width;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const [u, v] = apply(toPlane, [x, y]);
        let shade = 225; // the wall beyond the table
        if (v > -25 && v < 40) shade = near(u / 4, 0.02) ? 60 : 150 + ((Math.floor(u / 4) * 23) % 30);
        if (board && u > -0.8 && u < 15.8 && v > -0.8 && v < 15.8) {
          const inGrid = u > 0 && u < 15 && v > 0 && v < 15;
          shade = !inGrid
            ? 70
            : near(u, 0.05) || near(v, 0.05)
              ? 90
              : (Math.floor(u) * 7 + Math.floor(v) * 3) % 5 === 0
                ? 170
                : 215;
        }
        data[y * W + x] = shade;
      }
    }
    return data;
  });
}

/** The farthest of the corners from the nearest true corner, in squares of the board's near side. */
function off(corners: readonly Point[]): number {
  const cell = Math.hypot(GRID[2]![0] - GRID[3]![0], GRID[2]![1] - GRID[3]![1]) / 15;
  return Math.max(
    ...corners.map(([x, y]) => Math.min(...GRID.map(([gx, gy]) => Math.hypot(x - gx, y - gy))) / cell),
  );
}

const locate = (data: Uint8Array) => {
  const { cv } = opencv();
  return withMats((track) => {
    const gray = track(new cv.Mat(H, W, cv.CV_8UC1));
    gray.data.set(data);
    return gridByVanishingPoints(cv, gray, track);
  });
};

describe('the grid through its vanishing points', () => {
  it('finds a steeply seen board on a table of planks, to within two squares: a start the line fit makes exact', () => {
    const data = scene(true);
    const found = locate(data);
    expect(found.length).toBeGreaterThan(0);
    expect(Math.min(...found.map((f) => off(f.grid)))).toBeLessThan(2);
    // The locator, which searches this way when outlines fail, ends on the grid (without this search: 14 squares off).
    const rgb = new Uint8Array(W * H * 3).map((_, i) => data[Math.floor(i / 3)]!);
    const located = locateBoard({ width: W, height: H, data: rgb });
    expect(located?.fitted).toBe(true);
    expect(off([...located!.corners])).toBeLessThan(0.2);
  });

  it('finds nothing in planks alone: one family of lines crosses no other', () => {
    expect(locate(scene(false))).toEqual([]);
  });
});
