/**
 * From the photo and the grid corners to the straightened board and the 225 cell crops, each with a margin,
 * because tiles are rarely centred on their squares.
 */
import { type CV, type Mat, opencv, withMats } from './cv.ts';
import type { Corners, Point, RgbImage } from './types.ts';

/** Pixels per cell in the straightened board. */
export const CELL = 40;
/** Margin around the grid in the straightened board, in pixels (one cell). */
export const MARGIN = CELL;
export const WARPED = 15 * CELL + 2 * MARGIN;

/** The board straightened: the grid spans [MARGIN, MARGIN + 15·CELL) on both axes. */
export function warpBoard(image: RgbImage, corners: Corners): RgbImage {
  const { cv } = opencv();
  return withMats((track) => {
    const src = track(new cv.Mat(image.height, image.width, cv.CV_8UC3));
    src.data.set(image.data);
    const to: Point[] = [
      [MARGIN, MARGIN],
      [MARGIN + 15 * CELL, MARGIN],
      [MARGIN + 15 * CELL, MARGIN + 15 * CELL],
      [MARGIN, MARGIN + 15 * CELL],
    ];
    const H = track(cv.getPerspectiveTransform(mat(cv, corners, track), mat(cv, to, track)));
    const out = track(new cv.Mat());
    cv.warpPerspective(src, out, H, new cv.Size(WARPED, WARPED), cv.INTER_AREA, cv.BORDER_REPLICATE);
    return { width: WARPED, height: WARPED, data: new Uint8Array(out.data) };
  });
}

function mat(cv: CV, pts: readonly Point[], track: (m: Mat) => Mat): Mat {
  return track(cv.matFromArray(4, 1, cv.CV_32FC2, pts.flat()));
}

/**
 * The model's input for every cell, row-major: `size`×`size` RGB floats in [0, 1], channels first, cut from the
 * cell's square grown by `margin` (a fraction of a cell) on every side, area-averaged.
 */
export function cellCrops(board: RgbImage, size: number, margin: number): Float32Array {
  const out = new Float32Array(225 * 3 * size * size);
  const span = CELL * (1 + 2 * margin);
  const step = span / size;
  const plane = size * size;
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const base = (r * 15 + c) * 3 * plane;
      const x0 = MARGIN + c * CELL - CELL * margin;
      const y0 = MARGIN + r * CELL - CELL * margin;
      for (let j = 0; j < size; j++) {
        for (let i = 0; i < size; i++) {
          // Average the source pixels under this output pixel (2×2 samples suffice at these scales).
          let R = 0;
          let G = 0;
          let B = 0;
          for (const dy of [0.25, 0.75]) {
            for (const dx of [0.25, 0.75]) {
              const x = Math.min(board.width - 1, Math.max(0, Math.floor(x0 + (i + dx) * step)));
              const y = Math.min(board.height - 1, Math.max(0, Math.floor(y0 + (j + dy) * step)));
              const p = (y * board.width + x) * 3;
              R += board.data[p]!;
              G += board.data[p + 1]!;
              B += board.data[p + 2]!;
            }
          }
          const o = base + j * size + i;
          out[o] = R / 1020;
          out[o + plane] = G / 1020;
          out[o + 2 * plane] = B / 1020;
        }
      }
    }
  }
  return out;
}
