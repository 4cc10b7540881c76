/**
 * The first, coarse look for the grid: outlines that may be the board (edge regions, their hulls and boxes, the
 * whole frame), each straightened and searched for 16 equally spaced lines along each axis.
 */
import type { CV, Mat } from './cv.ts';
import { apply, dedupe, orderCorners, pointsMat, square, warpMat } from './geometry.ts';
import { plain, type Raster } from './resample.ts';
import type { Point } from './types.ts';

/** Straightened candidate size in pixels. */
const SIDE = 300;

/**
 * Outlines that may be the board: 4-cornered hulls of large edge regions, their bounding boxes, and the frame.
 * `pad`: the width of the black border around the photo in `gray`. The photo's own edge against that border is no
 * outline of anything: left in, it joins every region touching it (a board near the picture's edge, a patterned
 * cloth) into one hull as big as the frame. With `dense`, also the outlines of regions thick with edges
 * (`denseQuads`).
 */
export function candidateQuads(cv: CV, gray: Mat, track: (m: Mat) => Mat, pad = 0, dense = false): Point[][] {
  const w = gray.cols;
  const h = gray.rows;
  const quads: Point[][] = [
    [
      [0, 0],
      [w - 1, 0],
      [w - 1, h - 1],
      [0, h - 1],
    ],
  ];
  const blurred = track(new cv.Mat());
  cv.GaussianBlur(gray, blurred, new cv.Size(5, 5), 0);
  const kernel = track(cv.Mat.ones(5, 5, cv.CV_8U));
  /** The finer edges with the photo's own edge left out: what the dense regions are measured on. */
  let fine: Mat | undefined;
  for (const [lo, hi] of [
    [30, 90],
    [60, 180],
  ] as const) {
    const canny = track(new cv.Mat());
    cv.Canny(blurred, canny, lo, hi);
    for (const cut of pad > 0 ? [false, true] : [false]) {
      let lines = canny;
      if (cut) {
        lines = track(canny.clone());
        cv.rectangle(lines, new cv.Point(0, 0), new cv.Point(w - 1, h - 1), new cv.Scalar(0), 2 * pad + 4);
      }
      if (lo === 30 && (cut || pad === 0)) fine = lines;
      const edges = track(new cv.Mat());
      cv.dilate(lines, edges, kernel);
      const contours = track(new cv.MatVector());
      const hierarchy = track(new cv.Mat());
      cv.findContours(edges, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
      for (let i = 0; i < contours.size(); i++) {
        const c = contours.get(i);
        // A hull is never larger than the contour's bounding box: most contours (letters, specks) end here.
        const box = cv.boundingRect(c);
        if (box.width * box.height < 0.04 * w * h) {
          c.delete();
          continue;
        }
        const hull = new cv.Mat();
        cv.convexHull(c, hull);
        const area = cv.contourArea(hull);
        if (area >= 0.04 * w * h) quads.push(...outlines(cv, hull));
        hull.delete();
        c.delete();
      }
    }
  }
  if (dense && fine) quads.push(...denseQuads(cv, fine, track));
  return dedupe(quads);
}

/** Box size, in pixels of the search image, over which edge density is measured. */
const DENSE_BOX = 9;
/** Share of a box's pixels on an edge for it to count as dense. */
const DENSE_SHARE = 0.2;

/**
 * Outlines of regions thick with edges. A board seen from a player's seat is small and its grid fine; a wood grain,
 * a table's edge or a rack beside it joins the board's own edges into a hull much larger than the board. A single
 * line fills a box of DENSE_BOX pixels by a tenth or two; fifteen grid lines each way fill it far more.
 */
function denseQuads(cv: CV, edges: Mat, track: (m: Mat) => Mat): Point[][] {
  const w = edges.cols;
  const h = edges.rows;
  const out: Point[][] = [];
  const density = track(new cv.Mat());
  cv.blur(edges, density, new cv.Size(DENSE_BOX, DENSE_BOX));
  const mask = track(new cv.Mat());
  cv.threshold(density, mask, DENSE_SHARE * 255, 255, cv.THRESH_BINARY);
  const contours = track(new cv.MatVector());
  const hierarchy = track(new cv.Mat());
  cv.findContours(mask, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  for (let i = 0; i < contours.size(); i++) {
    const c = contours.get(i);
    const hull = new cv.Mat();
    cv.convexHull(c, hull);
    if (cv.contourArea(hull) >= 0.02 * w * h) out.push(...outlines(cv, hull));
    hull.delete();
    c.delete();
  }
  return out;
}

/** A hull's 4-cornered simplification, if it has one, and its smallest enclosing rectangle. */
function outlines(cv: CV, hull: Mat): Point[][] {
  const out: Point[][] = [];
  const approx = new cv.Mat();
  const peri = cv.arcLength(hull, true);
  for (const eps of [0.02, 0.04, 0.06]) {
    cv.approxPolyDP(hull, approx, eps * peri, true);
    if (approx.rows === 4) {
      out.push(
        orderCorners(
          Array.from({ length: 4 }, (_, k) => [approx.data32S[2 * k], approx.data32S[2 * k + 1]] as Point),
        ),
      );
      break;
    }
  }
  approx.delete();
  const rect = cv.minAreaRect(hull);
  const pts = cv.RotatedRect.points(rect) as { x: number; y: number }[];
  out.push(orderCorners(pts.map((p) => [p.x, p.y] as Point)));
  return out;
}

/**
 * `quad` grown by `by` of its own side on every side, in its own perspective (a grown outline's far edge grows less
 * than its near one, as the squares there are smaller).
 */
export function grownQuad(cv: CV, quad: Point[], by: number, track: (m: Mat) => Mat): Point[] {
  const H = track(cv.getPerspectiveTransform(pointsMat(cv, square(1), track), pointsMat(cv, quad, track)));
  return square(1 + 2 * by).map(([x, y]) => apply(H, [x - by, y - by]));
}

/** Straightens `quad` and searches it for the grid's 16 lines along each axis. */
export function gridInQuad(
  cv: CV,
  gray: Mat,
  quad: Point[],
  track: (m: Mat) => Mat,
): { grid: Point[]; score: number } | undefined {
  // The outline maps a little inside the straightened square, so that lines on the outline itself can be seen.
  const inset = Math.round(SIDE * 0.03);
  const target = square(SIDE - 2 * inset).map(([x, y]) => [x + inset, y + inset] as Point);
  const H = track(cv.getPerspectiveTransform(pointsMat(cv, quad, track), pointsMat(cv, target, track)));
  const warped = warpMat(cv, gray, H, SIDE, SIDE, track);
  const { vx, vy } = lineProfiles({
    width: warped.cols,
    height: warped.rows,
    data: warped.data as Uint8Array,
  });
  const fx = bestComb(vx);
  const fy = bestComb(vy);
  if (!fx || !fy) return undefined;
  // Cells are square: the two periods must agree unless the outline is badly skewed.
  const ratio = fx.period / fy.period;
  if (ratio < 0.8 || ratio > 1.25) return undefined;
  const inner: Point[] = [
    [fx.offset, fy.offset],
    [fx.offset + 15 * fx.period, fy.offset],
    [fx.offset + 15 * fx.period, fy.offset + 15 * fy.period],
    [fx.offset, fy.offset + 15 * fy.period],
  ];
  const Hinv = track(new cv.Mat());
  cv.invert(H, Hinv);
  const grid = inner.map((p) => apply(Hinv, p));
  // Squares seen from up to ~75° off vertical (a phone at a player's seat): the grid's sides in the photo keep an aspect
  // within 4:1.
  const side = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const [tl, tr, br, bl] = grid as [Point, Point, Point, Point];
  const aspect = (side(tl, tr) + side(bl, br)) / (side(tl, bl) + side(tr, br));
  if (aspect < 0.25 || aspect > 4) return undefined;
  return { grid, score: Math.min(fx.score, fy.score) };
}

/**
 * Sums of gradient magnitude across the straightened image: peaks where grid lines (and tile edges) run. `vx[x]` sums
 * |∂/∂x| down column x, `vy[y]` |∂/∂y| along row y, each derivative OpenCV's 3×3 Sobel with its default border
 * (BORDER_REFLECT_101: the pixel one in from the edge stands beyond it). Computed here in one pass over the pixels
 * rather than as two Sobel images from OpenCV's wasm build: 0.9–1.2 against 1.6–1.8 ms for a 300×300 outline here.
 * The same sums: a Sobel of 8-bit pixels is an integer (at most 4·255 either way), so every partial sum is exact in
 * floats, whatever its order.
 */
function lineProfiles(img: Raster): { vx: Float64Array; vy: Float64Array } {
  const { vx, vy } = gradientSums(img);
  return { vx: smooth(vx), vy: smooth(vy) };
}

/** The profiles before smoothing (see lineProfiles). */
export function gradientSums(img: Raster): { vx: Float64Array; vy: Float64Array } {
  const n = img.width;
  const m = img.height;
  const d = plain(img.data);
  if (!(n >= 2 && m >= 2 && m < 2 ** 31 / 1020 && d.length >= n * m))
    throw new RangeError(`gradientSums: an image of ${n}×${m}`);
  // Integer sums (at most 1020 a pixel, so 2^31 / 1020 pixels a line): integer additions, the same values.
  const sx = new Int32Array(n);
  const vy = new Float64Array(m);
  for (let y = 0; y < m; y++) {
    // The rows above and below, reflected at the edges (row 1 stands for row -1, row m - 2 for row m).
    const u = (y === 0 ? 1 : y - 1) * n;
    const c = y * n;
    const w = (y === m - 1 ? m - 2 : y + 1) * n;
    // Per column, the vertical smoothing (1 2 1) and the difference down; ∂/∂x is the smoothing's difference from the
    // column before to the one after, ∂/∂y the differences smoothed (1 2 1) across the three columns. Column 1 stands
    // for column -1 and column n - 2 for column n, so the first and last columns have no ∂/∂x.
    let sPrev = d[u + 1]! + 2 * d[c + 1]! + d[w + 1]!;
    let sHere = d[u]! + 2 * d[c]! + d[w]!;
    let tPrev = d[w + 1]! - d[u + 1]!;
    let tHere = d[w]! - d[u]!;
    let across = 0;
    for (let x = 0; x < n - 1; x++) {
      const sNext = d[u + x + 1]! + 2 * d[c + x + 1]! + d[w + x + 1]!;
      const tNext = d[w + x + 1]! - d[u + x + 1]!;
      const gx = sNext - sPrev;
      const gy = tPrev + 2 * tHere + tNext;
      // Absolute values without a branch (the signs follow the picture, no predictor's pattern).
      const ax = gx >> 31;
      const ay = gy >> 31;
      sx[x]! += (gx ^ ax) - ax;
      across += (gy ^ ay) - ay;
      sPrev = sHere;
      sHere = sNext;
      tPrev = tHere;
      tHere = tNext;
    }
    const gy = 2 * (tPrev + tHere);
    across += gy < 0 ? -gy : gy;
    vy[y] = across;
  }
  return { vx: Float64Array.from(sx), vy };
}

export function smooth(v: Float64Array): Float64Array {
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    let s = 0;
    let k = 0;
    for (let d = -2; d <= 2; d++) {
      const j = i + d;
      if (j >= 0 && j < v.length) {
        s += v[j]! * (3 - Math.abs(d));
        k += 3 - Math.abs(d);
      }
    }
    out[i] = s / k;
  }
  return out;
}

/**
 * The 16 equally spaced lines that stand out most from the cell middles between them: the period ranges from the
 * full width (the outline is the grid) to 15/22 of it (a wide border or a side panel), the offset anywhere that keeps the grid in.
 */
function bestComb(profile: Float64Array): { period: number; offset: number; score: number } | undefined {
  const n = profile.length;
  // One very strong edge (the picture's frame, a table edge) must not outweigh fifteen grid lines: clip the
  // profile at three times its median before comparing lines with cell middles. (A typed array sorts by value, five
  // times as fast as an array with a comparator.)
  const median = profile.slice().sort()[Math.floor(n / 2)]!;
  const v = profile.map((x) => Math.min(x, 3 * median));
  let mean = 0;
  for (const x of v) mean += x;
  mean /= n;
  if (mean <= 0) return undefined;
  // The profile with its last value once more beyond its end: a line sampled at the very end reads it (weighed 0)
  // without a bounds test. Every sample lies within the profile: the loops below keep the comb inside it, with
  // offsets from 0 and periods above 0 (the shortest tried, 0.94·n/22 − 0.25, is above 0 for a profile of 6 values
  // or more; the search's have SIDE).
  const padded = new Float64Array(n + 1);
  padded.set(v);
  padded[n] = v[n - 1]!;
  const score = (period: number, offset: number) => {
    // The lines' and the middles' sums, each in its own order, run side by side.
    let lines = 0;
    let middles = 0;
    for (let k = 0; k <= 15; k++) {
      const x = offset + k * period;
      const i = Math.floor(x);
      const a = padded[i]!;
      lines += a + (padded[i + 1]! - a) * (x - i);
      if (k < 15) {
        const y = offset + (k + 0.5) * period;
        const j = Math.floor(y);
        const b = padded[j]!;
        middles += b + (padded[j + 1]! - b) * (y - j);
      }
    }
    return (lines / 16 - middles / 15) / mean;
  };
  let best: { period: number; offset: number; score: number } | undefined;
  for (let period = (0.94 * n) / 22; period <= (n - 1) / 15; period += 0.25) {
    for (let offset = 0; offset + 15 * period <= n - 1; offset += 1) {
      const s = score(period, offset);
      if (!best || s > best.score) best = { period, offset, score: s };
    }
  }
  if (!best) return undefined;
  // Finer steps around the best coarse match.
  const coarse = best;
  for (let period = coarse.period - 0.25; period <= coarse.period + 0.25; period += 0.05) {
    for (let offset = coarse.offset - 1; offset <= coarse.offset + 1; offset += 0.25) {
      if (offset < 0 || offset + 15 * period > n - 1) continue;
      const s = score(period, offset);
      if (s > best.score) best = { period, offset, score: s };
    }
  }
  return best;
}
