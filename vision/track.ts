/**
 * Is the grid still where it was? A steady camera asks when many squares changed at once (moves taken back, the
 * light, a hand): finding the grid again costs 15–40 ms, but the answer is nearly always "where it was". So the grid
 * lines are looked at where the grid puts them, at 8 places along each of the 32 (a short grey profile across the
 * line, on the photo as decoded, 1–2 ms in all), and each profile is laid over the one taken there when the grid was
 * found: how far it has to slide to match (its gradients' correlation, to a fortieth of a square and finer) is how
 * far the line moved there. Tiles put down or taken away change some profiles (they then match nowhere, or move on
 * their own); the camera or the board moving moves them all, smoothly. A displacement field that is smooth over the
 * grid (bilinear) is fitted to the movements robustly, each axis on its own; the grid has stayed when the field moves
 * no corner of the grid by more than a twentieth of a square and three in four of the movements agree with it. When
 * the lines cannot tell (too few seen or matched, or no clear fit), the answer is "not sure", and the grid is looked
 * for again as before. Pure: no OpenCV.
 */
import { gridHomography, solveLinear } from './homography.ts';
import type { Corners, RgbImage } from './types.ts';

/** Places along each of the 16 lines per axis where the line is looked at. */
const ALONG = 8;
/** Half the width of the profile across a line, in squares, and its steps (a fortieth of a square apart). */
const ACROSS = 0.3;
const STEPS = 25;
const STEP = (2 * ACROSS) / (STEPS - 1);
/** Samples averaged along the line for each step of a profile, spread over this share of a square. */
const SPREAD = 5;
const SPREAD_SPAN = 0.3;
/** How far a profile is slid to match its earlier self, in steps each way (0.15 of a square). */
const LAGS = 6;
/** A profile matches its earlier self when their gradients correlate at least this well… */
const MATCH = 0.7;
/** …and it has some structure: its gradients' mean size in grey levels. */
const STRUCTURE = 1.5;

/** The grey profiles across the grid lines, at each place looked at (STEPS values each; the first NaN where the
 *  profile runs off the photo): vertical lines first (across a row), then horizontal ones (down a column). */
export type LineProfiles = Float32Array;

export const PROFILE_COUNT = 2 * 16 * ALONG;

/** The profiles across the grid lines in `photo`, where the grid `corners` puts them. */
export function lineProfiles(photo: RgbImage, corners: Corners): LineProfiles {
  const h = gridHomography(corners);
  const { width, height, data } = photo;
  const h0_0 = h[0]!;
  const h0_1 = h[1]!;
  const h0_2 = h[2]!;
  const h0_3 = h[3]!;
  const h0_4 = h[4]!;
  const h0_5 = h[5]!;
  const h0_6 = h[6]!;
  const h0_7 = h[7]!;
  const h0_8 = h[8]!;
  const out = new Float32Array(PROFILE_COUNT * STEPS);
  let k = 0;
  for (const vertical of [true, false]) {
    for (let line = 0; line <= 15; line++) {
      for (let j = 0; j < ALONG; j++, k++) {
        const along = ((j + 0.5) * 15) / ALONG;
        let seen = true;
        for (let i = 0; i < STEPS && seen; i++) {
          const across = line - ACROSS + i * STEP;
          let sum = 0;
          for (let s = 0; s < SPREAD; s++) {
            const a = along + SPREAD_SPAN * ((s + 0.5) / SPREAD - 0.5);
            const u = vertical ? across : a;
            const v = vertical ? a : across;
            const w = h0_6 * u + h0_7 * v + h0_8;
            const x = (h0_0 * u + h0_1 * v + h0_2) / w;
            const y = (h0_3 * u + h0_4 * v + h0_5) / w;
            if (!(x >= 0 && y >= 0 && x <= width - 1 && y <= height - 1)) {
              seen = false;
              break;
            }
            const ix = x >= width - 1 ? width - 2 : x | 0;
            const iy = y >= height - 1 ? height - 2 : y | 0;
            const fx = x - ix;
            const fy = y - iy;
            const p = (iy * width + ix) * 3;
            const q = p + width * 3;
            const g00 = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
            const g01 = 0.299 * data[p + 3]! + 0.587 * data[p + 4]! + 0.114 * data[p + 5]!;
            const g10 = 0.299 * data[q]! + 0.587 * data[q + 1]! + 0.114 * data[q + 2]!;
            const g11 = 0.299 * data[q + 3]! + 0.587 * data[q + 4]! + 0.114 * data[q + 5]!;
            const top = g00 + (g01 - g00) * fx;
            const bottom = g10 + (g11 - g10) * fx;
            sum += top + (bottom - top) * fy;
          }
          out[k * STEPS + i] = sum / SPREAD;
        }
        if (!seen) out[k * STEPS] = Number.NaN;
      }
    }
  }
  return out;
}

/**
 * How far profile `k` of `now` moved from the same profile of `before` (squares, along the line's normal): the slide
 * of its gradients that correlates best with the earlier ones, placed between steps by a parabola; NaN when either
 * profile is off the photo or flat, or when no slide matches well (a tile put down there, a hand).
 */
function profileMoved(before: LineProfiles, now: LineProfiles, k: number): number {
  const at = k * STEPS;
  if (Number.isNaN(before[at]!) || Number.isNaN(now[at]!)) return Number.NaN;
  const n = STEPS - 2;
  const b = new Float64Array(n);
  const c = new Float64Array(n);
  let bSize = 0;
  let cSize = 0;
  for (let i = 0; i < n; i++) {
    b[i] = before[at + i + 2]! - before[at + i]!;
    c[i] = now[at + i + 2]! - now[at + i]!;
    bSize += Math.abs(b[i]!);
    cSize += Math.abs(c[i]!);
  }
  if (bSize < STRUCTURE * n || cSize < STRUCTURE * n) return Number.NaN;
  // The correlation of before[i] with now[i + lag] over the steps both have.
  const correlation = (lag: number) => {
    let sb = 0;
    let sc = 0;
    let sbb = 0;
    let scc = 0;
    let sbc = 0;
    let m = 0;
    for (let i = Math.max(0, -lag); i < Math.min(n, n - lag); i++) {
      const x = b[i]!;
      const y = c[i + lag]!;
      sb += x;
      sc += y;
      sbb += x * x;
      scc += y * y;
      sbc += x * y;
      m++;
    }
    const cov = sbc - (sb * sc) / m;
    const varB = sbb - (sb * sb) / m;
    const varC = scc - (sc * sc) / m;
    return varB > 0 && varC > 0 ? cov / Math.sqrt(varB * varC) : -1;
  };
  const scores = new Float64Array(2 * LAGS + 1);
  let best = 0;
  for (let lag = -LAGS; lag <= LAGS; lag++) {
    scores[lag + LAGS] = correlation(lag);
    if (scores[lag + LAGS]! > scores[best]!) best = lag + LAGS;
  }
  if (scores[best]! < MATCH) return Number.NaN;
  let slide = best - LAGS;
  if (best > 0 && best < 2 * LAGS) {
    const [l, m, r] = [scores[best - 1]!, scores[best]!, scores[best + 1]!];
    const curve = l - 2 * m + r;
    if (curve < 0) slide += (0.5 * (l - r)) / curve;
  }
  return slide * STEP;
}

/** At least this share of each axis's profiles must match their earlier selves (structured, well correlated) for the
 *  lines to tell. */
const MIN_SEEN = 0.35;
/** An edge agrees with the fitted field when within this (squares)… */
const AGREE = 0.04;
/**
 * …and the field is trusted when this share of each axis's edges seen agree. A grid that stayed, with eight moves
 * taken back, had 0.83–0.88 of them agree on the real photos; a board moved by whole squares (each line then on
 * another, the tiles' edges not) 0.52–0.66.
 */
const MIN_AGREE = 0.75;
/** The grid has stayed when the fitted field moves none of its corners by more than this (squares). */
const STAYED = 0.05;

/**
 * Whether the grid whose lines showed `before` is still where it was, from where they show now (`now`, looked at
 * on the same grid): `true` when sure it stayed, `false` when the lines cannot say so (it moved, or too little of
 * them was seen). A board moved by whole squares puts each line on another: the caller asks the squares for that.
 */
export function gridStayed(before: LineProfiles, now: LineProfiles): boolean {
  const shift = gridShift(before, now);
  return shift !== undefined && shift <= STAYED;
}

interface Edge {
  readonly u: number;
  readonly v: number;
  readonly moved: number;
}

/**
 * How far the grid moved between `before` and `now` (its farthest corner, in squares), from the displacement field
 * fitted to the lines' edges, each axis on its own: across the rows from the vertical lines' edges, down the columns
 * from the horizontal ones; undefined when the lines cannot say.
 */
export function gridShift(before: LineProfiles, now: LineProfiles): number | undefined {
  const axes: Edge[][] = [[], []];
  let k = 0;
  for (const [axis, vertical] of [
    [0, true],
    [1, false],
  ] as const) {
    for (let line = 0; line <= 15; line++) {
      for (let j = 0; j < ALONG; j++, k++) {
        const moved = profileMoved(before, now, k);
        if (!Number.isFinite(moved)) continue;
        const along = ((j + 0.5) * 15) / ALONG;
        axes[axis]!.push(vertical ? { u: line, v: along, moved } : { u: along, v: line, moved });
      }
    }
  }
  const fields = axes.map(fitField);
  const [x, y] = fields;
  if (!x || !y) return undefined;
  let farthest = 0;
  for (const [u, v] of [
    [0, 0],
    [15, 0],
    [15, 15],
    [0, 15],
  ] as const)
    farthest = Math.max(farthest, Math.hypot(x(u, v), y(u, v)));
  return farthest;
}

/**
 * A displacement field over the grid, bilinear (a + b·u + c·v + d·u·v: a shift, a turn, a change of scale, and one
 * corner moved on its own, as a camera tilted), fitted by least squares to the edges that agree with the last fit
 * (all of them at first, then the closest share); undefined unless enough of the edges were matched and enough
 * agree with it.
 */
function fitField(edges: readonly Edge[]): ((u: number, v: number) => number) | undefined {
  if (edges.length < MIN_SEEN * 16 * ALONG) return undefined;
  const terms = (e: { u: number; v: number }) => [1, e.u, e.v, e.u * e.v];
  let use = edges;
  let c: number[] | undefined;
  const residual = (e: Edge) => Math.abs(e.moved - terms(e).reduce((s, t, i) => s + t * c![i]!, 0));
  for (let round = 0; round < 4; round++) {
    c = leastSquares(
      use.map(terms),
      use.map((e) => e.moved),
    );
    if (!c) return undefined;
    if (round === 3) break;
    const sorted = edges.map(residual).sort((a, b) => a - b);
    const cut = Math.max(AGREE, sorted[Math.floor(MIN_AGREE * sorted.length)]!);
    use = edges.filter((e) => residual(e) <= cut);
  }
  const agree = edges.filter((e) => residual(e) <= AGREE).length;
  if (agree < MIN_AGREE * edges.length) return undefined;
  const fitted = c!;
  return (u, v) => fitted[0]! + fitted[1]! * u + fitted[2]! * v + fitted[3]! * u * v;
}

/** The least-squares solution of rows · x ≈ values (the normal equations, `solveLinear`); undefined when the rows
 *  do not determine it. */
function leastSquares(rows: readonly number[][], values: readonly number[]): number[] | undefined {
  const n = rows[0]?.length ?? 0;
  if (rows.length < 2 * n) return undefined;
  const a = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  rows.forEach((row, r) => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i]![j]! += row[i]! * row[j]!;
      a[i]![n]! += row[i]! * values[r]!;
    }
  });
  return solveLinear(a, 1e-9);
}
