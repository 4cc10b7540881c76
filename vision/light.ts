/**
 * A change of the light over the board between two frames of a steady camera (camera.ts): fitted to the squares'
 * grey samples (sampling.ts), so that a lamp, a cloud or the camera's exposure does not make every square be read
 * again.
 */
import { CHANGED, difference, PER } from './sampling.ts';

/**
 * A change of the light over the board (a lamp, a cloud, the camera's exposure): a grey level g on a square now looks
 * as gain × g + offset, the gain and the offset the same everywhere or each changing evenly across the board (one
 * side lit more than the other: a lamp to one side, a window).
 */
export interface Light {
  readonly gain: Plane;
  readonly offset: Plane;
}
/** A value over the board: at its centre square, then how much more on the last column's squares, and on the last
 *  row's (the grid as it lies in the photo, not the upright board). */
type Plane = readonly [centre: number, right: number, bottom: number];

/** Where square `cell` is across the board: -1 at the first column (row), 1 at the last. */
function across(cell: number): [u: number, v: number] {
  return [((cell % 15) - 7) / 7, (Math.floor(cell / 15) - 7) / 7];
}

/** The gain and the offset of `light` on square `cell`. */
function lightAt({ gain, offset }: Light, cell: number): [gain: number, offset: number] {
  const [u, v] = across(cell);
  return [gain[0] + gain[1] * u + gain[2] * v, offset[0] + offset[1] * u + offset[2] * v];
}

/** The squares a change of light is fitted to: those it explains best, as many as a board with a few moves made
 *  keeps unchanged. */
const LIGHT_KEEP = 160;
const LIGHT_ROUNDS = 4;
/** A fitted gain outside this range is no change of light (a board covered, another picture). */
const LIGHT_GAIN: readonly [number, number] = [0.5, 2];
/**
 * The light is taken to have changed as fitted only when nine in ten of the squares it was fitted to differ from it by
 * no more than this (grey levels, on average over a square's samples): a light the fit only comes near (a tone
 * curve, a white balance) would leave real changes under `CHANGED`.
 */
const LIGHT_FIT = CHANGED / 3;
/** A square that changed as first compared is left unread only when it differs by less than this in the light. */
const LIGHT_EXPLAINS = CHANGED / 2;

/**
 * How the light may have changed between the reference and the samples, as one change over the board: the squares'
 * mean grey levels fitted by least squares, again and again over the `LIGHT_KEEP` squares the fit explains best (the
 * squares that really changed, a hand or new tiles, left out), first with one gain and offset for the whole board,
 * then, from there, with each changing evenly across it. Each fit is kept only if it explains those squares closely,
 * sample by sample (`LIGHT_FIT`), with a gain between `LIGHT_GAIN`'s bounds on every corner square: either, both or
 * neither.
 */
export function lightChanges(
  reference: Float32Array,
  samples: Float32Array,
): [even: Light | undefined, uneven: Light | undefined] {
  const was = new Float64Array(225);
  const now = new Float64Array(225);
  for (let cell = 0; cell < 225; cell++) {
    let a = 0;
    let b = 0;
    for (let k = cell * PER; k < (cell + 1) * PER; k++) {
      a += reference[k]!;
      b += samples[k]!;
    }
    was[cell] = a / PER;
    now[cell] = b / PER;
  }
  const all = Array.from({ length: 225 }, (_, cell) => cell);
  /** The squares the light explains best, as it is fitted so far. */
  const best = (light: Light) => {
    const misfit = new Float64Array(225);
    for (const cell of all) {
      const [gain, offset] = lightAt(light, cell);
      misfit[cell] = Math.abs(now[cell]! - (gain * was[cell]! + offset));
    }
    return [...all].sort((p, q) => misfit[p]! - misfit[q]!).slice(0, LIGHT_KEEP);
  };
  /** Whether it explains the squares it was fitted to closely, and is a change of light at all. */
  const holds = (light: Light, kept: readonly number[]) => {
    for (const cell of [0, 14, 210, 224]) {
      const gain = lightAt(light, cell)[0];
      if (!(gain >= LIGHT_GAIN[0] && gain <= LIGHT_GAIN[1])) return false;
    }
    const misfits = kept
      .map((cell) => difference(reference, samples, cell, ...lightAt(light, cell)))
      .sort((p, q) => p - q);
    return misfits[Math.floor(0.9 * misfits.length)]! <= LIGHT_FIT;
  };
  // One gain and offset for the board.
  let kept = all;
  let light: Light | undefined;
  for (let round = 0; round < LIGHT_ROUNDS; round++) {
    if (light) kept = best(light);
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (const cell of kept) {
      sx += was[cell]!;
      sy += now[cell]!;
      sxx += was[cell]! ** 2;
      sxy += was[cell]! * now[cell]!;
    }
    const n = kept.length;
    const spread = n * sxx - sx * sx;
    // A board of one grey says nothing of a gain.
    if (spread < n * n) return [undefined, undefined];
    const gain = (n * sxy - sx * sy) / spread;
    light = { gain: [gain, 0, 0], offset: [(sy - gain * sx) / n, 0, 0] };
  }
  const even = light!;
  const evenKept = kept;
  // Each changing evenly across the board, from there.
  let uneven: Light | undefined = even;
  for (let round = 0; round < LIGHT_ROUNDS && uneven; round++) {
    kept = best(uneven);
    const fit = leastSquares(
      kept,
      (cell) => {
        const [u, v] = across(cell);
        const g = was[cell]!;
        return [g, g * u, g * v, 1, u, v];
      },
      now,
    );
    uneven = fit && { gain: [fit[0]!, fit[1]!, fit[2]!], offset: [fit[3]!, fit[4]!, fit[5]!] };
  }
  return [holds(even, evenKept) ? even : undefined, uneven && holds(uneven, kept) ? uneven : undefined];
}

/** The light changing across the board is taken instead of one change over it only when it leaves at most this
 *  share of the squares that one leaves changed: with three times the terms, it explains more of anything. */
const UNEVEN_GAIN = 0.5;

/**
 * The squares that changed as compared in the new light (`changedInLight`), and the light (`lightChanges`): one
 * change over the whole board where it holds, unless one that changes across the board holds and leaves far fewer
 * (`UNEVEN_GAIN`); undefined when no change of light explains the board.
 */
export function inNewLight(
  reference: Float32Array,
  samples: Float32Array,
  changed: readonly number[],
): { light: Light; squares: number[] } | undefined {
  const [even, uneven] = lightChanges(reference, samples);
  const lit = (light: Light | undefined) =>
    light && { light, squares: changedInLight(reference, samples, light, changed) };
  const [first, second] = [lit(even), lit(uneven)];
  if (!first || !second) return first ?? second;
  return second.squares.length <= UNEVEN_GAIN * first.squares.length ? second : first;
}

/**
 * The least-squares solution x of row(cell)·x = target[cell] over `cells`, by the normal equations (a few unknowns),
 * or undefined when the rows barely tell them apart (a pivot under a billionth of the largest diagonal term: a
 * conditioning cut-off; a fit that comes out poorly anyway is refused by `lightChanges`' check).
 */
function leastSquares(
  cells: readonly number[],
  row: (cell: number) => readonly number[],
  target: Float64Array,
): number[] | undefined {
  const n = row(cells[0]!).length;
  // [AᵀA | Aᵀb], then Gauss–Jordan with partial pivoting.
  const m = Array.from({ length: n }, () => new Float64Array(n + 1));
  let scale = 0;
  for (const cell of cells) {
    const a = row(cell);
    for (let i = 0; i < n; i++) {
      m[i]![n]! += a[i]! * target[cell]!;
      for (let j = 0; j < n; j++) m[i]![j]! += a[i]! * a[j]!;
    }
  }
  for (let i = 0; i < n; i++) scale = Math.max(scale, m[i]![i]!);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let j = i + 1; j < n; j++) if (Math.abs(m[j]![i]!) > Math.abs(m[p]![i]!)) p = j;
    [m[i], m[p]] = [m[p]!, m[i]!];
    const pivot = m[i]![i]!;
    // Rows that barely tell the unknowns apart.
    if (!(Math.abs(pivot) > 1e-9 * scale)) return undefined;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const f = m[j]![i]! / pivot;
      for (let k = i; k <= n; k++) m[j]![k]! -= f * m[i]![k]!;
    }
  }
  return Array.from({ length: n }, (_, i) => m[i]![n]! / m[i]![i]!);
}

/** The reference as it looks in `light`. */
export function relight(reference: Float32Array, light: Light): void {
  for (let cell = 0; cell < 225; cell++) {
    const [gain, offset] = lightAt(light, cell);
    for (let k = cell * PER; k < (cell + 1) * PER; k++) reference[k] = gain * reference[k]! + offset;
  }
}

/**
 * The squares that changed, compared in `light`: those that differ by more than `CHANGED` from the reference as it
 * looks in that light, and, of those that had changed as first compared (`changed`), every one the light does not
 * explain well (a difference in it over `LIGHT_EXPLAINS`): a tile whose grey the fit comes near is still read.
 */
export function changedInLight(
  reference: Float32Array,
  samples: Float32Array,
  light: Light,
  changed: readonly number[],
): number[] {
  const before = new Set(changed);
  const out: number[] = [];
  for (let cell = 0; cell < 225; cell++) {
    const d = difference(reference, samples, cell, ...lightAt(light, cell));
    if (d > CHANGED || (before.has(cell) && d > LIGHT_EXPLAINS)) out.push(cell);
  }
  return out;
}
