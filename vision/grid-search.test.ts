import { describe, expect, it } from 'vitest';
import { opencv, withMats } from './cv.ts';
import { candidateQuads } from './grid-search.ts';
import type { Point } from './types.ts';

const PAD = 10;
const [W, H] = [320, 400];

/**
 * A padded grayscale photo (a black border of PAD around it, as the locator frames its work image): a light cloth
 * printed with dark diamonds, some cut by the picture's edge, and a darker board with grid lines whose left side lies
 * on the picture's left edge.
 */
function photo(board: Point[]): Uint8Array {
  const data = new Uint8Array(W * H);
  const inside = (x: number, y: number) => x >= PAD && y >= PAD && x < W - PAD && y < H - PAD;
  const [x0, y0] = board[0]!;
  const [x1, y1] = board[2]!;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!inside(x, y)) continue;
      const onBoard = x >= x0 && x <= x1 && y >= y0 && y <= y1;
      // Diamonds every 40 px, reaching the picture's edges and running up to the board.
      const [u, v] = [((x + 20) % 40) - 20, ((y + 20) % 40) - 20];
      const diamond = Math.abs(u) + Math.abs(v) < 9;
      const line = (x - x0) % 14 < 2 || (y - y0) % 14 < 2;
      data[y * W + x] = onBoard ? (line ? 230 : 110) : diamond ? 40 : 225;
    }
  }
  return data;
}

describe('candidate outlines', () => {
  it('keeps the outline of a board lying against the picture’s edge on a patterned cloth', () => {
    const board: Point[] = [
      [PAD, 90],
      [230, 90],
      [230, 310],
      [PAD, 310],
    ];
    const { cv } = opencv();
    const quads = withMats((track) => {
      const gray = track(new cv.Mat(H, W, cv.CV_8UC1));
      gray.data.set(photo(board));
      return candidateQuads(cv, gray, track, PAD);
    });
    const off = (q: Point[]) =>
      Math.max(...q.map((p, i) => Math.hypot(p[0] - board[i]![0], p[1] - board[i]![1])));
    expect(Math.min(...quads.map(off))).toBeLessThan(8);
  });
});
