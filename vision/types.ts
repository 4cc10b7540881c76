/** Shapes shared across the vision pipeline and with its callers. */

/** An 8-bit RGB image, row-major, 3 bytes a pixel. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

export type Point = readonly [x: number, y: number];

/** Corners of the 15×15 playing grid in image pixels: top-left, top-right, bottom-right, bottom-left as seen. */
export type Corners = readonly [Point, Point, Point, Point];

/** The corners with `f` applied to each: a change of pixel scale, or of frame. */
export function mapCorners(corners: readonly Point[], f: (p: Point) => Point): Corners {
  if (corners.length !== 4) throw new RangeError(`a grid has 4 corners, not ${corners.length}`);
  return [f(corners[0]!), f(corners[1]!), f(corners[2]!), f(corners[3]!)];
}

/** The corners scaled by `sx` across and `sy` down. */
export function scaleCorners(corners: readonly Point[], sx: number, sy = sx): Corners {
  return mapCorners(corners, ([x, y]) => [x * sx, y * sy]);
}

export type Rotation = 0 | 90 | 180 | 270;

/** What the camera saw: the board text (upright), a confidence per square, where the grid is, and timings. */
export interface BoardReading {
  readonly board: readonly string[];
  /** Row-major like `board`: the model's probability for the character reported. */
  readonly confidence: readonly (readonly number[])[];
  /** Squares the model is unsure of (confidence under the threshold), 0-based. */
  readonly unsure: readonly { readonly row: number; readonly col: number }[];
  /** On request: the model's raw scores per square (row-major, upright) for each reading in `keys`, and a hand's. */
  readonly scores?: {
    readonly keys: readonly string[];
    readonly cells: readonly (readonly number[])[];
    readonly hand: readonly number[];
  };
  /**
   * For each unsure square, its likeliest readings with the model's share for each, the reported one first: what
   * the game may choose between when the context (the move's legality, the tile counts, the lexicon) decides. `#` is
   * the model's share for a hand over the square; a square that shows its own colour (surface.ts squaresShown) has
   * none, its share counted as the empty reading's.
   */
  readonly alternatives: readonly {
    readonly row: number;
    readonly col: number;
    readonly options: readonly { readonly tile: string; readonly p: number }[];
  }[];
  /**
   * Tiles read as a letter of the set given that the model scores higher as a letter the set lacks (an Ä on a board
   * read as English), upright, 0-based; absent when there are none. The board text keeps the set's letter.
   */
  readonly foreign?: readonly { readonly row: number; readonly col: number; readonly letter: string }[];
  /**
   * Why the grid found seems not to lie on the board (the squares under it do not show its premium squares: it may
   * lie over a rack or the table, or rows off; or they show them more clearly a square beside it: a row or a column
   * off; or, for a grid searched afresh, too few of them read surely empty to tell: over part of the board only);
   * absent when it does. Such a reading has every square unsure: it is
   * no reading of the board, and the service refuses the frame as showing none.
   */
  readonly gridDoubt?: string;
  readonly corners: Corners;
  /** How the board was turned in the photo, clockwise: 90 means it was seen from its left side. The board text
   *  and the corners are reported upright, whatever the rotation. */
  readonly rotation: Rotation;
  readonly ms: {
    readonly decode: number;
    readonly locate: number;
    readonly classify: number;
    readonly total: number;
  };
}

export type VisionErrorCode =
  | 'not-an-image'
  | 'image-too-large'
  | 'corrupt-image'
  | 'no-board'
  | 'bad-corners'
  | 'no-model';

/** An expected failure of the vision pipeline, with a stable code. */
export class VisionError extends Error {
  constructor(
    readonly code: VisionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VisionError';
  }
}
