/**
 * Perspective resampling in plain TypeScript, pixel for pixel what OpenCV's warpPerspective draws with INTER_LINEAR
 * and BORDER_REPLICATE: each output pixel's source point, computed in doubles as OpenCV computes it (rows of blocks
 * 64 pixels wide), is rounded to a 32nd of a pixel, and the four pixels around it are weighed in fixed point. The
 * locator straightens the photo a dozen times a search and the reader once a frame; OpenCV's wasm build (no SIMD)
 * takes longer for the same pixels (300×300 grey: 1.9 ms against 1.2; the 680×680 colour board: 13.3 against 10.9,
 * when this was written). Spans inside the source drawn without edge tests took those to 1.0 and 10.2 ms, from 1.39
 * and 11.8 on a later day. Identical output keeps every grid
 * and every reading as they were (the German and warped sets' evals, and the raw photos' grids, checked unchanged).
 * Pure: no OpenCV.
 */

/** Interleaved 8-bit pixels: 1 channel (grey) or 3 (RGB). */
export interface Raster {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/**
 * `data` as a plain Uint8Array over the same memory. Pixels come as Node Buffers (sharp), as views of OpenCV's wasm
 * memory, and as plain arrays; one kind of array keeps the inner loop's loads of one kind (V8 optimises a loop for
 * the kinds it has seen). Not measured on its own: the speed-up measured came with it and the integer rounding.
 */
export function plain(data: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(data) === Uint8Array.prototype
    ? data
    : new Uint8Array(data.buffer, data.byteOffset, data.length);
}

/** A pixel is split into this many steps each way (OpenCV's INTER_TAB_SIZE). */
const STEPS = 32;
/**
 * How many output pixels wide OpenCV's blocks are, for an output of `width`×`height`: warpPerspective works in
 * blocks of up to 16 rows and 1024 pixels (BLOCK_SZ 32), and computes each row's terms anew at each block's start.
 */
export function blockWidth(width: number, height: number): number {
  return Math.max(1, Math.min(Math.floor(1024 / Math.max(1, Math.min(16, height))), width));
}

/** Added and taken away again, it rounds a double to an integer as lrint does (halves to even): cvRound's rounding. */
const ROUND = 6755399441055744;

/**
 * Draws row `y`, columns `x0`…`x1 - 1`, of an output `outWidth` pixels wide into `out`, each pixel (x, y) sampled at
 * the source point `toSource`·(x, y, 1) (a 3×3 homography, row-major). `channels` as in both images, both of them
 * plain Uint8Arrays (`plain`), the source checked (`checkSource`). `block`: `blockWidth` of the whole output.
 */
export function resampleSpan(
  src: Source,
  channels: 1 | 3,
  toSource: ArrayLike<number>,
  out: Uint8Array,
  outWidth: number,
  y: number,
  x0: number,
  x1: number,
  block: number,
): void {
  const { width: sw, height: sh, data, words } = src;
  const m0 = toSource[0]!;
  const m1 = toSource[1]!;
  const m2 = toSource[2]!;
  const m3 = toSource[3]!;
  const m4 = toSource[4]!;
  const m5 = toSource[5]!;
  const m6 = toSource[6]!;
  const m7 = toSource[7]!;
  const m8 = toSource[8]!;
  const row = sw * channels;
  const lastX = sw - 1;
  const lastY = sh - 1;
  let o = (y * outWidth + x0) * channels;
  for (let x = x0; x < x1; ) {
    // As OpenCV: the row's terms at the block's first pixel, then each pixel's offset from it.
    const start = x - (x % block);
    const end = Math.min(x1, start + block);
    const X0 = m0 * start + m1 * y + m2;
    const Y0 = m3 * start + m4 * y + m5;
    const W0 = m6 * start + m7 * y + m8;
    // Along a row the source points run monotonically from the span's first pixel's to its last's (a homography
    // maps a line to a line, and its denominator, linear along the row, keeps its sign between two points of the same
    // sign). When both ends lie a pixel inside the source, every pixel between them has its four neighbours inside:
    // drawn with no clamp and no test (28% less time for the locator's grey straightenings, 14% for the board's
    // colour; the pixels are the same).
    const k0 = x - start;
    const k1 = end - 1 - start;
    const wa = W0 + m6 * k0;
    const wb = W0 + m6 * k1;
    if ((wa > 0 && wb > 0) || (wa < 0 && wb < 0)) {
      const xa = (X0 + m0 * k0) * (STEPS / wa);
      const ya = (Y0 + m3 * k0) * (STEPS / wa);
      const xb = (X0 + m0 * k1) * (STEPS / wb);
      const yb = (Y0 + m3 * k1) * (STEPS / wb);
      // A pixel in from each edge, in 32nds: rounding cannot take a point between the two ends past the edge.
      const lo = STEPS;
      const hx = (lastX - 1) * STEPS;
      const hy = (lastY - 1) * STEPS;
      if (xa >= lo && xb >= lo && ya >= lo && yb >= lo && xa < hx && xb < hx && ya < hy && yb < hy) {
        for (; x < end; x++) {
          const k = x - start;
          const w = STEPS / (W0 + m6 * k);
          const X = ((X0 + m0 * k) * w + ROUND - ROUND) | 0;
          const Y = ((Y0 + m3 * k) * w + ROUND - ROUND) | 0;
          const ax = X & 31;
          const ay = Y & 31;
          const bx = STEPS - ax;
          const by = STEPS - ay;
          const w00 = bx * by;
          const w01 = ax * by;
          const w10 = bx * ay;
          const w11 = ax * ay;
          const p = (Y >> 5) * row + (X >> 5) * channels;
          const q = p + row;
          if (channels === 1) {
            out[o++] =
              (data[p]! * w00 + data[p + 1]! * w01 + data[q]! * w10 + data[q + 1]! * w11 + 512) >> 10;
          } else {
            // The two pixels of each row, six bytes, in two loads (a 32-bit and a 16-bit, little-endian): red,
            // green, blue, red; green, blue. A sixth less time for the board than twelve byte loads, the same values.
            const a = words.getUint32(p, true);
            const b = words.getUint16(p + 4, true);
            const c = words.getUint32(q, true);
            const d = words.getUint16(q + 4, true);
            out[o] = ((a & 255) * w00 + (a >>> 24) * w01 + (c & 255) * w10 + (c >>> 24) * w11 + 512) >> 10;
            out[o + 1] =
              (((a >>> 8) & 255) * w00 + (b & 255) * w01 + ((c >>> 8) & 255) * w10 + (d & 255) * w11 + 512) >>
              10;
            out[o + 2] =
              (((a >>> 16) & 255) * w00 +
                (b >>> 8) * w01 +
                ((c >>> 16) & 255) * w10 +
                (d >>> 8) * w11 +
                512) >>
              10;
            o += 3;
          }
        }
        continue;
      }
    }
    for (; x < end; x++) {
      const k = x - start;
      let w = W0 + m6 * k;
      // As C++ reads `W ? 32 / W : 0`: only 0 is false (NaN stays NaN).
      w = w !== 0 ? STEPS / w : 0;
      // The source point in 32nds of a pixel, clamped to the int range as OpenCV clamps it (NaN to the top), rounded.
      let fx = (X0 + m0 * k) * w;
      let fy = (Y0 + m3 * k) * w;
      if (!(fx <= 2147483647)) fx = 2147483647;
      else if (fx < -2147483648) fx = -2147483648;
      if (!(fy <= 2147483647)) fy = 2147483647;
      else if (fy < -2147483648) fy = -2147483648;
      const X = (fx + ROUND - ROUND) | 0;
      const Y = (fy + ROUND - ROUND) | 0;
      // The source pixel (its top-left neighbour) and the 32nds of a pixel beyond it.
      const sx = X >> 5;
      const sy = Y >> 5;
      const ax = X & 31;
      const ay = Y & 31;
      const bx = STEPS - ax;
      const by = STEPS - ay;
      const w00 = bx * by;
      const w01 = ax * by;
      const w10 = bx * ay;
      const w11 = ax * ay;
      let p00: number;
      let p01: number;
      let p10: number;
      let p11: number;
      if (sx >= 0 && sx < lastX && sy >= 0 && sy < lastY) {
        p00 = sy * row + sx * channels;
        p01 = p00 + channels;
        p10 = p00 + row;
        p11 = p10 + channels;
      } else {
        // Beyond the source's edge its edge pixels repeat, each neighbour clamped on its own.
        const cx0 = sx < 0 ? 0 : sx < sw ? sx : lastX;
        const cx1 = sx + 1 < 0 ? 0 : sx + 1 < sw ? sx + 1 : lastX;
        const cy0 = sy < 0 ? 0 : sy < sh ? sy : lastY;
        const cy1 = sy + 1 < 0 ? 0 : sy + 1 < sh ? sy + 1 : lastY;
        p00 = cy0 * row + cx0 * channels;
        p01 = cy0 * row + cx1 * channels;
        p10 = cy1 * row + cx0 * channels;
        p11 = cy1 * row + cx1 * channels;
      }
      // Weights summing to 32·32, each worth 32 of OpenCV's 2^15 (INTER_REMAP_COEF_SCALE): rounded as it rounds.
      if (channels === 1) {
        out[o++] = (data[p00]! * w00 + data[p01]! * w01 + data[p10]! * w10 + data[p11]! * w11 + 512) >> 10;
      } else {
        out[o] = (data[p00]! * w00 + data[p01]! * w01 + data[p10]! * w10 + data[p11]! * w11 + 512) >> 10;
        out[o + 1] =
          (data[p00 + 1]! * w00 + data[p01 + 1]! * w01 + data[p10 + 1]! * w10 + data[p11 + 1]! * w11 + 512) >>
          10;
        out[o + 2] =
          (data[p00 + 2]! * w00 + data[p01 + 2]! * w01 + data[p10 + 2]! * w10 + data[p11 + 2]! * w11 + 512) >>
          10;
        o += 3;
      }
    }
  }
}

/** A source checked (`checkSource`): its pixels as a plain Uint8Array, and a view of the same bytes for reading
 *  colour pixels two at a time (made once a picture, not once a span). */
export interface Source extends Raster {
  readonly words: DataView;
}

/**
 * `src` with its pixels as a plain Uint8Array, once it is known to hold them all: a short array would be read as
 * undefined, and drawn black without a word. Sources of 32768 pixels or more a side are refused too (OpenCV keeps
 * source coordinates in 16 bits).
 */
export function checkSource(src: Raster, channels: 1 | 3): Source {
  const { width, height, data } = src;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1))
    throw new RangeError(`resample: a source of ${width}×${height} pixels`);
  if (width >= 32768 || height >= 32768)
    throw new RangeError(`resample: a source of ${width}×${height} is too large`);
  if (data.length < width * height * channels)
    throw new RangeError(`resample: a ${width}×${height} source with ${channels} channels is too small`);
  const pixels = plain(data);
  return {
    width,
    height,
    data: pixels,
    words: new DataView(pixels.buffer, pixels.byteOffset, pixels.byteLength),
  };
}

/** The whole `width`×`height` output drawn from `src` (see resampleSpan): into `into` when given (at least that many
 *  pixels, of `channels` each), else into a new array. */
export function resample(
  src: Raster,
  channels: 1 | 3,
  toSource: ArrayLike<number>,
  width: number,
  height: number,
  into?: Uint8Array,
): Uint8Array {
  const from = checkSource(src, channels);
  if (into && into.length < width * height * channels)
    throw new RangeError(
      `resample: ${into.length} bytes for a ${width}×${height} output of ${channels} channels`,
    );
  const out = into ? plain(into) : new Uint8Array(width * height * channels);
  const block = blockWidth(width, height);
  for (let y = 0; y < height; y++) resampleSpan(from, channels, toSource, out, width, y, 0, width, block);
  return out;
}
