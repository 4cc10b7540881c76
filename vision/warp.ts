/**
 * From the photo and the grid corners to the straightened board and the 225 cell crops, each with a margin,
 * because tiles are rarely centred on their squares.
 */
import { type CV, type Mat, opencv, withMats } from './cv.ts';
import { blockWidth, checkSource, plain, resample, resampleSpan } from './resample.ts';
import type { Corners, Point, RgbImage } from './types.ts';

/** Pixels per cell in the straightened board. */
export const CELL = 40;
/** Margin around the grid in the straightened board, in pixels (one cell). */
export const MARGIN = CELL;
export const WARPED = 15 * CELL + 2 * MARGIN;

/** The board straightened: the grid spans [MARGIN, MARGIN + 15·CELL) on both axes. */
export function warpBoard(image: RgbImage, corners: Corners): RgbImage {
  return { width: WARPED, height: WARPED, data: resample(image, 3, boardToPhoto(corners), WARPED, WARPED) };
}

/**
 * The homography from the straightened board's pixels to the photo's, as warpPerspective computed it from the
 * corners (in single precision, inverted by OpenCV): the same matrix draws the same pixels.
 */
function boardToPhoto(corners: Corners): Float64Array {
  const { cv } = opencv();
  return withMats((track) => {
    const to: Point[] = [
      [MARGIN, MARGIN],
      [MARGIN + 15 * CELL, MARGIN],
      [MARGIN + 15 * CELL, MARGIN + 15 * CELL],
      [MARGIN, MARGIN + 15 * CELL],
    ];
    const H = track(cv.getPerspectiveTransform(mat(cv, corners, track), mat(cv, to, track)));
    const inverse = track(new cv.Mat());
    cv.invert(H, inverse);
    return Float64Array.from(inverse.data64F as Float64Array);
  });
}

function mat(cv: CV, pts: readonly Point[], track: (m: Mat) => Mat): Mat {
  return track(cv.matFromArray(4, 1, cv.CV_32FC2, pts.flat()));
}

/**
 * Draws the squares `cells` again on the straightened board `board` (of the same camera, on the same grid) from
 * `image`: each square and a margin around it wide enough for its crops (`reach`, in cells), sampled as warpBoard
 * samples, pixel for pixel. A frame where a few squares changed costs those squares only. The board is drawn on
 * where it is, and a board over the same pixels returned (the one given no longer shows what it showed): the
 * camera's last board becomes this frame's, without a copy of its 1.4 MB a frame (about 1 ms a steady frame, in
 * copying and collecting).
 */
export function patchBoard(
  board: RgbImage,
  image: RgbImage,
  corners: Corners,
  cells: readonly number[],
  reach = 0.5,
): RgbImage {
  const toPhoto = boardToPhoto(corners);
  const data = plain(board.data);
  const from = checkSource(image, 3);
  const block = blockWidth(WARPED, WARPED);
  const pad = Math.ceil(reach * CELL);
  // Each square with its margin, as a rectangle of the straightened board; where they overlap (neighbouring
  // squares), each pixel is drawn once.
  const rects = cells.map((cell) => {
    const [r, c] = [Math.floor(cell / 15), cell % 15];
    return [
      Math.max(0, MARGIN + c * CELL - pad),
      Math.max(0, MARGIN + r * CELL - pad),
      Math.min(WARPED, MARGIN + (c + 1) * CELL + pad),
      Math.min(WARPED, MARGIN + (r + 1) * CELL + pad),
    ] as const;
  });
  rects.sort((a, b) => a[0] - b[0]);
  for (let y = 0; y < WARPED; y++) {
    // The parts of row y to draw: the rectangles across it, from the left, merged where they meet.
    let x0 = -1;
    let x1 = -1;
    for (const q of rects) {
      if (y < q[1] || y >= q[3]) continue;
      if (x1 >= 0 && q[0] <= x1) {
        x1 = Math.max(x1, q[2]);
        continue;
      }
      if (x1 >= 0) resampleSpan(from, 3, toPhoto, data, WARPED, y, x0, x1, block);
      x0 = q[0];
      x1 = q[2];
    }
    if (x1 >= 0) resampleSpan(from, 3, toPhoto, data, WARPED, y, x0, x1, block);
  }
  return { width: board.width, height: board.height, data };
}

/** The mean of four 8-bit samples in [0, 1], by their sum: the float each sum / 1020 is stored as. */
const MEAN = Float32Array.from({ length: 4 * 255 + 1 }, (_, sum) => sum / 1020);

/**
 * The model's input for every cell, row-major: `size`×`size` RGB floats in [0, 1], channels first, cut from the
 * cell's square grown by `margin` (a fraction of a cell) on every side, each output pixel the mean of a 2×2 grid of
 * source samples (close to the box filter the training crops were shrunk with).
 */
export function cellCrops(
  board: RgbImage,
  size: number,
  margin: number,
  /** Only these cells, each shifted by a fraction of a cell (default: all 225 in place). */
  only?: readonly { cell: number; dx: number; dy: number }[],
): Float32Array {
  const cells = only ?? Array.from({ length: 225 }, (_, cell) => ({ cell, dx: 0, dy: 0 }));
  const out = new Float32Array(cells.length * 3 * size * size);
  const step = (CELL * (1 + 2 * margin)) / size;
  const plane = size * size;
  const { width, height } = board;
  // One kind of array for the loads (a Buffer from sharp, a plain array from warpBoard): see resample.ts `plain`.
  const data = plain(board.data);
  // Source offsets of the 2×2 samples under each output pixel, relative to the crop's corner (same for every cell).
  const offX = new Int32Array(2 * size);
  const offY = new Int32Array(2 * size);
  for (let i = 0; i < size; i++) {
    offX[2 * i] = offY[2 * i] = Math.floor((i + 0.25) * step);
    offX[2 * i + 1] = offY[2 * i + 1] = Math.floor((i + 0.75) * step);
  }
  // Byte offsets of the samples, clamped to the board, for the crop at hand: rows' and columns' apart.
  const cols = new Int32Array(2 * size);
  const rows = new Int32Array(2 * size);
  const clamp = (v: number, n: number) => (v < 0 ? 0 : v > n - 1 ? n - 1 : v);
  for (const [k, { cell, dx, dy }] of cells.entries()) {
    const [r, c] = [Math.floor(cell / 15), cell % 15];
    const base = k * 3 * plane;
    const x0 = Math.round(MARGIN + (c - margin + dx) * CELL);
    const y0 = Math.round(MARGIN + (r - margin + dy) * CELL);
    for (let i = 0; i < 2 * size; i++) {
      cols[i] = clamp(x0 + offX[i]!, width) * 3;
      rows[i] = clamp(y0 + offY[i]!, height) * width * 3;
    }
    for (let j = 0; j < size; j++) {
      const ya = rows[2 * j]!;
      const yb = rows[2 * j + 1]!;
      let o = base + j * size;
      for (let i = 0; i < size; i++, o++) {
        const xa = cols[2 * i]!;
        const xb = cols[2 * i + 1]!;
        const p00 = ya + xa;
        const p01 = ya + xb;
        const p10 = yb + xa;
        const p11 = yb + xb;
        out[o] = MEAN[data[p00]! + data[p01]! + data[p10]! + data[p11]!]!;
        out[o + plane] = MEAN[data[p00 + 1]! + data[p01 + 1]! + data[p10 + 1]! + data[p11 + 1]!]!;
        out[o + 2 * plane] = MEAN[data[p00 + 2]! + data[p01 + 2]! + data[p10 + 2]! + data[p11 + 2]!]!;
      }
    }
  }
  return out;
}
