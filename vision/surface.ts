/**
 * Blank tile or empty square? A blank is a tile with nothing printed on it, so the classifier, which sees one cell
 * at a time, cannot tell it from an empty square of a board whose squares are tile-coloured, and it does not know
 * which colour this board's squares are. The board itself does: the lettered tiles show this set's tile face, the
 * confidently empty squares show this board's plain and premium squares. Each cell read empty or blank is settled
 * by which of the two its colour is closer to. A cell read empty that its colour shows to be a tile is a blank, or
 * a letter the model saw too faintly to prefer it to an empty square (a thin I of a medium-weight face): it takes
 * the model's likeliest letter where the model gave that more weight than a blank, and stays unsure.
 */
import { standardLayout } from '../server/engine/index.ts';
import { gridHomography, project, unproject } from './homography.ts';
import type { Corners, RgbImage } from './types.ts';
import { CELL, MARGIN } from './warp.ts';

/** A reading must be at least this confident to serve as a reference colour. */
const REFERENCE_CONFIDENCE = 0.8;
/** Lightness varies with the light across the board more than hue does: it counts for less. */
const LIGHTNESS_WEIGHT = 0.5;
/** The colour overrules the classifier only when it is this clear (see `clear`). */
const DECISIVE = 0.6;
/** How close (a share of the distance between tile face and square) a colour must be to one of them to decide. */
const NEAR = 0.5;
/**
 * Tile face and squares closer than this (CIE ΔE, lightness halved) cannot be told apart by colour (`settleBlanks`);
 * and a board's edge row is of another colour only if it lies at least this far from both (`oneColourEdge`). 8
 * before session 46: jheidel-en's red board's grey-beige squares are 6.5 from its pale wooden tiles, and a blank
 * there, which the model reads empty, read empty without a question in 16 photos (docs/measurements.md, session 46;
 * at 5 the edge check changed no grid of any labelled set).
 */
const MIN_APART = 5;
/** How many nearby cells make a reference colour. */
const NEIGHBOURS = 5;
/** A tile's face drawn over this share of the square behind it reaches into the middle half its colour is taken from. */
const COVERED = 0.25;

export type Lab = readonly [number, number, number];

export interface SettledCells {
  readonly chars: string[];
  readonly confidence: number[];
}

/**
 * Settles empty-or-blank cells by colour. `colours`/`chars`/`confidence` are row-major as the cells are seen (before
 * the board is turned upright; the premium layout is the same in every quarter turn). `pair` is, per cell, the
 * probability share of "empty or blank" among the readings the classifier considered. Returns new arrays.
 */
export function settleBlanks(
  /** Each cell's colour (`photoColours`), cells as seen. */
  colours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
  pair: readonly number[],
  /** Per cell, the model's most likely letter, its share, and the blank's share (see `CellReading`). */
  letters?: { letter: readonly string[]; letterShare: readonly number[]; blankShare: readonly number[] },
  /**
   * Per cell (as seen), the cells whose tiles' faces, seen from the side, cover part of it in the photo
   * (`facesOver`). Where one of them is read as a tile, the colour cannot call this one a tile: it may be that
   * tile's face.
   */
  coveredBy?: readonly (readonly number[])[],
  /**
   * The colour of the part of cell `i` the faces of the tiles on `fronts` (cells in front of it) leave uncovered in the
   * photo, undefined where too little is left to take one (`uncoveredWindow`).
   */
  uncovered?: (i: number, fronts: readonly number[]) => Lab | undefined,
): SettledCells {
  const outChars = [...chars];
  const outConfidence = [...confidence];
  const open = (i: number) => chars[i] === '.' || chars[i] === '?';
  const tiles: number[] = [];
  for (let i = 0; i < 225; i++) if (!open(i) && confidence[i]! >= REFERENCE_CONFIDENCE) tiles.push(i);
  if (tiles.length < 2) return { chars: outChars, confidence: outConfidence };
  // A set has two blanks or so: most cells of one premium kind read empty or blank are empty squares.
  const squares = new Map<string, number[]>();
  for (let i = 0; i < 225; i++) {
    if (!open(i) || isCentre(i)) continue;
    const kind = premiumAt(i);
    const list = squares.get(kind);
    if (list) list.push(i);
    else squares.set(kind, [i]);
  }
  for (let i = 0; i < 225; i++) {
    if (!open(i)) continue;
    const same = squares.get(premiumAt(i)) ?? [];
    if (same.length < 2) continue;
    // The nearest references: the light often changes across a board.
    const tile = medianLab(nearest(i, tiles, NEIGHBOURS).map((j) => colours[j]!));
    const square = medianLab(nearest(i, same, NEIGHBOURS).map((j) => colours[j]!));
    const toTile = distance(colours[i]!, tile);
    const toSquare = distance(colours[i]!, square);
    const apart = distance(tile, square);
    // Where the tile face and the squares look alike (a cream board), the colour cannot tell.
    if (apart < MIN_APART) continue;
    const verdict = toTile < toSquare ? '?' : '.';
    // A tile's colour where a tile in front may stand over the square: it may be that tile's face, or a blank
    // behind it. Never decisive: the square's reading stays, as unsure as the colour makes it.
    const fronts = verdict === '?' ? (coveredBy?.[i] ?? []).filter((front) => !open(front)) : [];
    const hidden = fronts.length > 0;
    // How clearly the colour sides with one of the two: 0 halfway between them, 1 on one of them or beyond.
    const clear = Math.min(1, Math.abs(toTile - toSquare) / apart);
    // Read empty, with the tile's colour where a face in front stands over its middle: the part of the square that
    // face leaves uncovered shows the square itself. Where it shows the square's colour, the square is as sure as
    // that colour makes it, as any square read empty that shows its colour; where it shows a tile's, or too little is
    // left of it, the reading stays as unsure as the middle's colour makes it (below): a blank behind may be there.
    const seen = hidden && chars[i] === '.' ? uncovered?.(i, fronts) : undefined;
    if (seen) {
      const [nearTile, nearSquare] = [distance(seen, tile), distance(seen, square)];
      if (nearSquare < nearTile) {
        outConfidence[i] = Math.max(confidence[i]!, pair[i]! * Math.min(1, (nearTile - nearSquare) / apart));
        continue;
      }
    }
    if (verdict === chars[i]) {
      // A blank read where a face in front may be what shows: not the surer for the colour.
      if (!hidden) outConfidence[i] = Math.max(confidence[i]!, pair[i]! * clear);
    }
    // Decisive only when the colour is close to one of the two: a hand or a shadow is far from both.
    else if (!hidden && clear >= DECISIVE && Math.min(toTile, toSquare) <= NEAR * apart) {
      outChars[i] = verdict;
      outConfidence[i] = pair[i]! * clear;
      // A tile after all: a blank, or a letter the model saw too faintly to prefer it to an empty square.
      if (verdict === '?' && letters && letters.letterShare[i]! > letters.blankShare[i]!) {
        outChars[i] = letters.letter[i]!;
        outConfidence[i] = letters.letterShare[i]!;
      }
    } else outConfidence[i] = Math.min(confidence[i]!, pair[i]! * (1 - clear));
  }
  return { chars: outChars, confidence: outConfidence };
}

/**
 * A board shows at most as many blanks as the set has. Where more cells read blank (an empty square under glare, a
 * worn premium square, a wooden rack lying on the board), the `blanks` read most surely stay blanks and the others
 * are read empty; all of them are then in doubt (confidence at most ½): which of them hold the set's blanks, the
 * colour and the model could not say for sure, and the game, which knows the blanks it has committed, decides (a
 * glare read as a blank more surely than a committed blank must not pass as a new tile). Returns new arrays when it
 * changes anything.
 */
export function fewerBlanks(cells: SettledCells, blanks: number): SettledCells {
  const read = cells.chars.flatMap((c, i) => (c === '?' ? [i] : []));
  if (read.length <= blanks) return cells;
  // Most surely read first; of two as sure, the first on the board.
  read.sort((a, b) => cells.confidence[b]! - cells.confidence[a]! || a - b);
  const chars = [...cells.chars];
  const confidence = [...cells.confidence];
  read.forEach((i, k) => {
    if (k < blanks) confidence[i] = Math.min(confidence[i]!, 0.5);
    else {
      chars[i] = '.';
      confidence[i] = Math.min(confidence[i]!, 1 - confidence[i]!);
    }
  });
  return { chars, confidence };
}

/** The `k` cells of `among` nearest to cell `i` on the grid, not `i` itself (nearest first; of two as near, the
 *  one first in `among`). */
function nearest(i: number, among: readonly number[], k: number): number[] {
  const [r, c] = [Math.floor(i / 15), i % 15];
  const found: number[] = [];
  const dist: number[] = [];
  for (const j of among) {
    if (j === i) continue;
    const d = (Math.floor(j / 15) - r) ** 2 + ((j % 15) - c) ** 2;
    if (found.length === k && d >= dist[k - 1]!) continue;
    // Insertion into the short sorted list, the farthest dropped when it is full.
    let at = found.length === k ? k - 1 : found.length;
    while (at > 0 && dist[at - 1]! > d) {
      if (at < k) {
        found[at] = found[at - 1]!;
        dist[at] = dist[at - 1]!;
      }
      at--;
    }
    found[at] = j;
    dist[at] = d;
  }
  return found;
}

function premiumAt(i: number): string {
  return standardLayout.rows[Math.floor(i / 15)]![i % 15]!;
}

function isCentre(i: number): boolean {
  return i === standardLayout.start[0] * 15 + standardLayout.start[1];
}

/** Every cell's colour on a straightened board (warp.ts: the grid from MARGIN to MARGIN + 15 cells): for tests. */
export function boardColours(board: RgbImage): Lab[] {
  const [a, b] = [MARGIN, MARGIN + 15 * CELL];
  return photoColours(
    board,
    gridHomography([
      [a, a],
      [b, a],
      [b, b],
      [a, b],
    ]),
  );
}

/** Samples a side of a cell's middle, when its colour is taken from the photo (`photoColours`). */
const COLOUR_SAMPLES = 12;

/** Where in a square its colour is taken, in shares of the square from its top-left corner: [u0, u1, v0, v1]. */
export type Window = readonly [number, number, number, number];
/** The middle half of a square, away from grid lines and tile edges. */
const MIDDLE: Window = [0.25, 0.75, 0.25, 0.75];

/**
 * Every cell's colour (CIE Lab), taken from the photo itself: the median of a grid of samples over the cell's middle
 * (its inner half, away from grid lines and tile edges), each mapped onto the photo through the grid's homography
 * `h` (grid coordinates 0–15 to photo pixels, cells as seen).
 */
export function photoColours(photo: RgbImage, h: Float64Array): Lab[] {
  const counts = new Uint16Array(3 * 256);
  return Array.from({ length: 225 }, (_, i) => colourIn(photo, h, i, MIDDLE, counts));
}

/** Where beside the grid its border's colour is taken, in squares out from the grid's edge: clear of the grid's
 *  outer line, and within the border of a board whose border is half a square wide or more (the renders draw 0.6–1.2;
 *  a narrower one's median still shows it where more than half the band lies on it). */
const BORDER_BAND: readonly [number, number] = [0.15, 0.45];

/**
 * The colour of the board's border along each side of the grid (top, right, bottom, left as seen): the median of the
 * band BORDER_BAND out from each of the side's 15 squares (`h`: the grid's homography, as for `photoColours`).
 */
export function borderColours(photo: RgbImage, h: Float64Array): Lab[] {
  const counts = new Uint16Array(3 * 256);
  const [near, far] = BORDER_BAND;
  const sides: [(k: number) => number, Window][] = [
    [(k) => k, [0.25, 0.75, -far, -near]],
    [(k) => k * 15 + 14, [1 + near, 1 + far, 0.25, 0.75]],
    [(k) => 14 * 15 + k, [0.25, 0.75, 1 + near, 1 + far]],
    [(k) => k * 15, [-far, -near, 0.25, 0.75]],
  ];
  return sides.map(([cell, window]) =>
    medianLab(Array.from({ length: 15 }, (_, k) => colourIn(photo, h, cell(k), window, counts))),
  );
}

/**
 * A cell's colour over `window` of its square: the median of COLOUR_SAMPLES² samples spread over it. `counts`: each
 * channel's counts of its 256 values, reused from cell to cell.
 */
function colourIn(
  photo: RgbImage,
  h: Float64Array,
  i: number,
  [u0, u1, v0, v1]: Window,
  counts: Uint16Array,
): Lab {
  const n = COLOUR_SAMPLES * COLOUR_SAMPLES;
  const { width, height, data } = photo;
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = h as unknown as number[];
  const [row, col] = [Math.floor(i / 15), i % 15];
  counts.fill(0);
  for (let j = 0; j < COLOUR_SAMPLES; j++) {
    const v = row + v0 + ((v1 - v0) * (j + 0.5)) / COLOUR_SAMPLES;
    // The products with v, the same for the row of samples (the sums keep their order: the same pixels).
    const [v1h, v4, v7] = [h1! * v, h4! * v, h7! * v];
    for (let m = 0; m < COLOUR_SAMPLES; m++) {
      const u = col + u0 + ((u1 - u0) * (m + 0.5)) / COLOUR_SAMPLES;
      const w = h6! * u + v7 + h8!;
      const x = Math.min(width - 1, Math.max(0, Math.round((h0! * u + v1h + h2!) / w)));
      const y = Math.min(height - 1, Math.max(0, Math.round((h3! * u + v4 + h5!) / w)));
      const p = (y * width + x) * 3;
      counts[data[p]!]!++;
      counts[256 + data[p + 1]!]!++;
      counts[512 + data[p + 2]!]!++;
    }
  }
  return toLab(countMedian(counts, 0, n), countMedian(counts, 256, n), countMedian(counts, 512, n));
}

/** The median of `n` byte values counted in `counts` from `at` (256 counters). */
function countMedian(counts: Uint16Array, at: number, n: number): number {
  const half = n >> 1;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += counts[at + v]!;
    if (seen > half) return v;
  }
  return 255;
}

function medianLab(colours: readonly Lab[]): Lab {
  return [medianOf(colours, 0), medianOf(colours, 1), medianOf(colours, 2)];
}

/** medianOf's values, reused (it runs to its end before another call can). */
const MEDIAN_BUFFER = new Float64Array(NEIGHBOURS);

/** The median (upper, of an even count) of the colours' channel `k`: a few values, sorted by insertion. */
function medianOf(colours: readonly Lab[], k: number): number {
  if (colours.length === 0) return Number.NaN;
  const values = MEDIAN_BUFFER.length >= colours.length ? MEDIAN_BUFFER : new Float64Array(colours.length);
  for (let j = 0; j < colours.length; j++) {
    const v = colours[j]![k]!;
    let at = j;
    while (at > 0 && values[at - 1]! > v) {
      values[at] = values[at - 1]!;
      at--;
    }
    values[at] = v;
  }
  return values[colours.length >> 1]!;
}

function distance(a: Lab, b: Lab): number {
  return Math.hypot(LIGHTNESS_WEIGHT * (a[0] - b[0]), a[1] - b[1], a[2] - b[2]);
}

/** sRGB (0–255) to CIE L*a*b* (D65). */
export function toLab(r: number, g: number, b: number): Lab {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const x = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((t * 24389) / 27 + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/**
 * How clearly the squares read empty show the premium layout where the grid puts it: per premium kind, the distance
 * of its empty squares' median colour from the plain squares', over their spreads; the median over the kinds with
 * squares enough to tell. A grid on the board gives each kind its own colour; a grid off the board (over a rack,
 * the table, the border) mixes them. Undefined when too few squares are read empty to tell.
 */
export function layoutContrast(
  colours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
): number | undefined {
  const byKind = new Map<string, Lab[]>();
  for (let i = 0; i < 225; i++) {
    if (chars[i] !== '.' || confidence[i]! < REFERENCE_CONFIDENCE || isCentre(i)) continue;
    const kind = premiumAt(i);
    const list = byKind.get(kind);
    if (list) list.push(colours[i]!);
    else byKind.set(kind, [colours[i]!]);
  }
  const plain = byKind.get('.') ?? [];
  if (plain.length < 5) return undefined;
  const spread = (labs: Lab[], m: Lab) => {
    const d = labs.map((c) => distance(c, m)).sort((a, b) => a - b);
    return d[d.length >> 1]!;
  };
  const p = medianLab(plain);
  const ps = spread(plain, p);
  const seps: number[] = [];
  for (const [kind, labs] of byKind) {
    if (kind === '.' || labs.length < 2) continue;
    const m = medianLab(labs);
    seps.push(distance(m, p) / (ps + spread(labs, m) + 1));
  }
  if (seps.length < 2) return undefined;
  seps.sort((a, b) => a - b);
  return seps[seps.length >> 1]!;
}

/** An edge row's squares all within this of their median colour (CIE ΔE, lightness halved) show one colour. */
const ONE_COLOUR = 6;

/**
 * An outer row or column of the grid (as seen) whose 15 squares all show one colour, which is neither the tiles' (the
 * median of the squares read surely as letters) nor the plain squares' (of those read surely empty): no row of a
 * board's looks so (each edge row has three triple-word and two double-letter squares), so the grid runs a row over
 * the board's border or off it (seen from a seat, its near edge found on the border of a half-full board). The
 * side, or undefined; undefined too where there are too few sure tiles or plain squares to compare with.
 */
export function oneColourEdge(
  colours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
): 'top' | 'bottom' | 'left' | 'right' | undefined {
  const sure = (i: number) => confidence[i]! >= REFERENCE_CONFIDENCE;
  const tiles: Lab[] = [];
  const plain: Lab[] = [];
  for (let i = 0; i < 225; i++) {
    if (!sure(i)) continue;
    if (chars[i] === '.' && premiumAt(i) === '.') plain.push(colours[i]!);
    else if (chars[i] !== '.' && chars[i] !== '?') tiles.push(colours[i]!);
  }
  if (tiles.length < 2 || plain.length < 5) return undefined;
  const [tile, square] = [medianLab(tiles), medianLab(plain)];
  const far = Math.max(MIN_APART, NEAR * distance(tile, square));
  const sides = [
    ['top', (k: number) => k],
    ['bottom', (k: number) => 14 * 15 + k],
    ['left', (k: number) => k * 15],
    ['right', (k: number) => k * 15 + 14],
  ] as const;
  for (const [side, cell] of sides) {
    const row = Array.from({ length: 15 }, (_, k) => colours[cell(k)]!);
    const middle = medianLab(row);
    if (
      row.every((c) => distance(c, middle) <= ONE_COLOUR) &&
      Math.min(distance(middle, tile), distance(middle, square)) > far
    )
      return side;
  }
  return undefined;
}

/** Each premium kind's colour: the median of its squares read surely empty, where KIND_SQUARES or more are. */
function kindColours(
  colours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
): Map<string, Lab> {
  const kinds = new Map<string, Lab[]>();
  for (let i = 0; i < 225; i++) {
    if (chars[i] !== '.' || confidence[i]! <= SURELY_EMPTY) continue;
    const kind = premiumAt(i);
    const list = kinds.get(kind);
    if (list) list.push(colours[i]!);
    else kinds.set(kind, [colours[i]!]);
  }
  return new Map(
    [...kinds].flatMap(([kind, list]) =>
      list.length >= KIND_SQUARES ? [[kind, medianLab(list)] as const] : [],
    ),
  );
}

/** A square whose colour lies this near its kind's (CIE ΔE, lightness halved) shows that square: nothing covers it. */
const SHOWS_SQUARE = 6;

/**
 * The squares that show their own colour, as the squares of their kind read surely empty show it (`colours`, as
 * `photoColours` takes them, cells as seen): nothing covers them, no hand. The model's hand share (`#`) is its
 * catch-all for a square it finds odd, and it rises over whole regions of a dim or blurred photo and of a steep view
 * (jheidel-en 170032: 91 squares, a region with a hand's shape; a rendered 72° view: 56), where the squares still
 * show their colours; under a real hand they show skin or a sleeve (docs/measurements.md, session 42). The reading
 * reports such a square's hand share as its empty share.
 */
export function squaresShown(
  colours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
): boolean[] {
  const kinds = kindColours(colours, chars, confidence);
  return Array.from({ length: 225 }, (_, i) => {
    const own = kinds.get(premiumAt(i));
    return own !== undefined && distance(colours[i]!, own) < SHOWS_SQUARE;
  });
}

/** A tile read where its face should be, whose colour there lies at least this far from the tiles' (CIE ΔE, lightness
 *  halved)… */
const FACE_OFF = 30;
/** …and within this share of that distance of a colour the board's empty squares show, shows the board, not a tile. */
const BOARD_NEAR = 0.25;
/** A tile read surely whose face's colour lies this near one of the board's is no reference for the tiles' colour. */
const TILE_APART = 10;
/** A kind of square gives the board's colour from this many squares read surely empty. */
const KIND_SQUARES = 2;
/** A square read empty more surely than this shows the board: its colour (`offTheFaces`), its lines (`boardLines`). */
export const SURELY_EMPTY = 0.9;

/**
 * The tiles read where the faces' plane shows the board's colour, not a tile's: the model read a letter in print
 * that is the board's (the name printed on its border beside the far row, reached by the lifted crop of an empty
 * square seen from a seat; a premium square's printed words). Each square read as a tile or a blank is compared,
 * by its colour where its face would be (`faceColours`: `photoColours` through the grid lifted to the faces' plane),
 * with the median face of the nearest tiles read surely (as `settleBlanks` takes them) and with the board's colours:
 * each kind of square's median (`squareColours`, of the squares read surely empty) and the border's beside each side
 * of the grid; where it lies FACE_OFF or more from the tiles' and within BOARD_NEAR of that from one of the board's,
 * it is in doubt. Never more: which it is, the game or a person decides. A tile read surely whose face is within
 * TILE_APART of the board's colour is no reference (several letters of a printed name side by side must not make
 * the print the tiles' colour). Returns the confidence to report for each square (lowered by how much nearer the
 * board's colour it is than the tiles': at most a quarter of what it was) or undefined where nothing is in doubt.
 * Measured on every labelled set (docs/measurements.md, session 42): no right tile read surely both so far from the
 * tiles' colour and so near the board's; the squares it doubts, the renders' printed border and premium words read as
 * letters.
 */
export function offTheFaces(
  faceColours: readonly Lab[],
  squareColours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
  /** The border's colours beside the grid (`borderColours`): the board's too. */
  border: readonly Lab[] = [],
): number[] | undefined {
  const sure: number[] = [];
  for (let i = 0; i < 225; i++)
    if (chars[i] !== '.' && chars[i] !== '?' && confidence[i]! >= REFERENCE_CONFIDENCE) sure.push(i);
  const kinds = kindColours(squareColours, chars, confidence);
  if (kinds.size === 0) return undefined;
  const board = [...kinds.values(), ...border];
  const toBoard = (i: number) => Math.min(...board.map((c) => distance(faceColours[i]!, c)));
  // The tiles to compare with: those read surely whose faces are not the board's colour (several letters of a
  // printed name side by side must not make the print the tiles' colour), where at least four are; else all read
  // surely (a board whose squares are the tiles' colour: there the colours cannot tell, and nothing is doubted).
  const apart = sure.filter((i) => toBoard(i) > TILE_APART);
  const tiles = apart.length >= 4 ? apart : sure;
  // Each square's tiles to compare with: at least three others.
  if (tiles.length < 4) return undefined;
  let out: number[] | undefined;
  for (let i = 0; i < 225; i++) {
    if (chars[i] === '.') continue;
    const toTile = distance(
      faceColours[i]!,
      medianLab(nearest(i, tiles, NEIGHBOURS).map((j) => faceColours[j]!)),
    );
    if (toTile < FACE_OFF) continue;
    const near = toBoard(i);
    if (near > BOARD_NEAR * toTile) continue;
    out ??= [...confidence];
    out[i] = (confidence[i]! * near) / toTile;
  }
  return out;
}

/** A third of the board whose lines run this far from the grid's, in squares, or farther, puts the grid in doubt. */
export const MAX_LINES_OFF = 0.25;
/** A third is judged on this many boundaries between two empty squares or more, whose edges line up this well. */
const MIN_BOUNDARIES = 3;
const MIN_ALIGNED = 0.2;

/** Where the board's own lines run against the grid, in squares, per third of the board (undefined where a third
 *  has too little to judge by): `down`, how far below the grid's the horizontal lines of each third of the columns
 *  run (left to right); `right`, how far right of the grid's the vertical lines of each third of the rows (top to
 *  bottom). Within half a square either way. */
export interface BoardLines {
  readonly down: readonly (number | undefined)[];
  readonly right: readonly (number | undefined)[];
}

/**
 * Where the board's own lines run against the grid (`BoardLines`). The lines are the edges between two squares
 * `empty` reads surely empty, on `board` straightened on the board's own plane: each boundary's edge strength across
 * it (a square's breadth either way, a sixth of a square kept from the ends) is averaged around the circle of one
 * square's period, whose angle is then the lines' offset from the grid's (a grid a whole row off lines up, and is the
 * layout checks' to catch) and whose length says how well the edges line up. Seen from a seat, a half-full board's
 * grid found turned a little (a game rendered at 64°: its right side 0.6–0.8 of a square too far, the right third's
 * lines 0.3–0.45 of a square off, letters read a row off) shows it where the left third does not; grids on the
 * board, real or rendered, keep every third within 0.22.
 */
export function boardLines(board: RgbImage, empty: (cell: number) => boolean): BoardLines {
  const { width, data } = board;
  const grey = (x: number, y: number) => {
    const o = (y * width + x) * 3;
    return 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!;
  };
  const half = CELL >> 1;
  const end = Math.round(CELL / 6);
  const offsets = (across: boolean) =>
    [0, 1, 2].map((third) => {
      let [sx, sy, sum, boundaries] = [0, 0, 0, 0];
      for (let a = 5 * third; a < 5 * third + 5; a++)
        for (let b = 1; b < 15; b++) {
          // Along a column `a`, the line above row `b`; across, along row `a`, the line left of column `b`.
          const [cell, before] = across ? [a * 15 + b, a * 15 + b - 1] : [b * 15 + a, (b - 1) * 15 + a];
          if (!empty(cell) || !empty(before)) continue;
          boundaries++;
          for (let u = -half; u < half; u++) {
            const angle = (2 * Math.PI * u) / CELL;
            const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
            for (let v = end; v < CELL - end; v++) {
              const [x, y] = across
                ? [MARGIN + b * CELL + u, MARGIN + a * CELL + v]
                : [MARGIN + a * CELL + v, MARGIN + b * CELL + u];
              const edge = across
                ? Math.abs(grey(x + 1, y) - grey(x - 1, y))
                : Math.abs(grey(x, y + 1) - grey(x, y - 1));
              sx += edge * cos;
              sy += edge * sin;
              sum += edge;
            }
          }
        }
      if (boundaries < MIN_BOUNDARIES || sum === 0 || Math.hypot(sx, sy) / sum < MIN_ALIGNED)
        return undefined;
      return Math.atan2(sy, sx) / (2 * Math.PI);
    });
  return { down: offsets(false), right: offsets(true) };
}

/** How far a third's offset may lie from the straight line through the three, in squares, for the grid to be moved. */
const LINE_RESIDUAL = 0.05;

/**
 * The grid `corners` moved onto the board's own lines (`boardLines`, on the board's plane): the board's corner
 * (u, v) lies where the grid has (u + right(v), v + down(u)), each family's offsets fitted as a straight line across
 * its three thirds. Only where each family is judged in all three thirds or in none, and its thirds lie on the line
 * (within LINE_RESIDUAL): the lines show where the grid is only within half a square, and a grid off by more in part
 * (a game rendered at 64°, frame 24: its bottom-right corner two squares off, the middle third unjudged) lines up
 * with them as well after a move, and was read through with 51 squares wrong without a question. Else undefined.
 */
export function ontoLines(corners: Corners, lines: BoardLines): Corners | undefined {
  const line = (offsets: readonly (number | undefined)[]) => {
    if (offsets.every((d) => d === undefined)) return (_at: number) => 0;
    if (offsets.some((d) => d === undefined)) return undefined;
    const points = offsets.map((d, third) => [5 * third + 2.5, d!] as const);
    const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
    const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
    const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    const slope = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx;
    const at = (u: number) => my + slope * (u - mx);
    return points.every(([x, y]) => Math.abs(at(x) - y) <= LINE_RESIDUAL) ? at : undefined;
  };
  const down = line(lines.down);
  const right = line(lines.right);
  if (!down || !right) return undefined;
  const h = gridHomography(corners);
  const corner = (u: number, v: number) => project(h, u + right(v), v + down(u));
  return [corner(0, 0), corner(15, 0), corner(15, 15), corner(0, 15)];
}

/** How far the board's own lines run from the grid at most, in squares, over the thirds judged (`boardLines`). */
export function linesOffGrid(lines: BoardLines): number {
  return Math.max(0, ...[...lines.down, ...lines.right].map((d) => (d === undefined ? 0 : Math.abs(d))));
}

/** A tile's face drawn over the square behind it: the tile's cell, the side of the square it comes in from, and how far
 *  into the square it reaches (a share of the square). */
export interface FaceOver {
  readonly front: number;
  readonly side: 'top' | 'bottom' | 'left' | 'right';
  readonly reach: number;
}

/**
 * Seen from the side, a tile's face stands above its square and is drawn over part of the square behind it (away from
 * the camera): a quarter of it or more from about 50° with tiles a fifth of a square high. Per cell (as seen on
 * `corners`), the tiles' faces (on `faces`, the grid lifted to the tiles' faces) that cover at least `cover` of it,
 * along the rows or the columns (a view from a corner: both), with how far they reach into it. The colours taken on
 * the board's plane (`photoColours`, the middle half of each square) then show those faces' colour.
 */
export function facesOver(corners: Corners, faces: Corners, cover = COVERED): FaceOver[][] {
  const out = Array.from({ length: 225 }, () => [] as FaceOver[]);
  if (faces === corners) return out;
  const board = gridHomography(corners);
  const lifted = gridHomography(faces);
  for (let i = 0; i < 225; i++) {
    const [r, c] = [Math.floor(i / 15), i % 15];
    // Where the middle of this cell's tile face lies on the board's plane, in squares from the cell's middle.
    const [x, y] = project(lifted, c + 0.5, r + 0.5);
    const [u, v] = unproject(board, x, y);
    const [du, dv] = [u - c - 0.5, v - r - 0.5];
    const [br, bc] = [r + Math.sign(dv), c + Math.sign(du)];
    if (Math.abs(dv) >= cover && br >= 0 && br < 15)
      out[br * 15 + c]!.push({ front: i, side: dv > 0 ? 'top' : 'bottom', reach: Math.min(1, Math.abs(dv)) });
    if (Math.abs(du) >= cover && bc >= 0 && bc < 15)
      out[r * 15 + bc]!.push({ front: i, side: du > 0 ? 'left' : 'right', reach: Math.min(1, Math.abs(du)) });
  }
  return out;
}

/** How far from a face's reach, and from the square's own edges, a square's colour is taken (shares of the square). */
const CLEAR_OF = 0.08;
/** Less of a square left than this between them (a share of the square), and no colour is taken. */
const MIN_BAND = 0.15;

/**
 * The part of a square the faces `over` it leave uncovered, CLEAR_OF away from their reach and its own edges (the
 * middle half along the sides no face comes in from); undefined where less than MIN_BAND is left.
 */
export function uncoveredWindow(over: readonly FaceOver[]): Window | undefined {
  if (over.length === 0) return MIDDLE;
  const reach = (side: FaceOver['side']) =>
    Math.max(0, ...over.filter((f) => f.side === side).map((f) => f.reach));
  const span = (from: number, to: number): [number, number] | undefined => {
    if (from === 0 && to === 0) return [MIDDLE[0], MIDDLE[1]];
    const [a, b] = [from + CLEAR_OF, 1 - to - CLEAR_OF];
    return b - a >= MIN_BAND ? [a, b] : undefined;
  };
  const across = span(reach('left'), reach('right'));
  const down = span(reach('top'), reach('bottom'));
  return across && down ? [across[0], across[1], down[0], down[1]] : undefined;
}

/** A cell's colour (CIE Lab) over `window` of its square in the photo, through the grid's homography `h`. */
export function colourOf(photo: RgbImage, h: Float64Array, i: number, window: Window): Lab {
  return colourIn(photo, h, i, window, new Uint16Array(3 * 256));
}

/**
 * Whether the grid moved a square along a row or a column shows the premium layout more clearly than the grid itself
 * (layoutContrast, from the same cells' colours and readings: the moved grid's cell is its neighbour's): the move
 * that does, or undefined. A grid a row off (found on a line of the board's border, or of its far tiles' edges)
 * shows the layout's colours mixed, and its true place shows them clearly. So is each half of the grid (its rows or
 * its columns 1–7 and 9–15) judged on its own, moved across: a grid whose one edge lies a row off, the other on the
 * board's, shows it in that half only. Measured on the 347 grids judged among the labelled photos and renders, 262 of
 * them real (docs/measurements.md, "A grid no camera could see, and a grid a row off"): on grids in place, the best
 * move's contrast is at most 0.38 of the grid's own, and a half's at most 0.53 of the half's own; on the two grids a
 * row off that passed the layout check (jheidel-en 170750, the 68° game's move 16), 8.1 and 6.7 times; on the
 * rendered seat view 27, whose grid is a row off at one edge only, its half 1.9 times. A grid under `floor` by itself
 * is also moved a square diagonally (session 45): kwwangkw-en s11, s14, s21 and s22, real photos from above whose
 * grids lay a row and a column off (over the border's printed name and a column in), show the layout clearly there.
 * A grid at or over `floor` is not: kwwangkw-en s18, on its squares, showed its worn board's layout more clearly a
 * square diagonally (docs/measurements.md, session 45).
 */
export function clearerMoved(
  colours: readonly Lab[],
  chars: readonly string[],
  confidence: readonly number[],
  own: number,
  floor: number,
): { rows: number; cols: number; half?: 'first' | 'second'; contrast: number } | undefined {
  /** The contrast of the cells `keep` allows, on the grid moved by (rows, cols). */
  const moved = (rows: number, cols: number, keep: (r: number, c: number) => boolean) => {
    const cs: Lab[] = [];
    const ch: string[] = [];
    const cf: number[] = [];
    for (let i = 0; i < 225; i++) {
      const [r, c] = [Math.floor(i / 15) + rows, (i % 15) + cols];
      // A square of the moved grid beyond this one's edge is not seen, nor one outside the part judged: it takes no
      // part.
      const inside = r >= 0 && r < 15 && c >= 0 && c < 15 && keep(Math.floor(i / 15), i % 15);
      cs.push(inside ? colours[r * 15 + c]! : colours[i]!);
      ch.push(inside ? chars[r * 15 + c]! : '');
      cf.push(inside ? confidence[r * 15 + c]! : 0);
    }
    return layoutContrast(cs, ch, cf);
  };
  /** A half's cells: rows 1–7 or 9–15 for a move by a row, columns 1–7 or 9–15 for a move by a column. */
  const halfOf = (half: 'first' | 'second', rows: number) => (r: number, c: number) => {
    const along = rows !== 0 ? r : c;
    return half === 'first' ? along < 7 : along > 7;
  };
  let best: { rows: number; cols: number; half?: 'first' | 'second'; contrast: number } | undefined;
  const consider = (rows: number, cols: number, than: number, half?: 'first' | 'second') => {
    const contrast = moved(rows, cols, half === undefined ? () => true : halfOf(half, rows));
    if (contrast !== undefined && contrast > than && contrast >= floor && contrast > (best?.contrast ?? 0))
      best = { rows, cols, ...(half ? { half } : {}), contrast };
  };
  const steps = [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ] as const;
  for (const [rows, cols] of steps) consider(rows, cols, own);
  // And, for a grid that does not show the layout clearly enough by itself (under `floor`), a square diagonally: a
  // grid a row and a column off (real photos from above, their grids found over the border's printed name and a
  // column in). Not for one that does: a grid in place on a worn board (kwwangkw-en s18) showed it more clearly so.
  if (own < floor) for (const rows of [-1, 1]) for (const cols of [-1, 1]) consider(rows, cols, own);
  // Each half on its own, where it shows the layout by itself.
  for (const half of ['first', 'second'] as const) {
    // The half's own contrast, once for its rows and once for its columns (each serves the two moves across it).
    const byRows = moved(0, 0, halfOf(half, 1));
    const byCols = moved(0, 0, halfOf(half, 0));
    for (const [rows, cols] of steps) {
      const itself = rows !== 0 ? byRows : byCols;
      if (itself !== undefined) consider(rows, cols, itself, half);
    }
  }
  return best;
}
