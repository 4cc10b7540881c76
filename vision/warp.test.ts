/**
 * Drawing squares again on a straightened board: each pixel's value depends only on where it is, so squares drawn
 * all at once (their margins merged, each pixel drawn once) are the same as squares drawn one by one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { random } from '../test/helpers.ts';
import { decodeImage } from './decode.ts';
import { readFrame } from './recognize.ts';
import type { RgbImage } from './types.ts';
import { CELL, cellCrops, MARGIN, patchBoard, WARPED, warpBoard } from './warp.ts';

const frame = readFileSync(new URL('../fixtures/demo_game/2.jpg', import.meta.url));
const moved = readFileSync(new URL('../fixtures/demo_game/3.jpg', import.meta.url));
const copy = (image: RgbImage): RgbImage => ({ ...image, data: image.data.slice() });

describe('patchBoard', () => {
  it('draws neighbouring squares with overlapping margins as it draws each alone, and leaves the others', async () => {
    const { warped, corners } = await readFrame(frame, { letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' });
    // Another photo drawn on this board: every square drawn differs from what was there.
    const other = await decodeImage(moved);
    for (const reach of [0.35, 0.5]) {
      const cells = [0, 1, 2, 15, 16, 17, 30, 112, 113, 128, 200, 224];
      const together = patchBoard(copy(warped), other, corners, cells, reach);
      let apart = copy(warped);
      for (const cell of cells) apart = patchBoard(apart, other, corners, [cell], reach);
      expect(Buffer.compare(Buffer.from(together.data), Buffer.from(apart.data))).toBe(0);
      // A square not asked for (nor next to one) is as it was.
      const untouched = patchBoard(copy(warped), other, corners, [224], reach);
      expect(untouched.data.subarray(0, 3 * 40 * warped.width)).toEqual(
        warped.data.subarray(0, 3 * 40 * warped.width),
      );
      expect(Buffer.compare(Buffer.from(together.data), Buffer.from(warped.data))).not.toBe(0);
    }
    // Every square at once is the grid drawn from the other photo, pixel for pixel as warpBoard draws it (one
    // sampling for both: a square read again in a steady camera's frame is the square a cold read would see).
    // Drawn where it is: the board given is the board returned.
    const board = copy(warped);
    const all = patchBoard(
      board,
      other,
      corners,
      Array.from({ length: 225 }, (_, i) => i),
      0.5,
    );
    expect(all.data).toBe(board.data);
    const whole = warpBoard(other, corners);
    let differ = 0;
    for (let y = MARGIN - 20; y < MARGIN + 15 * CELL + 20; y++)
      for (let x = (y * WARPED + MARGIN - 20) * 3; x < (y * WARPED + MARGIN + 15 * CELL + 20) * 3; x++)
        if (all.data[x] !== whole.data[x]) differ++;
    expect(differ).toBe(0);
  });
});

describe('cellCrops', () => {
  /** Each crop pixel by the definition: the mean of its 2×2 samples (clamped to the board) over 4·255, as a float. */
  const byDefinition = (
    board: RgbImage,
    size: number,
    margin: number,
    cell: number,
    dx: number,
    dy: number,
  ) => {
    const step = (CELL * (1 + 2 * margin)) / size;
    const x0 = Math.round(MARGIN + ((cell % 15) - margin + dx) * CELL);
    const y0 = Math.round(MARGIN + (Math.floor(cell / 15) - margin + dy) * CELL);
    const at = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
    const out = new Float32Array(3 * size * size);
    for (let ch = 0; ch < 3; ch++)
      for (let j = 0; j < size; j++)
        for (let i = 0; i < size; i++) {
          let sum = 0;
          for (const fy of [0.25, 0.75])
            for (const fx of [0.25, 0.75]) {
              const x = at(x0 + Math.floor((i + fx) * step), board.width);
              const y = at(y0 + Math.floor((j + fy) * step), board.height);
              sum += board.data[(y * board.width + x) * 3 + ch]!;
            }
          out[ch * size * size + j * size + i] = sum / 1020;
        }
    return out;
  };

  it('cuts every pixel as its definition says, at the board’s edges and shifted too', () => {
    // A board of noise: any sample taken from the wrong place shows.
    const rnd = random(3);
    const data = Uint8Array.from({ length: WARPED * WARPED * 3 }, () => Math.floor(rnd() * 256));
    const board: RgbImage = { width: WARPED, height: WARPED, data };
    const asked = [
      { cell: 0, dx: -1.5, dy: -1.5 },
      { cell: 14, dx: 0.5, dy: 0 },
      { cell: 112, dx: 0.08, dy: -0.08 },
      { cell: 210, dx: 0, dy: 0.5 },
      { cell: 224, dx: 1.5, dy: 1.5 },
    ];
    for (const [size, margin] of [
      [32, 0.2],
      [24, 0.35],
    ] as const) {
      const crops = cellCrops(board, size, margin, asked);
      asked.forEach(({ cell, dx, dy }, k) => {
        const want = byDefinition(board, size, margin, cell, dx, dy);
        expect(crops.subarray(k * want.length, (k + 1) * want.length), `cell ${cell}, ${size}px`).toEqual(
          want,
        );
      });
    }
  });
});
