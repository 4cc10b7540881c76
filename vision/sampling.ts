/**
 * A steady camera's cheap look at a frame (camera.ts): a few grey samples of every square on the last grid, and
 * which squares changed from the reference's samples, or whether the whole board moved by whole squares.
 */
import { gridHomography } from './homography.ts';
import type { Corners } from './types.ts';

/** Sample points per square, on each axis, inside its inner part (the grid lines and tile edges left out). */
export const SAMPLES = 5;
const INNER = 0.6;
/** A square whose samples moved by more than this (mean absolute difference in grey levels) has changed. */
export const CHANGED = 14;
/** Samples per square. */
export const PER = SAMPLES * SAMPLES;
/**
 * A board that looks more like the reference moved by whole squares (up to WHOLE_REACH of them, with at least
 * WHOLE_OVERLAP squares to compare) than in place has moved so. On the real German photos (standardised samples,
 * the mean difference over the squares compared against the mean difference in place), boards that stayed with more
 * than 40 squares changed compared at 1.15 or more; boards moved by whole squares (1 to 7, with and without 8 moves
 * taken back), at most 0.92.
 */
const WHOLE_SQUARES = 1;
const WHOLE_REACH = 7;
const WHOLE_OVERLAP = 120;

/**
 * Grey samples of every square: `SAMPLES`² points spread over its inner part, mapped onto the photo through the
 * grid's homography (nearest pixel), row-major squares as seen in the photo.
 */
export function sampleSquares(
  photo: { width: number; height: number; data: Uint8Array },
  corners: Corners,
): Float32Array {
  const h = gridHomography(corners);
  const out = new Float32Array(225 * PER);
  const { width, height, data } = photo;
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      for (let j = 0; j < SAMPLES; j++) {
        const v = r + (1 - INNER) / 2 + (INNER * (j + 0.5)) / SAMPLES;
        for (let i = 0; i < SAMPLES; i++) {
          const u = c + (1 - INNER) / 2 + (INNER * (i + 0.5)) / SAMPLES;
          const w = h[6]! * u + h[7]! * v + h[8]!;
          const x = Math.round((h[0]! * u + h[1]! * v + h[2]!) / w);
          const y = Math.round((h[3]! * u + h[4]! * v + h[5]!) / w);
          const px = (Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 3;
          out[(r * 15 + c) * PER + j * SAMPLES + i] =
            0.299 * data[px]! + 0.587 * data[px + 1]! + 0.114 * data[px + 2]!;
        }
      }
    }
  }
  return out;
}

/**
 * Whether the squares now look as the reference's did one to seven whole squares away, more than as they did in
 * place: the board (or the camera) moved by whole squares. Its lines cannot tell that (each then stands on
 * another); the premium squares' colours, when the grid is looked for again, can.
 */
export function movedWholeSquares(reference: Float32Array, samples: Float32Array): boolean {
  // Each frame's samples as differences from their mean, in their spread: the light may have changed too.
  const [was, now] = [standardised(reference), standardised(samples)];
  const apart = (dr: number, dc: number) => {
    let sum = 0;
    let n = 0;
    for (let r = Math.max(0, -dr); r < Math.min(15, 15 - dr); r++) {
      for (let c = Math.max(0, -dc); c < Math.min(15, 15 - dc); c++) {
        const at = (r * 15 + c) * PER;
        const before = ((r + dr) * 15 + c + dc) * PER;
        for (let k = 0; k < PER; k++) sum += Math.abs(now[at + k]! - was[before + k]!);
        n += PER;
      }
    }
    return sum / n;
  };
  const inPlace = apart(0, 0);
  for (let dr = -WHOLE_REACH; dr <= WHOLE_REACH; dr++)
    for (let dc = -WHOLE_REACH; dc <= WHOLE_REACH; dc++) {
      // A shift leaving too few squares to compare says nothing (a corner of plain squares matches anything plain).
      if ((!dr && !dc) || (15 - Math.abs(dr)) * (15 - Math.abs(dc)) < WHOLE_OVERLAP) continue;
      if (apart(dr, dc) < WHOLE_SQUARES * inPlace) return true;
    }
  return false;
}

/**
 * How unlike the reference's the squares look now, whatever the light: the mean absolute difference of the two sets
 * of samples, each less its mean and over its spread (a change of light or exposure moves them all alike).
 */
export function lookApart(reference: Float32Array, samples: Float32Array): number {
  const [was, now] = [standardised(reference), standardised(samples)];
  let sum = 0;
  for (let k = 0; k < was.length; k++) sum += Math.abs(now[k]! - was[k]!);
  return sum / was.length;
}

/** `values` less their mean, over their standard deviation. */
function standardised(values: Float32Array): Float32Array {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let spread = 0;
  for (const v of values) spread += (v - mean) ** 2;
  const sd = Math.sqrt(spread / values.length) || 1;
  return values.map((v) => (v - mean) / sd);
}

/** The mean absolute difference of square `cell`'s samples from the reference's, as the reference looks with its grey
 *  levels g seen as gain × g + offset (a change of light: light.ts). */
export function difference(
  reference: Float32Array,
  samples: Float32Array,
  cell: number,
  gain = 1,
  offset = 0,
): number {
  let sum = 0;
  for (let k = cell * PER; k < (cell + 1) * PER; k++)
    sum += Math.abs(samples[k]! - (gain * reference[k]! + offset));
  return sum / PER;
}

/** The squares whose samples differ from the reference's by more than `CHANGED` on average. */
export function changedSquares(reference: Float32Array, samples: Float32Array): number[] {
  const out: number[] = [];
  for (let cell = 0; cell < 225; cell++) if (difference(reference, samples, cell) > CHANGED) out.push(cell);
  return out;
}
