/**
 * Is the grid still where it was? A steady camera asks when many squares changed at once (moves taken back, the
 * light, a hand): finding the grid again costs 15–40 ms, but the answer is nearly always "where it was". So the grid
 * lines are looked at where the grid puts them, at a few places along each (a short profile across the line, on the
 * photo as decoded): where each line's edge stands now is compared with where it stood when the grid was found. Tiles
 * put down or taken away move a few of these edges (a tile's own edge beside the line); the camera or the board
 * moving moves them all, smoothly. A displacement field that is smooth (affine, over the grid) is fitted to the
 * edges robustly; the grid has stayed when the fit moves no corner of the grid by more than a small share of a square
 * and most edges agree with it. When the lines cannot tell (too few of them seen in both frames, or no clear fit),
 * the answer is "not sure", and the grid is looked for again as before. Pure: no OpenCV.
 */
import { gridHomography } from './homography.ts';
import type { Corners, RgbImage } from './types.ts';

/** Places along each of the 16 lines per axis where the line is looked at. */
const ALONG = 8;
/** Half the width of the profile across a line, in squares, and its steps. */
const ACROSS = 0.25;
const STEPS = 21;
/** Samples averaged along the line for each step of a profile, spread over this share of a square. */
const SPREAD = 5;
const SPREAD_SPAN = 0.3;
/** An edge is one when its gradient stands out this much from the profile's mean. */
const CLEAR_EDGE = 2;

/** Where the edge of each line stands across it, at each place looked at (squares; NaN where there is no clear
 *  edge): vertical lines first (displacement along a row), then horizontal ones (down a column). */
export type LineEdges = Float32Array;

export const EDGE_COUNT = 2 * 16 * ALONG;

/** The grid lines' edges in `photo`, looked for across each line where the grid `corners` puts it. */
export function lineEdges(photo: RgbImage, corners: Corners): LineEdges {
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
  const out = new Float32Array(EDGE_COUNT);
  const profile = new Float64Array(STEPS);
  const step = (2 * ACROSS) / (STEPS - 1);
  let k = 0;
  for (const vertical of [true, false]) {
    for (let line = 0; line <= 15; line++) {
      for (let j = 0; j < ALONG; j++) {
        const along = ((j + 0.5) * 15) / ALONG;
        let seen = true;
        for (let i = 0; i < STEPS && seen; i++) {
          const across = line - ACROSS + i * step;
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
          profile[i] = sum / SPREAD;
        }
        out[k++] = seen ? edgeIn(profile, step) : Number.NaN;
      }
    }
  }
  return out;
}

/** The strongest edge of a profile across a line, as its offset from the middle (in squares), NaN if none stands
 *  out; the peak placed between samples by a parabola through it and its neighbours. */
function edgeIn(profile: Float64Array, step: number): number {
  let best = -1;
  let at = -1;
  let total = 0;
  const n = profile.length;
  const d = (i: number) => Math.abs(profile[i + 1]! - profile[i - 1]!);
  for (let i = 1; i < n - 1; i++) {
    const g = d(i);
    total += g;
    if (g > best) {
      best = g;
      at = i;
    }
  }
  if (at < 0 || best <= (CLEAR_EDGE * total) / (n - 2)) return Number.NaN;
  let offset = at;
  if (at > 1 && at < n - 2) {
    const [a, b, c] = [d(at - 1), best, d(at + 1)];
    const curve = a - 2 * b + c;
    if (curve < 0) offset += (0.5 * (a - c)) / curve;
  }
  return (offset - (n - 1) / 2) * step;
}

/** At least this share of the edges must be seen in both frames for the lines to tell. */
const MIN_SEEN = 0.35;
/** An edge agrees with the fitted field when within this (squares)… */
const AGREE = 0.04;
/** …and the field is trusted when this share of the edges seen agree. */
const MIN_AGREE = 0.6;
/** The grid has stayed when the fitted field moves none of its corners by more than this (squares). */
const STAYED = 0.05;

/**
 * Whether the grid whose lines showed `before` is still where it was, from where they show now (`now`, looked at
 * on the same grid): `true` when sure it stayed, `false` when the lines cannot say so (it moved, or too little of
 * them was seen).
 */
export function gridStayed(before: LineEdges, now: LineEdges): boolean {
  const shift = gridShift(before, now);
  return shift !== undefined && shift <= STAYED;
}

/**
 * How far the grid moved between `before` and `now` (its farthest corner, in squares), from the displacement field
 * fitted to the lines' edges; undefined when the lines cannot say.
 */
export function gridShift(before: LineEdges, now: LineEdges): number | undefined {
  // Each edge: where on the grid it was looked at, which way it measures, and how far it moved.
  const points: { u: number; v: number; vertical: boolean; moved: number }[] = [];
  let k = 0;
  for (const vertical of [true, false]) {
    for (let line = 0; line <= 15; line++) {
      for (let j = 0; j < ALONG; j++, k++) {
        const moved = now[k]! - before[k]!;
        if (!Number.isFinite(moved)) continue;
        const along = ((j + 0.5) * 15) / ALONG;
        points.push(
          vertical ? { u: line, v: along, vertical, moved } : { u: along, v: line, vertical, moved },
        );
      }
    }
  }
  if (points.length < MIN_SEEN * EDGE_COUNT) return undefined;
  // A displacement field affine over the grid (across rows: a + b·u + c·v; down columns: d + e·u + f·v), fitted by
  // least squares to the edges that agree with the last fit (all of them at first, then the closest share).
  let use = points;
  let fit = { x: [0, 0, 0], y: [0, 0, 0] };
  for (let round = 0; round < 4; round++) {
    const x = solve3(use.filter((p) => p.vertical));
    const y = solve3(use.filter((p) => !p.vertical));
    if (!x || !y) return undefined;
    fit = { x, y };
    const residual = (p: (typeof points)[number]) => {
      const c = p.vertical ? fit.x : fit.y;
      return Math.abs(p.moved - (c[0]! + c[1]! * p.u + c[2]! * p.v));
    };
    const sorted = points.map(residual).sort((a, b) => a - b);
    const cut = Math.max(AGREE, sorted[Math.floor(MIN_AGREE * sorted.length)]!);
    use = points.filter((p) => residual(p) <= cut);
  }
  const agree = points.filter((p) => {
    const c = p.vertical ? fit.x : fit.y;
    return Math.abs(p.moved - (c[0]! + c[1]! * p.u + c[2]! * p.v)) <= AGREE;
  }).length;
  if (agree < MIN_AGREE * points.length) return undefined;
  let farthest = 0;
  for (const [u, v] of [
    [0, 0],
    [15, 0],
    [15, 15],
    [0, 15],
  ] as const) {
    const dx = fit.x[0]! + fit.x[1]! * u + fit.x[2]! * v;
    const dy = fit.y[0]! + fit.y[1]! * u + fit.y[2]! * v;
    farthest = Math.max(farthest, Math.hypot(dx, dy));
  }
  return farthest;
}

/** Least squares of moved ≈ a + b·u + c·v; undefined when the points do not determine it. */
function solve3(points: readonly { u: number; v: number; moved: number }[]): number[] | undefined {
  if (points.length < 6) return undefined;
  // Normal equations, 3×3, solved by Cramer's rule.
  let [n, su, sv, suu, suv, svv, sm, sum, svm] = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const { u, v, moved } of points) {
    n++;
    su += u;
    sv += v;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    sm += moved;
    sum += u * moved;
    svm += v * moved;
  }
  const det = (m: number[]) =>
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) -
    m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) +
    m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  const A = [n, su, sv, su, suu, suv, sv, suv, svv];
  const D = det(A);
  if (Math.abs(D) < 1e-9) return undefined;
  const a = det([sm, su, sv, sum, suu, suv, svm, suv, svv]) / D;
  const b = det([n, sm, sv, su, sum, suv, sv, svm, svv]) / D;
  const c = det([n, su, sm, su, suu, sum, sv, suv, svm]) / D;
  return [a, b, c];
}
