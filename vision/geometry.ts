/** Small geometry helpers for the locator: squares, point Mats, homographies applied to points, corner order. */
import type { CV, Mat } from './cv.ts';
import { blockWidth, checkSource, resample, resampleSpan } from './resample.ts';
import type { Point } from './types.ts';

export function square(side: number): Point[] {
  return [
    [0, 0],
    [side, 0],
    [side, side],
    [0, side],
  ];
}

export function pointsMat(cv: CV, pts: readonly Point[], track: (m: Mat) => Mat): Mat {
  return track(cv.matFromArray(4, 1, cv.CV_32FC2, pts.flat()));
}

/**
 * `src` (8-bit, 1 or 3 channels) straightened through the homography `H` (its pixels → the output's) into a new
 * `width`×`height` Mat: what cv.warpPerspective draws with INTER_LINEAR and BORDER_REPLICATE, pixel for pixel, drawn
 * by resample.ts in less time.
 */
export function warpMat(
  cv: CV,
  src: Mat,
  H: Mat,
  width: number,
  height: number,
  track: (m: Mat) => Mat,
): Mat {
  const { channels, toSource } = straightening(cv, src, H, track, 'warpMat');
  const out = track(new cv.Mat(height, width, channels === 1 ? cv.CV_8UC1 : cv.CV_8UC3));
  // Views of OpenCV's memory are taken only now (allocating a Mat may move it), and drawn into at once: nothing
  // allocates in OpenCV's memory while they are used.
  resample(
    { width: src.cols, height: src.rows, data: src.data },
    channels,
    toSource,
    width,
    height,
    out.data as Uint8Array,
  );
  return out;
}

/**
 * Only some pixels of what `warpMat` draws: in each of `rows`, the columns of each of `spans` ([from, to) pairs), each
 * pixel the same as warpMat's; the others left 0. For a look at parts of a straightened picture (the middles of its
 * squares) without drawing the rest.
 */
export function warpParts(
  cv: CV,
  src: Mat,
  H: Mat,
  width: number,
  height: number,
  rows: Iterable<number>,
  spans: readonly (readonly [number, number])[],
  track: (m: Mat) => Mat,
): Uint8Array {
  const { channels, toSource } = straightening(cv, src, H, track, 'warpParts');
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1))
    throw new RangeError(`warpParts: an output of ${width}×${height}`);
  // What is to be drawn, checked before anything is: no pixel drawn for a request refused halfway.
  const ys = [...rows];
  for (const y of ys)
    if (!(Number.isInteger(y) && y >= 0 && y < height)) throw new RangeError(`warpParts: row ${y}`);
  for (const [x0, x1] of spans)
    if (!(Number.isInteger(x0) && Number.isInteger(x1) && x0 >= 0 && x0 <= x1 && x1 <= width))
      throw new RangeError(`warpParts: columns ${x0}…${x1}`);
  const out = new Uint8Array(width * height * channels);
  // The view of OpenCV's memory taken last, and drawn from at once: nothing allocates there while it is used.
  const from = checkSource({ width: src.cols, height: src.rows, data: src.data }, channels);
  const block = blockWidth(width, height);
  for (const y of ys)
    for (const [x0, x1] of spans) resampleSpan(from, channels, toSource, out, width, y, x0, x1, block);
  return out;
}

/**
 * What warpMat and warpParts read `src` and `H` as: 8-bit, grey or colour, its rows one after another (what resample
 * reads; a region of interest is not), and each output pixel's source point by H's inverse.
 */
function straightening(cv: CV, src: Mat, H: Mat, track: (m: Mat) => Mat, caller: string) {
  const type = src.type();
  if ((type !== cv.CV_8UC1 && type !== cv.CV_8UC3) || !src.isContinuous())
    throw new TypeError(`${caller}: a Mat of type ${type}${src.isContinuous() ? '' : ', not continuous'}`);
  const inverse = track(new cv.Mat());
  cv.invert(H, inverse);
  return {
    channels: type === cv.CV_8UC1 ? (1 as const) : (3 as const),
    toSource: Float64Array.from(inverse.data64F as Float64Array),
  };
}

/** Applies a 3×3 homography (CV_64F Mat) to a point. */
export function apply(H: Mat, [x, y]: Point): Point {
  const h = H.data64F as Float64Array;
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/** Orders four points as top-left, top-right, bottom-right, bottom-left (by angle around their centre). */
export function orderCorners(pts: Point[]): Point[] {
  const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const sorted = [...pts].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
  // atan2 order starts near -π (left); rotate so the first is the one with the smallest x + y.
  const start = sorted.reduce((bi, p, i) => (p[0] + p[1] < sorted[bi]![0] + sorted[bi]![1] ? i : bi), 0);
  return [...sorted.slice(start), ...sorted.slice(0, start)];
}

export function dedupe(quads: Point[][]): Point[][] {
  const out: Point[][] = [];
  for (const q of quads) {
    if (!out.some((o) => o.every((p, i) => Math.hypot(p[0] - q[i]![0], p[1] - q[i]![1]) < 10))) out.push(q);
  }
  return out;
}

/** How far, in squares of the grid, its farthest corner lies outside the picture (0 when all are inside). */
export function offPicture(corners: readonly Point[], photo: { width: number; height: number }): number {
  const side = (a: number, b: number) =>
    Math.hypot(corners[a]![0] - corners[b]![0], corners[a]![1] - corners[b]![1]);
  const cell = (side(0, 1) + side(1, 2) + side(2, 3) + side(3, 0)) / 4 / 15;
  const out = Math.max(...corners.map(([x, y]) => Math.max(0, -x, -y, x - photo.width, y - photo.height)));
  return cell > 0 ? out / cell : 0;
}
