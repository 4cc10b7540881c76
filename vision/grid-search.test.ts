import { describe, expect, it } from 'vitest';
import { random } from '../test/helpers.ts';
import { opencv, withMats } from './cv.ts';
import { candidateQuads, gradientSums } from './grid-search.ts';
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

describe('gradient sums across a straightened image', () => {
  /** The sums as OpenCV's Sobel images give them: |∂/∂x| down each column, |∂/∂y| along each row. */
  const viaOpenCV = (width: number, height: number, data: Uint8Array) => {
    const { cv } = opencv();
    return withMats((track) => {
      const img = track(new cv.Mat(height, width, cv.CV_8UC1));
      img.data.set(data);
      const gx = track(new cv.Mat());
      const gy = track(new cv.Mat());
      cv.Sobel(img, gx, cv.CV_32F, 1, 0, 3);
      cv.Sobel(img, gy, cv.CV_32F, 0, 1, 3);
      const dx = gx.data32F as Float32Array;
      const dy = gy.data32F as Float32Array;
      const vx = new Float64Array(width);
      const vy = new Float64Array(height);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          vx[x]! += Math.abs(dx[y * width + x]!);
          vy[y]! += Math.abs(dy[y * width + x]!);
        }
      return { vx: [...vx], vy: [...vy] };
    });
  };

  it('equal OpenCV’s Sobel sums, edges included, on noise, on extremes and on the smallest images', () => {
    const rnd = random(7);
    for (const [width, height] of [
      [2, 2],
      [2, 5],
      [7, 2],
      [3, 3],
      [17, 11],
      [301, 7],
      [300, 300],
    ] as const) {
      for (const fill of ['noise', 'extremes', 'checkerboard'] as const) {
        // Noise; 0 or 255 at random; 0 and 255 in turn (every derivative ±1020 away from the edges).
        const data = Uint8Array.from({ length: width * height }, (_, i) =>
          fill === 'noise'
            ? Math.floor(rnd() * 256)
            : fill === 'extremes'
              ? rnd() < 0.5
                ? 255
                : 0
              : ((i % width) + Math.floor(i / width)) % 2
                ? 255
                : 0,
        );
        const ours = gradientSums({ width, height, data });
        expect({ vx: [...ours.vx], vy: [...ours.vy] }, `${width}×${height} ${fill}`).toEqual(
          viaOpenCV(width, height, data),
        );
      }
    }
  });

  it('refuses an image too small for a derivative or short of its pixels', () => {
    expect(() => gradientSums({ width: 1, height: 5, data: new Uint8Array(5) })).toThrow(RangeError);
    expect(() => gradientSums({ width: 4, height: 4, data: new Uint8Array(15) })).toThrow(RangeError);
  });
});
