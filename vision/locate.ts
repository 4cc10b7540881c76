/**
 * Finds the 15×15 playing grid in a photo, with no markers and no clicks: candidate board outlines from edges,
 * each straightened and searched for the 16 equally spaced lines of a grid (boards have borders of different
 * widths, so the grid is found inside the outline, not assumed to be it), then the grid lines are refined band by
 * band and a homography is fitted to them. Knows nothing of letters.
 */
import { type CV, type Mat, opencv, withMats } from './cv.ts';
import type { Corners, Point } from './types.ts';

/** Work size: the photo is scaled so its longer side is this many pixels for refining the grid. */
const WORK = 640;
/** Black border added around the work image, as a fraction of its longer side. */
const PAD = 0.03;
/** The candidate search runs at half the work size. */
const SEARCH = 0.5;
/** Straightened candidate size in pixels. */
const SIDE = 300;

export interface Located {
  readonly corners: Corners;
  /** How grid-like the best candidate was: the contrast of its lines against the cell middles. */
  readonly score: number;
  /** Share of the grid's line segments (16 lines × 6 bands, both ways) that stand out where the grid puts them. */
  readonly support: number;
}

/**
 * The photo at work size in colour and grayscale, framed by a black border, and the factor from original to work
 * pixels. The border gives a grid that runs to the edge of the picture (a photo already cut to the grid) a line
 * to be found at its edge.
 */
function workImages(
  cv: CV,
  rgb: { width: number; height: number; data: Uint8Array },
  track: (m: Mat) => Mat,
) {
  const src = track(new cv.Mat(rgb.height, rgb.width, cv.CV_8UC3));
  src.data.set(rgb.data);
  const scale = Math.min(1, WORK / Math.max(rgb.width, rgb.height));
  let sized = src;
  if (scale < 1) {
    sized = track(new cv.Mat());
    const size = new cv.Size(Math.round(rgb.width * scale), Math.round(rgb.height * scale));
    cv.resize(src, sized, size, 0, 0, cv.INTER_AREA);
  }
  const pad = Math.round(PAD * Math.max(sized.cols, sized.rows));
  const colour = track(new cv.Mat());
  cv.copyMakeBorder(sized, colour, pad, pad, pad, pad, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 255));
  const gray = track(new cv.Mat());
  cv.cvtColor(colour, gray, cv.COLOR_RGB2GRAY);
  return { colour, gray, scale, pad };
}

export function locateBoard(rgb: { width: number; height: number; data: Uint8Array }): Located | undefined {
  const { cv } = opencv();
  return withMats((track) => {
    const { colour, gray, scale, pad } = workImages(cv, rgb, track);
    const small = track(new cv.Mat());
    cv.resize(
      gray,
      small,
      new cv.Size(Math.round(gray.cols * SEARCH), Math.round(gray.rows * SEARCH)),
      0,
      0,
      cv.INTER_AREA,
    );
    const quads = candidateQuads(cv, small, track);
    let best: { grid: Point[]; score: number } | undefined;
    for (const quad of quads) {
      const found = gridInQuad(cv, small, quad, track);
      if (found && (!best || found.score > best.score)) best = found;
    }
    if (!best) return undefined;
    let grid = best.grid.map(([x, y]) => [x / SEARCH, y / SEARCH] as Point);
    let support = 0;
    const refine = () => {
      const refined = refineGrid(cv, gray, grid, track);
      support = refined.support;
      if (refined.grid) grid = refined.grid;
    };
    for (let pass = 0; pass < 2; pass++) refine();
    const shifted = symmetricShift(cv, colour, grid, track);
    if (shifted !== grid) {
      grid = shifted;
      for (let pass = 0; pass < 2; pass++) refine();
    }
    const corners = grid.map(
      ([x, y]) => [(x - pad) / scale, (y - pad) / scale] as const,
    ) as unknown as Corners;
    return { corners, score: best.score, support };
  });
}

/**
 * Line searches can settle one cell off (a border line taken for the first grid line). The premium squares are
 * laid out with the symmetries of the square, so of the grid and its eight neighbours one cell away, the right
 * one is where the squares' colours agree best with their mirror images.
 */
function symmetricShift(cv: CV, colour: Mat, grid: Point[], track: (m: Mat) => Mat): Point[] {
  const px = 12;
  const n = 17; // cells -1..15 around the grid
  const lattice = track(
    cv.getPerspectiveTransform(pointsMat(cv, square(15), track), pointsMat(cv, grid, track)),
  );
  const at = (x: number, y: number) => apply(lattice, [x, y]);
  const from: Point[] = [at(-1, -1), at(16, -1), at(16, 16), at(-1, 16)];
  const H = track(
    cv.getPerspectiveTransform(pointsMat(cv, from, track), pointsMat(cv, square(n * px), track)),
  );
  const warped = track(new cv.Mat());
  cv.warpPerspective(colour, warped, H, new cv.Size(n * px, n * px), cv.INTER_AREA, cv.BORDER_REPLICATE);
  const data = warped.data as Uint8Array;
  const means: number[][] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const m = [0, 0, 0];
      let k = 0;
      for (let y = r * px + px / 4; y < (r + 1) * px - px / 4; y++) {
        for (let x = c * px + px / 4; x < (c + 1) * px - px / 4; x++) {
          const o = (y * n * px + x) * 3;
          m[0]! += data[o]!;
          m[1]! += data[o + 1]!;
          m[2]! += data[o + 2]!;
          k++;
        }
      }
      means.push(m.map((v) => v / k));
    }
  }
  const asymmetry = (dx: number, dy: number) => {
    const cell = (r: number, c: number) => means[(r + 1 + dy) * n + (c + 1 + dx)]!;
    let diff = 0;
    let spread = 0;
    const avg = [0, 0, 0];
    for (let r = 0; r < 15; r++)
      for (let c = 0; c < 15; c++) for (let i = 0; i < 3; i++) avg[i]! += cell(r, c)[i]! / 225;
    for (let r = 0; r < 15; r++) {
      for (let c = 0; c < 15; c++) {
        const a = cell(r, c);
        for (let i = 0; i < 3; i++) spread += (a[i]! - avg[i]!) ** 2;
        for (const [rr, cc] of [
          [c, r],
          [14 - r, c],
          [r, 14 - c],
        ]) {
          const b = cell(rr!, cc!);
          for (let i = 0; i < 3; i++) diff += (a[i]! - b[i]!) ** 2;
        }
      }
    }
    return diff / 3 / Math.max(spread, 1e-6);
  };
  let best = { dx: 0, dy: 0, score: asymmetry(0, 0) };
  const centre = best.score;
  for (const dy of [-1, 0, 1]) {
    for (const dx of [-1, 0, 1]) {
      const s = asymmetry(dx, dy);
      if (s < best.score) best = { dx, dy, score: s };
    }
  }
  if ((best.dx === 0 && best.dy === 0) || best.score > 0.6 * centre) return grid;
  return [
    at(best.dx, best.dy),
    at(15 + best.dx, best.dy),
    at(15 + best.dx, 15 + best.dy),
    at(best.dx, 15 + best.dy),
  ];
}

/** Outlines that may be the board: 4-cornered hulls of large edge regions, their bounding boxes, and the frame. */
function candidateQuads(cv: CV, gray: Mat, track: (m: Mat) => Mat): Point[][] {
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
  for (const [lo, hi] of [
    [30, 90],
    [60, 180],
  ] as const) {
    const edges = track(new cv.Mat());
    cv.Canny(blurred, edges, lo, hi);
    const kernel = track(cv.Mat.ones(5, 5, cv.CV_8U));
    cv.dilate(edges, edges, kernel);
    const contours = track(new cv.MatVector());
    const hierarchy = track(new cv.Mat());
    cv.findContours(edges, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
    for (let i = 0; i < contours.size(); i++) {
      const c = contours.get(i);
      const hull = new cv.Mat();
      cv.convexHull(c, hull);
      const area = cv.contourArea(hull);
      if (area >= 0.12 * w * h) {
        const approx = new cv.Mat();
        const peri = cv.arcLength(hull, true);
        for (const eps of [0.02, 0.04, 0.06]) {
          cv.approxPolyDP(hull, approx, eps * peri, true);
          if (approx.rows === 4) {
            quads.push(
              orderCorners(
                Array.from(
                  { length: 4 },
                  (_, k) => [approx.data32S[2 * k], approx.data32S[2 * k + 1]] as Point,
                ),
              ),
            );
            break;
          }
        }
        approx.delete();
        const rect = cv.minAreaRect(hull);
        const pts = cv.RotatedRect.points(rect) as { x: number; y: number }[];
        quads.push(orderCorners(pts.map((p) => [p.x, p.y] as Point)));
      }
      hull.delete();
      c.delete();
    }
  }
  return dedupe(quads);
}

/** Straightens `quad` and searches it for the grid's 16 lines along each axis. */
function gridInQuad(
  cv: CV,
  gray: Mat,
  quad: Point[],
  track: (m: Mat) => Mat,
): { grid: Point[]; score: number } | undefined {
  // The outline maps a little inside the straightened square, so that lines on the outline itself can be seen.
  const inset = Math.round(SIDE * 0.03);
  const target = square(SIDE - 2 * inset).map(([x, y]) => [x + inset, y + inset] as Point);
  const H = track(cv.getPerspectiveTransform(pointsMat(cv, quad, track), pointsMat(cv, target, track)));
  const warped = track(new cv.Mat());
  cv.warpPerspective(gray, warped, H, new cv.Size(SIDE, SIDE), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
  const { vx, vy } = lineProfiles(cv, warped, track);
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
  // Squares seen from up to ~50° off vertical: the grid's sides in the photo keep a sane aspect.
  const side = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const [tl, tr, br, bl] = grid as [Point, Point, Point, Point];
  const aspect = (side(tl, tr) + side(bl, br)) / (side(tl, bl) + side(tr, br));
  if (aspect < 0.55 || aspect > 1.8) return undefined;
  return { grid, score: Math.min(fx.score, fy.score) };
}

/** Sums of gradient magnitude across the straightened image: peaks where grid lines (and tile edges) run. */
function lineProfiles(cv: CV, img: Mat, track: (m: Mat) => Mat): { vx: Float64Array; vy: Float64Array } {
  const gx = track(new cv.Mat());
  const gy = track(new cv.Mat());
  cv.Sobel(img, gx, cv.CV_32F, 1, 0, 3);
  cv.Sobel(img, gy, cv.CV_32F, 0, 1, 3);
  const n = img.cols;
  const m = img.rows;
  const vx = new Float64Array(n);
  const vy = new Float64Array(m);
  const dx = gx.data32F as Float32Array;
  const dy = gy.data32F as Float32Array;
  for (let y = 0; y < m; y++) {
    for (let x = 0; x < n; x++) {
      vx[x]! += Math.abs(dx[y * n + x]!);
      vy[y]! += Math.abs(dy[y * n + x]!);
    }
  }
  return { vx: smooth(vx), vy: smooth(vy) };
}

function smooth(v: Float64Array): Float64Array {
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

function sample(v: Float64Array, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = v[Math.max(0, Math.min(v.length - 1, i))]!;
  const b = v[Math.max(0, Math.min(v.length - 1, i + 1))]!;
  return a + (b - a) * f;
}

/**
 * The 16 equally spaced lines that stand out most from the cell middles between them: the period ranges from the
 * full width (the outline is the grid) to 15/22 of it (a wide border or a side panel), the offset anywhere that keeps the grid in.
 */
function bestComb(profile: Float64Array): { period: number; offset: number; score: number } | undefined {
  const n = profile.length;
  // One very strong edge (the picture's frame, a table edge) must not outweigh fifteen grid lines: clip the
  // profile at three times its median before comparing lines with cell middles.
  const median = [...profile].sort((a, b) => a - b)[Math.floor(n / 2)]!;
  const v = profile.map((x) => Math.min(x, 3 * median));
  let mean = 0;
  for (const x of v) mean += x;
  mean /= n;
  if (mean <= 0) return undefined;
  const score = (period: number, offset: number) => {
    let lines = 0;
    let middles = 0;
    for (let k = 0; k <= 15; k++) lines += sample(v, offset + k * period);
    for (let k = 0; k < 15; k++) middles += sample(v, offset + (k + 0.5) * period);
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

/**
 * Re-straightens around the current grid estimate with a cell of margin, finds each of the 16 lines per axis in
 * five bands, fits a straight line to each, intersects the two families, and fits a homography from the ideal
 * lattice to the intersections. A correction that moves a corner by more than half a cell is not trusted.
 */
function refineGrid(
  cv: CV,
  gray: Mat,
  grid: Point[],
  track: (m: Mat) => Mat,
): { grid?: Point[]; support: number } {
  const cell = 28;
  const margin = cell;
  const size = 15 * cell + 2 * margin;
  const ideal = square(15 * cell).map(([x, y]) => [x + margin, y + margin] as Point);
  const H = track(cv.getPerspectiveTransform(pointsMat(cv, grid, track), pointsMat(cv, ideal, track)));
  const warped = track(new cv.Mat());
  cv.warpPerspective(gray, warped, H, new cv.Size(size, size), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
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
    const profile = new Float64Array(2 * search + 1);
    for (let d = -search; d <= search; d++) {
      let s = 0;
      for (let t = from; t < to; t++) {
        s += vertical ? Math.abs(dx[t * size + lineAt + d]!) : Math.abs(dy[(lineAt + d) * size + t]!);
      }
      profile[d + search] = s;
    }
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
  const moved = ideal.map((p) => apply(correction, p));
  if (moved.some((p, i) => Math.hypot(p[0] - ideal[i]![0], p[1] - ideal[i]![1]) > cell / 2))
    return { support };
  const Hinv = track(new cv.Mat());
  cv.invert(H, Hinv);
  return { grid: moved.map((p) => apply(Hinv, p)), support };
}

function square(side: number): Point[] {
  return [
    [0, 0],
    [side, 0],
    [side, side],
    [0, side],
  ];
}

function pointsMat(cv: CV, pts: readonly Point[], track: (m: Mat) => Mat): Mat {
  return track(cv.matFromArray(4, 1, cv.CV_32FC2, pts.flat()));
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

function dedupe(quads: Point[][]): Point[][] {
  const out: Point[][] = [];
  for (const q of quads) {
    if (!out.some((o) => o.every((p, i) => Math.hypot(p[0] - q[i]![0], p[1] - q[i]![1]) < 6))) out.push(q);
  }
  return out;
}
