/**
 * Making a coarse grid exact: line-by-line refinement with a fitted homography, and the premium-square symmetry
 * check that catches a grid one cell off.
 */
import { standardLayout } from '../server/engine/index.ts';
import type { CV, Mat } from './cv.ts';
import { apply, pointsMat, square, warpMat, warpParts } from './geometry.ts';
import { smooth } from './grid-search.ts';
import type { Point } from './types.ts';

/**
 * Re-straightens around the current grid estimate with a cell of margin, finds each of the 16 lines per axis in
 * five bands, fits a straight line to each, intersects the two families, and fits a homography from the ideal
 * lattice to the intersections. A correction that moves a corner by more than half a cell is not trusted as it
 * is: the grid moves half a cell that way (`partial`), and the next pass looks again from there.
 */
export function refineGrid(
  cv: CV,
  gray: Mat,
  grid: Point[],
  track: (m: Mat) => Mat,
): { grid?: Point[]; support: number; partial?: boolean } {
  const cell = 20;
  const margin = cell;
  const size = 15 * cell + 2 * margin;
  const ideal = square(15 * cell).map(([x, y]) => [x + margin, y + margin] as Point);
  const H = track(cv.getPerspectiveTransform(pointsMat(cv, grid, track), pointsMat(cv, ideal, track)));
  const warped = warpMat(cv, gray, H, size, size, track);
  const gx = track(new cv.Mat());
  const gy = track(new cv.Mat());
  cv.Sobel(warped, gx, cv.CV_32F, 1, 0, 3);
  cv.Sobel(warped, gy, cv.CV_32F, 0, 1, 3);
  const dx = gx.data32F as Float32Array;
  const dy = gy.data32F as Float32Array;
  const bands = 6;
  const search = Math.round(cell * 0.3);
  // Line k, band b: the offset across the band of the strongest edge near where the line should be.
  const find = (vertical: boolean, k: number, b: number): number | undefined => {
    const lineAt = margin + k * cell;
    const from = margin + Math.round((b * 15 * cell) / bands);
    const to = margin + Math.round(((b + 1) * 15 * cell) / bands);
    // Each offset's sum along the band: in a function of its own (bandSums) this takes half the time the loop took
    // here, which read dx, dy and size from the closure and chose between them at every value.
    const profile = vertical
      ? bandSums(dx, lineAt - search, 1, from * size, size, to - from, 2 * search + 1)
      : bandSums(dy, (lineAt - search) * size, size, from, 1, to - from, 2 * search + 1);
    const sm = smooth(profile);
    let bestD = 0;
    let bestV = -1;
    let total = 0;
    for (let i = 0; i < sm.length; i++) {
      total += sm[i]!;
      if (sm[i]! > bestV) {
        bestV = sm[i]!;
        bestD = i - search;
      }
    }
    // A peak that does not stand out is no line (a tile face, a hand): leave it out.
    return bestV > (1.5 * total) / sm.length ? lineAt + bestD : undefined;
  };
  // Each line as position = a + b·t along the other axis, fitted to its bands; undefined if too few were seen.
  const fitLine = (vertical: boolean, k: number): { a: number; b: number } | undefined => {
    const obs: [number, number][] = [];
    for (let band = 0; band < bands; band++) {
      const at = find(vertical, k, band);
      if (at !== undefined) seen++;
      if (at !== undefined) obs.push([margin + ((band + 0.5) * 15 * cell) / bands, at]);
    }
    if (obs.length < 3) return undefined;
    const n = obs.length;
    const mt = obs.reduce((s, o) => s + o[0], 0) / n;
    const mp = obs.reduce((s, o) => s + o[1], 0) / n;
    const stt = obs.reduce((s, o) => s + (o[0] - mt) ** 2, 0);
    const b = obs.reduce((s, o) => s + (o[0] - mt) * (o[1] - mp), 0) / stt;
    return { a: mp - b * mt, b };
  };
  let seen = 0;
  const verticals = Array.from({ length: 16 }, (_, k) => fitLine(true, k));
  const horizontals = Array.from({ length: 16 }, (_, k) => fitLine(false, k));
  const src: number[] = [];
  const dst: number[] = [];
  for (let i = 0; i <= 15; i++) {
    for (let j = 0; j <= 15; j++) {
      const v = verticals[i];
      const h = horizontals[j];
      if (!v || !h) continue;
      // x = v.a + v.b·y and y = h.a + h.b·x
      const x = (v.a + v.b * h.a) / (1 - v.b * h.b);
      const y = h.a + h.b * x;
      src.push(margin + i * cell, margin + j * cell);
      dst.push(x, y);
    }
  }
  const support = seen / (2 * 16 * bands);
  if (src.length < 2 * 36) return { support };
  const srcMat = track(cv.matFromArray(src.length / 2, 1, cv.CV_32FC2, src));
  const dstMat = track(cv.matFromArray(dst.length / 2, 1, cv.CV_32FC2, dst));
  const correction = track(cv.findHomography(srcMat, dstMat, cv.RANSAC, 4));
  if (correction.empty()) return { support };
  let moved = ideal.map((p) => apply(correction, p));
  const farthest = Math.max(...moved.map((p, i) => Math.hypot(p[0] - ideal[i]![0], p[1] - ideal[i]![1])));
  const partial = farthest > cell / 2;
  if (partial) {
    const k = cell / 2 / farthest;
    moved = moved.map(([x, y], i) => [
      ideal[i]![0] + k * (x - ideal[i]![0]),
      ideal[i]![1] + k * (y - ideal[i]![1]),
    ]);
  }
  const Hinv = track(new cv.Mat());
  cv.invert(H, Hinv);
  return { grid: moved.map((p) => apply(Hinv, p)), support, ...(partial ? { partial } : {}) };
}

/**
 * Sums of absolute values along `count` lines of `length` values each: line j's first value at `start + j·across +
 * from`, its next ones `along` apart. Each sum in order along its line.
 */
function bandSums(
  data: Float32Array,
  start: number,
  across: number,
  from: number,
  along: number,
  length: number,
  count: number,
): Float64Array {
  const out = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    let s = 0;
    for (let t = 0, o = start + j * across + from; t < length; t++, o += along) s += Math.abs(data[o]!);
    out[j] = s;
  }
  return out;
}

/** How many cells off the premium-layout check looks for the grid, each way. */
const SHIFT_RANGE = 3;

export interface Refined {
  readonly grid: Point[];
  /** Share of the grid's line segments seen in the last pass. */
  readonly support: number;
  /** Whether the last pass fitted the lines (and did not merely step towards them). */
  readonly fitted: boolean;
  /** Whether any pass fitted them. */
  readonly anyFitted: boolean;
  /** Whether a pass only stepped towards lines further than half a cell away. */
  readonly stepped: boolean;
  /** How many passes were made. */
  readonly passes: number;
}

/**
 * Up to `passes` refinements of `start`, stopping once the corners settle (moving under half a pixel). When none
 * of them fitted the lines but the grid was still stepping towards them (a start several cells off), up to
 * `moreWhileStepping` passes more.
 */
export function refinePasses(
  cv: CV,
  gray: Mat,
  start: Point[],
  track: (m: Mat) => Mat,
  passes: number,
  moreWhileStepping = 0,
): Refined {
  let grid = start;
  let support = 0;
  const done = { fitted: false, anyFitted: false, stepped: false, passes: 0 };
  for (let pass = 0; pass < passes + moreWhileStepping; pass++) {
    if (pass === passes && (done.anyFitted || !done.stepped)) break;
    const refined = refineGrid(cv, gray, grid, track);
    done.passes++;
    support = refined.support;
    done.fitted = refined.grid !== undefined && !refined.partial;
    if (!refined.grid) break;
    if (done.fitted) done.anyFitted = true;
    else done.stepped = true;
    const moved = Math.max(...refined.grid.map((p, i) => Math.hypot(p[0] - grid[i]![0], p[1] - grid[i]![1])));
    grid = refined.grid;
    if (moved < 0.5) break;
  }
  return { grid, support, ...done };
}

/**
 * Line searches can settle a few cells off: a border line taken for the first grid line, or the stripes of a side
 * panel (the red Hasbro board's) taken for columns, seen 2 to 3 cells off on steep views. Of the grid and its
 * neighbours up to SHIFT_RANGE cells away, the right one is where the squares' colours fit the standard premium
 * layout best, and clearly: better than the grid as found by a tenth, and better than each of its own neighbours
 * (a plain tablecloth beside the board fits "evenly coloured" ever better the further the grid slides onto it,
 * with no minimum; the real premium squares give a sharp one).
 */
export function symmetricShift(cv: CV, colour: Mat, grid: Point[], track: (m: Mat) => Mat): Point[] {
  const px = 12;
  const R = SHIFT_RANGE + 1; // one more, to see the neighbours of the furthest shift
  const n = 15 + 2 * R; // cells -R..14+R around the grid
  const lattice = track(
    cv.getPerspectiveTransform(pointsMat(cv, square(15), track), pointsMat(cv, grid, track)),
  );
  const at = (x: number, y: number) => apply(lattice, [x, y]);
  const from: Point[] = [at(-R, -R), at(15 + R, -R), at(15 + R, 15 + R), at(-R, 15 + R)];
  const H = track(
    cv.getPerspectiveTransform(pointsMat(cv, from, track), pointsMat(cv, square(n * px), track)),
  );
  // Only the squares' middles are drawn: all that is looked at.
  const lo = px / 4;
  const hi = px - px / 4;
  const rows = Array.from({ length: n }, (_, r) =>
    Array.from({ length: hi - lo }, (_, y) => r * px + lo + y),
  ).flat();
  const spans = Array.from({ length: n }, (_, c) => [c * px + lo, c * px + hi] as const);
  const data = warpParts(cv, colour, H, n * px, n * px, rows, spans, track);
  // Each cell's mean colour, channel by channel.
  const means = [new Float64Array(n * n), new Float64Array(n * n), new Float64Array(n * n)];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      let k = 0;
      for (let y = r * px + lo; y < r * px + hi; y++) {
        for (let x = c * px + lo; x < c * px + hi; x++) {
          const o = (y * n * px + x) * 3;
          for (let ch = 0; ch < 3; ch++) means[ch]![r * n + c]! += data[o + ch]!;
          k++;
        }
      }
      for (let ch = 0; ch < 3; ch++) means[ch]![r * n + c]! /= k;
    }
  }
  // The squares of each premium kind on the standard layout, as offsets into `means` for the grid as found.
  const byKind = new Map<string, number[]>();
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const kind = standardLayout.rows[r]![c]!;
      byKind.set(kind, [...(byKind.get(kind) ?? []), (r + R) * n + (c + R)]);
    }
  }
  const kinds = [...byKind.values()].map((offsets) => Int32Array.from(offsets));
  const buffer = new Float64Array(225);
  const median = (m: Float64Array, offsets: Int32Array, shift: number) =>
    shiftedMedian(m, offsets, shift, buffer);
  // How far each cell's colour is from the typical colour of its premium kind on the standard layout: low where
  // the grid sits on the real premium squares (a grid off by cells takes in the board's border and mixes the
  // kinds). Medians and absolute deviations, so that the tiles covering some squares count little.
  const [red, green, blue] = means as [Float64Array, Float64Array, Float64Array];
  const scores = new Map<number, number>();
  const score = (dx: number, dy: number) => {
    const shift = dy * n + dx;
    let within = scores.get(shift);
    if (within !== undefined) return within;
    within = 0;
    for (const offsets of kinds) {
      const [mr, mg, mb] = [
        median(red, offsets, shift),
        median(green, offsets, shift),
        median(blue, offsets, shift),
      ];
      for (const o of offsets) {
        const i = o + shift;
        const dr = red[i]! - mr;
        const dg = green[i]! - mg;
        const db = blue[i]! - mb;
        // Not Math.hypot: guarding against overflow, it took a third of the check's time.
        within += Math.sqrt(dr * dr + dg * dg + db * db);
      }
    }
    scores.set(shift, within);
    return within;
  };
  const centre = score(0, 0);
  let best = { dx: 0, dy: 0, score: centre };
  for (let dy = -SHIFT_RANGE; dy <= SHIFT_RANGE; dy++) {
    for (let dx = -SHIFT_RANGE; dx <= SHIFT_RANGE; dx++) {
      const s = score(dx, dy);
      if (s < best.score) best = { dx, dy, score: s };
    }
  }
  if ((best.dx === 0 && best.dy === 0) || best.score > 0.9 * centre) return grid;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if ((dx || dy) && score(best.dx + dx, best.dy + dy) <= best.score) return grid;
    }
  }
  return [
    at(best.dx, best.dy),
    at(15 + best.dx, best.dy),
    at(15 + best.dx, 15 + best.dy),
    at(best.dx, 15 + best.dy),
  ];
}

/** The median (upper, of an even count) of `m` at `offsets` moved by `shift`, using `buffer` (as long). */
function shiftedMedian(m: Float64Array, offsets: Int32Array, shift: number, buffer: Float64Array): number {
  for (let k = 0; k < offsets.length; k++) buffer[k] = m[offsets[k]! + shift]!;
  return select(buffer, offsets.length, offsets.length >> 1);
}

/** The `k`-th smallest of the first `n` values (Hoare's selection; reorders them). */
export function select(values: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}
