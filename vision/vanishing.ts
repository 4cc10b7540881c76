/**
 * The grid of a board seen steeply, from its two families of lines. A board's rows meet at one vanishing point and
 * its columns at another; the line through both (the horizon) sent back to infinity and the two directions turned
 * onto the axes, the board is an upright rectangle again, whatever the camera's tilt. There the ordinary search
 * (outlines, 16 equally spaced lines each way) finds it, and its grid is mapped back into the picture.
 *
 * Where the board is in the straightened picture comes from where the two families cross: a table's planks, a rack
 * or a cloth's stripes belong to one family or the other, and only the board's lines cross each other all over it.
 */
import type { CV, Mat } from './cv.ts';
import { apply, pointsMat, square, warpMat } from './geometry.ts';
import { candidateQuads, gridInQuad } from './grid-search.ts';
import type { Point } from './types.ts';

type Vec3 = [number, number, number];
interface Segment {
  readonly a: Point;
  readonly b: Point;
  /** The segment's line, homogeneous. */
  readonly line: Vec3;
  readonly length: number;
  readonly mid: Point;
}

/** Side of the straightened picture searched for the board, in pixels. */
const SIDE = 400;
/** A segment agrees with a vanishing point when it points at it within this angle. */
const AGREE = (1.5 * Math.PI) / 180;
/** Random pairs of segments tried for each vanishing point. */
const TRIES = 400;
/** Segments from the edges: votes, shortest length and largest gap, in work pixels. */
const HOUGH = { votes: 15, length: 12, gap: 3 } as const;
/** The window around the crossings, each way: the middle crossing ± this many times their middle half's spread. */
const WINDOW = 2;
/** A crossing may lie this many pixels beyond either segment's end. */
const REACH = 3;

const cross = (u: readonly number[], v: readonly number[]): Vec3 => [
  u[1]! * v[2]! - u[2]! * v[1]!,
  u[2]! * v[0]! - u[0]! * v[2]!,
  u[0]! * v[1]! - u[1]! * v[0]!,
];

/** Whether segment `s` points at the homogeneous point `v` (a direction when v[2] is 0) within AGREE. */
function pointsAt(s: Segment, v: Vec3): boolean {
  const dx = s.b[0] - s.a[0];
  const dy = s.b[1] - s.a[1];
  const far = Math.abs(v[2]) < 1e-9 * Math.hypot(v[0], v[1]);
  const tx = far ? v[0] : v[0] / v[2] - s.mid[0];
  const ty = far ? v[1] : v[1] / v[2] - s.mid[1];
  const sine = Math.abs(dx * ty - dy * tx) / (Math.hypot(dx, dy) * Math.hypot(tx, ty) + 1e-12);
  return sine < Math.sin(AGREE);
}

/**
 * The vanishing point most segments point at, and those segments: pairs of segments drawn by a fixed sequence (the
 * same picture gives the same answer), each pair's meeting point counted.
 */
function vanishingPoint(segments: readonly Segment[]): { point: Vec3; members: Segment[] } | undefined {
  let state = 1;
  const next = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  let best: { point: Vec3; members: Segment[] } | undefined;
  for (let i = 0; i < TRIES; i++) {
    const s = segments[Math.floor(next() * segments.length)]!;
    const t = segments[Math.floor(next() * segments.length)]!;
    if (s === t) continue;
    const v = cross(s.line, t.line);
    const n = Math.hypot(...v);
    if (n === 0) continue;
    const point: Vec3 = [v[0] / n, v[1] / n, v[2] / n];
    const members = segments.filter((x) => pointsAt(x, point));
    if (!best || members.length > best.members.length) best = { point, members };
  }
  return best;
}

const applyTo = (H: readonly number[], p: readonly number[]): Vec3 => [
  H[0]! * p[0]! + H[1]! * p[1]! + H[2]! * p[2]!,
  H[3]! * p[0]! + H[4]! * p[1]! + H[5]! * p[2]!,
  H[6]! * p[0]! + H[7]! * p[1]! + H[8]! * p[2]!,
];

const multiply = (X: readonly number[], Y: readonly number[]): number[] =>
  Array.from({ length: 9 }, (_, k) => {
    const [i, j] = [Math.floor(k / 3), k % 3];
    return X[3 * i]! * Y[j]! + X[3 * i + 1]! * Y[3 + j]! + X[3 * i + 2]! * Y[6 + j]!;
  });

/** Whether the four points, in order, make a convex quadrilateral with finite corners. */
function convex(q: readonly Point[]): boolean {
  if (!q.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))) return false;
  const turns = q.map((p, i) => {
    const b = q[(i + 1) % 4]!;
    const c = q[(i + 2) % 4]!;
    return (b[0] - p[0]) * (c[1] - b[1]) - (b[1] - p[1]) * (c[0] - b[0]);
  });
  return turns.every((t) => t > 0) || turns.every((t) => t < 0);
}

/** The value below which a share `q` of `values` lie (sorts them). */
function quantile(values: number[], q: number): number {
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(values.length * q))]!;
}

/**
 * The grids found through the board's vanishing points in `gray` (the work picture), one for each window searched,
 * with their line scores as `gridInQuad` gives them within their windows; none when there are not two families of
 * lines crossing each other.
 */
export function gridByVanishingPoints(
  cv: CV,
  gray: Mat,
  track: (m: Mat) => Mat,
): { grid: Point[]; score: number }[] {
  const blurred = track(new cv.Mat());
  cv.GaussianBlur(gray, blurred, new cv.Size(3, 3), 0);
  const edges = track(new cv.Mat());
  cv.Canny(blurred, edges, 30, 90);
  const found = track(new cv.Mat());
  cv.HoughLinesP(edges, found, 1, Math.PI / 360, HOUGH.votes, HOUGH.length, HOUGH.gap);
  const segments: Segment[] = [];
  const ends = found.data32S as Int32Array;
  for (let i = 0; i < found.rows; i++) {
    const a: Point = [ends[4 * i]!, ends[4 * i + 1]!];
    const b: Point = [ends[4 * i + 2]!, ends[4 * i + 3]!];
    segments.push({
      a,
      b,
      line: cross([a[0], a[1], 1], [b[0], b[1], 1]),
      length: Math.hypot(b[0] - a[0], b[1] - a[1]),
      mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
    });
  }
  if (segments.length < 20) return [];
  const rows = vanishingPoint(segments);
  if (!rows) return [];
  const inRows = new Set(rows.members);
  const columns = vanishingPoint(segments.filter((s) => !inRows.has(s)));
  if (!columns) return [];
  // The horizon to infinity, then the two directions onto the axes.
  const horizon = cross(rows.point, columns.point);
  const H1 = [1, 0, 0, 0, 1, 0, ...horizon];
  const d1 = applyTo(H1, rows.point);
  const d2 = applyTo(H1, columns.point);
  const det = d1[0] * d2[1] - d2[0] * d1[1];
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return [];
  const H = multiply([d2[1] / det, -d2[0] / det, 0, -d1[1] / det, d1[0] / det, 0, 0, 0, 1], H1);
  const straighten = (p: Point): Point => {
    const q = applyTo(H, [p[0], p[1], 1]);
    return [q[0] / q[2], q[1] / q[2]];
  };
  // Where rows and columns cross, straightened.
  const crossings: Point[] = [];
  const within = (s: Segment, p: Point) => {
    const t = ((p[0] - s.a[0]) * (s.b[0] - s.a[0]) + (p[1] - s.a[1]) * (s.b[1] - s.a[1])) / s.length ** 2;
    return t * s.length > -REACH && (1 - t) * s.length > -REACH;
  };
  for (const r of rows.members) {
    for (const c of columns.members) {
      const q = cross(r.line, c.line);
      if (q[2] === 0) continue;
      const p: Point = [q[0] / q[2], q[1] / q[2]];
      if (!(within(r, p) && within(c, p))) continue;
      // A crossing on the horizon goes to infinity: it says nothing of where the board is.
      const q2 = straighten(p);
      if (Number.isFinite(q2[0]) && Number.isFinite(q2[1])) crossings.push(q2);
    }
  }
  if (crossings.length < 12) return [];
  const window = (values: number[]) => {
    const middle = quantile(values, 0.5);
    const spread = quantile(values, 0.75) - quantile(values, 0.25);
    return [middle - WINDOW * spread, middle + WINDOW * spread] as const;
  };
  const [x0, x1] = window(crossings.map((p) => p[0]));
  const [y0, y1] = window(crossings.map((p) => p[1]));
  if (!(x1 > x0 && y1 > y0)) return [];
  // The window, back in the picture, drawn upright at SIDE × SIDE; and the window grown by its own size towards each
  // of its four sides, as the board's far rows may have few crossings (their lines a few pixels apart, seldom found
  // as segments): a rendered view at 72° had its crossings in the board's near half and the rack, its window missing
  // the far rows. Both ways: which family of lines lies along the straightened x axis (the one with more segments)
  // depends on the picture, so the far rows may lie beyond either pair of sides.
  const Hi = track(cv.matFromArray(3, 3, cv.CV_64F, H));
  const back = track(new cv.Mat());
  cv.invert(Hi, back);
  const h = y1 - y0;
  const out: { grid: Point[]; score: number }[] = [];
  const w = x1 - x0;
  for (const [l, r, a, b] of [
    [x0, x1, y0, y1],
    [x0, x1, y0 - h, y1],
    [x0, x1, y0, y1 + h],
    [x0 - w, x1, y0, y1],
    [x0, x1 + w, y0, y1],
  ] as const) {
    const corners: Point[] = [
      apply(back, [l, a]),
      apply(back, [r, a]),
      apply(back, [r, b]),
      apply(back, [l, b]),
    ];
    // A window reaching past the horizon comes back folded: only a convex outline is the board's plane.
    if (!convex(corners)) continue;
    const T = track(
      cv.getPerspectiveTransform(pointsMat(cv, corners, track), pointsMat(cv, square(SIDE), track)),
    );
    const straightened = warpMat(cv, gray, T, SIDE, SIDE, track);
    let best: { grid: Point[]; score: number } | undefined;
    for (const quad of candidateQuads(cv, straightened, track, 0, true)) {
      const grid = gridInQuad(cv, straightened, quad, track);
      if (grid && (!best || grid.score > best.score)) best = grid;
    }
    if (!best) continue;
    const Ti = track(new cv.Mat());
    cv.invert(T, Ti);
    out.push({ grid: best.grid.map((p) => apply(Ti, p)), score: best.score });
  }
  return out;
}
