/**
 * Ä or A, Ö or O, Ü or U? The two letters of each pair differ only by two dots above the letter, a tenth of the
 * tile's height, and the model, which sees a square and its margin shrunk to 32×32 pixels (a dot two pixels across),
 * can stay unsure of a Ü that any person reads at a glance (the German games' first move: 0.60 Ü, 0.23 U). The dots are there to be
 * counted: the ink of the square's straightened crop, cut at a level between the glyph's ink and the tile's face,
 * falls into connected parts; the letter is the largest part in the middle, and an umlaut's dots are two small
 * parts above it, one either side of its middle. Two such dots say "the umlaut"; nothing above the letter (a pixel
 * of ink at most) says "the plain letter"; anything else (one part, three, a smudge, a letter cut off) says nothing.
 *
 * Measured on scrabscrap-de's 192 labelled photos read cold (every A, Ä, O, Ö, U and Ü on them): 234 of the 250
 * umlauts show their dots and 1,257 of the 1,378 plain letters nothing above them; no square shows the other
 * letter's sign, and none of the 8,156 other tiles shows dots; nor does any of the 3,605 tiles of the English sets'
 * labelled photos (kwwangkw-en/warped, jheidel-en), whose wood grain first did (docs/measurements.md, session 41).
 */
import { opencv, withMats } from './cv.ts';
import type { RgbImage } from './types.ts';
import { CELL, MARGIN } from './warp.ts';

/** The letters with dots, and the letter each is without them. */
export const UMLAUTS: Readonly<Record<string, string>> = { Ä: 'A', Ö: 'O', Ü: 'U' };

/** The pairs (with dots, without) whose both letters are `allowed` (all, when undefined). */
export function umlautPairs(allowed: ReadonlySet<string> | undefined): (readonly [string, string])[] {
  return Object.entries(UMLAUTS).filter(
    ([dotted, plain]) => !allowed || (allowed.has(dotted) && allowed.has(plain)),
  );
}

/** What a square shows above its letter: an umlaut's two dots, nothing, or no clear sign either way. */
export type DotsSeen = 'dots' | 'none' | undefined;

/** The crop around a square, grown by this many pixels of the straightened board on each side (a tile off its
 *  square still has its letter inside). */
const GROW = Math.round(0.15 * CELL);
/** The ink level: this far from the glyph's mean ink toward the tile face's mean (Otsu's split is half way). The
 *  dots are small and blurred lighter than the letter's strokes; at half way, a dot's blur joined the other dot or
 *  the letter (Ü 24 of 38 shown in two German games, against 36 of 38 at this level). */
const INK_LEVEL = 0.35;
/** The side of the square's middle whose pixels set the ink level (pixels of the straightened board). */
const MIDDLE = Math.round(0.6 * CELL);
/** A dot's area, as a share of the letter's: larger than print noise or a tile's corner, smaller than a letter. */
const DOT_AREA = [0.04, 0.25] as const;
/** The least difference of grey between the letter's ink and the tile's face (of 255). */
const MIN_CONTRAST = 40;
/** The ring around a dot whose pixels must show the tile's face (pixels of the straightened board). */
const RING = 2;
/** A dot is about round: its box at most this many times as wide as tall, or as tall as wide (a T's bar broken in
 *  two by a light join is not). */
const DOT_ROUND = 2.5;
/** The letter's height, as a share of a square: a letter, not a tile's edge or a speck. */
const GLYPH_HEIGHT = [0.3, 0.8] as const;

/**
 * What the square `cell` (row-major, as seen on the straightened `board`) shows above its letter, its letters turned
 * `turns` quarter turns clockwise as seen.
 */
export function umlautDots(board: RgbImage, cell: number, turns: 0 | 1 | 2 | 3): DotsSeen {
  const side = CELL + 2 * GROW;
  const [row, col] = [Math.floor(cell / 15), cell % 15];
  const x0 = MARGIN + col * CELL - GROW;
  const y0 = MARGIN + row * CELL - GROW;
  if (x0 < 0 || y0 < 0 || x0 + side > board.width || y0 + side > board.height) return undefined;
  // The crop turned upright: a pixel (x, y) of the upright crop is (side - 1 - y, x) of the crop turned once more.
  const grey = new Uint8Array(side * side);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      let [sx, sy] = [x, y];
      for (let t = 0; t < turns; t++) [sx, sy] = [side - 1 - sy, sx];
      const o = ((y0 + sy) * board.width + x0 + sx) * 3;
      grey[y * side + x] = Math.round(
        0.299 * board.data[o]! + 0.587 * board.data[o + 1]! + 0.114 * board.data[o + 2]!,
      );
    }
  const { cv } = opencv();
  return withMats((track) => {
    // The ink level, from the square's middle: glyph and tile face, little of the board.
    const middle = track(new cv.Mat(MIDDLE, MIDDLE, cv.CV_8UC1));
    const from = (side - MIDDLE) >> 1;
    for (let y = 0; y < MIDDLE; y++)
      for (let x = 0; x < MIDDLE; x++) middle.data[y * MIDDLE + x] = grey[(from + y) * side + from + x]!;
    const split = cv.threshold(middle, track(new cv.Mat()), 0, 255, cv.THRESH_BINARY + cv.THRESH_OTSU);
    let [inkSum, inkN, faceSum, faceN] = [0, 0, 0, 0];
    for (const v of middle.data as Uint8Array) {
      if (v <= split) [inkSum, inkN] = [inkSum + v, inkN + 1];
      else [faceSum, faceN] = [faceSum + v, faceN + 1];
    }
    // A letter's ink, not the shading of a blank tile's face.
    if (inkN === 0 || faceN === 0 || faceSum / faceN - inkSum / inkN < MIN_CONTRAST) return undefined;
    const level = inkSum / inkN + INK_LEVEL * (faceSum / faceN - inkSum / inkN);
    const ink = track(new cv.Mat(side, side, cv.CV_8UC1));
    for (let i = 0; i < side * side; i++) ink.data[i] = grey[i]! <= level ? 255 : 0;
    const [labels, stats, centroids] = [track(new cv.Mat()), track(new cv.Mat()), track(new cv.Mat())];
    const n = cv.connectedComponentsWithStats(ink, labels, stats, centroids, 8, cv.CV_32S);
    const parts: { x: number; y: number; w: number; h: number; area: number; cx: number; cy: number }[] = [];
    for (let k = 1; k < n; k++) {
      const [x, y, w, h, area] = [0, 1, 2, 3, 4].map((j) => stats.intAt(k, j) as number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      // A part touching the crop's edge is the board, the border or the next tile.
      if (x === 0 || y === 0 || x + w === side || y + h === side) continue;
      parts.push({ x, y, w, h, area, cx: centroids.doubleAt(k, 0), cy: centroids.doubleAt(k, 1) });
    }
    const mid = side / 2;
    const letter = parts
      .filter((p) => Math.abs(p.cx - mid) < 0.2 * CELL && Math.abs(p.cy - mid) < 0.25 * CELL)
      .sort((a, b) => b.area - a.area)[0];
    if (!letter || letter.h < GLYPH_HEIGHT[0] * CELL || letter.h > GLYPH_HEIGHT[1] * CELL) return undefined;
    const above = parts.filter(
      (p) =>
        p !== letter &&
        p.area >= DOT_AREA[0] * letter.area &&
        p.area <= DOT_AREA[1] * letter.area &&
        Math.max(p.w, p.h) <= DOT_ROUND * Math.min(p.w, p.h) &&
        p.y + p.h <= letter.y + 0.15 * letter.h &&
        p.y >= letter.y - 0.6 * letter.h &&
        p.cx >= letter.x - 0.1 * letter.w &&
        p.cx <= letter.x + 1.1 * letter.w,
    );
    // A dot is printed on the tile's face: the ring of pixels around it is the face's (not a premium square's marks
    // on the board beside a tile placed off its square: a V so, in one of the 192 photos).
    const face = faceSum / faceN;
    const onFace = (p: (typeof parts)[number]) => {
      let [sum, count] = [0, 0];
      for (let y = Math.max(0, p.y - RING); y < Math.min(side, p.y + p.h + RING); y++)
        for (let x = Math.max(0, p.x - RING); x < Math.min(side, p.x + p.w + RING); x++) {
          if (y >= p.y && y < p.y + p.h && x >= p.x && x < p.x + p.w) continue;
          sum += grey[y * side + x]!;
          count++;
        }
      return count > 0 && sum / count >= (level + face) / 2;
    };
    if (above.length === 2) {
      const [a, b] = above[0]!.cx < above[1]!.cx ? [above[0]!, above[1]!] : [above[1]!, above[0]!];
      const centre = letter.x + letter.w / 2;
      const dots =
        onFace(a) &&
        onFace(b) &&
        a.cx < centre &&
        b.cx > centre &&
        Math.abs(a.cy - b.cy) < 0.2 * letter.h &&
        Math.max(a.area, b.area) <= 3 * Math.min(a.area, b.area);
      return dots ? 'dots' : undefined;
    }
    if (above.length > 0) return undefined;
    // Nothing above the letter: at most one pixel of ink in the band where the dots would be.
    let band = 0;
    for (let y = Math.max(0, Math.round(letter.y - 0.4 * letter.h)); y < letter.y; y++)
      for (let x = letter.x; x < letter.x + letter.w; x++) if (ink.data[y * side + x]) band++;
    return band <= 1 ? 'none' : undefined;
  });
}

/**
 * Settles the squares the model reads as one letter of a pair (Ä or A, Ö or O, Ü or U), in doubt between the two, by
 * the dots above the letter (`umlautDots`): the other letter's share goes to the one the dots show (to the plain
 * letter only where the model leans to it already). `probs` holds the
 * model's shares per square (classes as `classes`, a letter and its quarter turns: `U0`…`U3`), changed in place.
 * Only `cells` that are `large` enough in the photo for a dot to be more than a pixel or two, and only pairs whose
 * both letters are `allowed` (all, when undefined). Returns the squares settled.
 */
export function weighUmlauts(
  classes: readonly string[],
  probs: Float32Array,
  board: RgbImage,
  turns: 0 | 1 | 2 | 3,
  allowed: ReadonlySet<string> | undefined,
  cells: Iterable<number>,
  large: (cell: number) => boolean,
): number[] {
  const k = classes.length;
  const pairs = umlautPairs(allowed)
    .map(
      ([dotted, plain]) =>
        [classes.indexOf(`${dotted}${turns}`), classes.indexOf(`${plain}${turns}`)] as const,
    )
    .filter(([dotted, plain]) => dotted >= 0 && plain >= 0);
  const settled: number[] = [];
  if (pairs.length === 0) return settled;
  for (const cell of cells) {
    for (const [dotted, plain] of pairs) {
      const [pd, pp] = [probs[cell * k + dotted]!, probs[cell * k + plain]!];
      // The pair is the square's reading (together likelier than any other class), and the model is not sure which of
      // the two.
      if (Math.min(pd, pp) < DOUBT * (pd + pp) || !large(cell)) continue;
      let other = 0;
      for (let j = 0; j < k; j++)
        if (j !== dotted && j !== plain) other = Math.max(other, probs[cell * k + j]!);
      if (pd + pp <= other) continue;
      const seen = umlautDots(board, cell, turns);
      // Two dots are a shape found; nothing above the letter is only ink not found (dots too faint for the ink level,
      // or joined to the letter, would show so): it confirms the plain letter the model leans to, never overrules it.
      if (seen === undefined || (seen === 'none' && pd > pp)) continue;
      const [to, from] = seen === 'dots' ? [dotted, plain] : [plain, dotted];
      probs[cell * k + to] = pd + pp;
      probs[cell * k + from] = 0;
      settled.push(cell);
      break;
    }
  }
  return settled;
}

/** The smaller letter's share of the pair's at which a square is looked at: the model is sure of most. */
const DOUBT = 0.05;
