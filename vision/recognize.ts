/**
 * The vision pipeline: image bytes in, a BoardReading out. Decode (sharp), locate the grid (OpenCV) unless fixed
 * corners are given, straighten and cut the cells, classify them in one batch (ONNX), turn the board upright.
 * No game rules here: whether the reading is a legal move is the engine's question.
 */
import type { TileMemory } from './adapt.ts';
import {
  boardTurns,
  type CellModel,
  type CellReading,
  classifyCells,
  loadModel,
  readCells,
  rotationOf,
  type SeatReader,
  uprightGrid,
} from './classify.ts';
import { opencv } from './cv.ts';
import { type DecodedImage, decodeImage, shrink } from './decode.ts';
import { cornerShifts, cornersMoved, gridHomography, project } from './homography.ts';
import { type Located, locateBoard, offPicture, orderCorners, otherGrids, WORK } from './locate.ts';
import { cameraPose, liftedCorners, TILE_HEIGHT } from './pose.ts';
import {
  type BoardLines,
  boardLines,
  borderColours,
  clearerMoved,
  colourOf,
  facesOver,
  fewerBlanks,
  layoutContrast,
  linesOffGrid,
  MAX_LINES_OFF,
  offTheFaces,
  oneColourEdge,
  ontoLines,
  photoColours,
  SURELY_EMPTY,
  settleBlanks,
  squaresShown,
  uncoveredWindow,
} from './surface.ts';
import {
  type BoardReading,
  type Corners,
  mapCorners,
  type Point,
  type RgbImage,
  scaleCorners,
  VisionError,
} from './types.ts';
import { umlautPairs, weighUmlauts } from './umlaut.ts';
import { cellCrops, patchBoard, warpBoard } from './warp.ts';

export interface RecognizeOptions {
  /** Letters the tile set can hold; others are never reported. Default: every letter the model knows. */
  readonly letters?: string;
  /** Blank tiles in the set: a board never shows more (surface.ts `fewerBlanks`). Default: no limit. */
  readonly blanks?: number;
  /** Fixed grid corners (a mounted camera): skips the search. Top-left, top-right, bottom-right, bottom-left. */
  readonly corners?: Corners;
  /** The corners found in the previous frame of a steady camera: tried first, kept if the lines are still there. */
  readonly hint?: Corners;
  /** Path of the ONNX model (default models/cells.onnx). */
  readonly model?: string;
  /**
   * Examples of this game's tiles, from squares already committed (adapt.ts): how this set's tiles look to the
   * model. Each square is compared with them (when the model has features).
   */
  readonly memory?: TileMemory;
  /** How high a tile's face stands above the board, in squares (default pose.ts TILE_HEIGHT): tiles are read
   *  through that plane. 0 reads them on the board's plane. */
  readonly tileHeight?: number;
  /** Also report the model's raw scores per square (`BoardReading.scores`). */
  readonly scores?: boolean;
  /** Squares read with less confidence than this are reported unsure (default 0.8). */
  readonly threshold?: number;
  /** Receives the decoded photo (at most DECODE_SIDE pixels a side), the corners in its pixels and the straightened
   *  board, for debug images. */
  readonly inspect?: (photo: DecodedImage, corners: Corners, warped: RgbImage) => void | Promise<void>;
}

export const DEFAULT_THRESHOLD = 0.8;
/** Under this evidence (line contrast × share of line segments seen) there is no board in the photo: real boards
 *  measured 0.09–3, blurred noise at most 0.11. */
const MIN_GRID_EVIDENCE = 0.12;
/**
 * Under this contrast of the premium squares read empty against the plain ones (surface.ts layoutContrast), the
 * grid is off the board. Measured: grids on the board 0.84 and up (kwwangkw-en/warped's faint premium squares the
 * lowest; scrabscrap-de 7 and up); grids off it (by eye, and on rendered seat views against their true corners)
 * 0.13–0.46, one at 0.74 (jheidel-en 170750).
 */
const MIN_LAYOUT_CONTRAST = 0.6;

/**
 * Loads the model and OpenCV now rather than with the first photo (together about 150 ms here): a process that
 * reads frames for others answers its first ones at speed.
 */
export async function prepareVision(model?: string): Promise<void> {
  await loadModel(model);
  opencv();
}

export async function recognize(bytes: Uint8Array, options: RecognizeOptions = {}): Promise<BoardReading> {
  // The reading alone leaves: its features are kept by no one, so the model's quick copy may read first.
  return (await readFrame(bytes, options, undefined, undefined, true)).reading;
}

/**
 * What a reading leaves for the next frame of a steady camera (camera.ts): the photo's size and the grid's corners in
 * its decoded pixels, the probabilities per cell (the model's after the second look; on a steep view, the squeezed
 * squares' averaged with the seat reader's and the empty squares' read on the board's plane), and the reading itself.
 */
export interface FrameState {
  /** The decoded photo's size (its pixels are not kept). */
  readonly size: { readonly width: number; readonly height: number };
  readonly corners: Corners;
  readonly probs: Float32Array;
  /** The model's features per cell (225 × `CellModel.features`, cells as seen), when it has them. */
  readonly features: Float32Array | undefined;
  /** The straightened board the cells were read from. The camera's next frame that reads some squares again draws
   *  them on it where it is (patchBoard): it is then that frame's board, no longer this one's. */
  readonly warped: RgbImage;
  /** The board straightened on its own plane, where empty squares are read, when tiles are read on the plane of
   *  their faces (a view from the side: `plane`); drawn on as `warped` is. */
  readonly plane?: RgbImage;
  /** The cells as read (before the colour check). */
  readonly seen: CellReading;
  readonly reading: BoardReading;
  /** A steep view's squeezed squares (as seen; read by the seat reader too): the game's examples of them are kept
   *  apart (TileMemory.squeezed). */
  readonly squeezed?: ReadonlySet<number>;
  /** Where the premium layout shows more clearly on the grid moved a square (or one half of it so, or, for a grid that
   *  shows it too faintly, diagonally: clearerMoved), that move; the grid is in doubt then. */
  readonly moved?: GridMove;
}

/** A grid's move by whole squares (`clearerMoved`): all of it, or one half's edge. */
export type GridMove = { readonly rows: number; readonly cols: number; readonly half?: 'first' | 'second' };

/**
 * Reads a photo, or (`reuse`) only some cells of it: the others keep the probabilities of an earlier frame of the
 * same camera whose pixels they still show, on the same grid. `photo` is the photo already decoded, if it is.
 */
export async function readFrame(
  bytes: Uint8Array,
  options: RecognizeOptions = {},
  reuse?: {
    state: FrameState;
    cells: readonly number[];
    /** Every cell's reading made again from the kept probabilities (the game's examples changed), not only `cells`'. */
    rethink?: boolean;
  },
  /** The photo already decoded, when the work on the frame began, and when it was decoded (and compared); and the
   *  grid's corners in its pixels, when they have been found already (`locateGrid`). */
  frame?: { photo: DecodedImage; since: number; decoded: number; corners?: Corners },
  /**
   * Read by the model's quick copy first where it has one (`classifyCells`), unless the game's examples weigh the
   * reading. Only for a reading whose features no one keeps: the copy's features are not the model's, and the
   * game's examples (adapt.ts) are compared by the model's own (a steep view's squeezed squares by the seat reader's).
   */
  quick = false,
  /** The grid `frame.corners` was moved onto the board's own lines (`ontoLines`): it is judged as a grid searched
   *  for, and not moved again. */
  ontoBoard = false,
): Promise<FrameState> {
  const t0 = frame?.since ?? performance.now();
  const model = loadModel(options.model);
  const photo = frame?.photo ?? (await decodeImage(bytes));
  const t1 = frame?.decoded ?? performance.now();
  const corners = reuse?.state.corners ?? frame?.corners ?? (await locate(photo, options));
  const t2 = performance.now();
  const cells = await model;
  const exact = !(quick && cells.quick && !options.memory);
  // A frame where some squares changed: only they are drawn again on the last frame's straightened board.
  // Tiles are read through the plane of their faces (pose.ts); the grid found is the board's.
  // The camera's pose, once a frame (its focal length is solved 17 times to know whether to trust it).
  const posed = cameraPose(corners, photo);
  const faces = liftedCorners(corners, photo, options.tileHeight ?? TILE_HEIGHT, posed);
  const warped = reuse
    ? patchBoard(reuse.state.warped, photo, faces, reuse.cells, 0.35)
    : warpBoard(photo, faces);
  const allowed = options.letters ? new Set([...options.letters]) : undefined;
  let probs: Float32Array;
  let features: Float32Array | undefined;
  if (reuse) {
    // Only the cells asked for are read again; the others keep what the earlier frame read.
    probs = reuse.state.probs.slice();
    features = reuse.state.features?.slice();
    const only = reuse.cells.map((cell) => ({ cell, dx: 0, dy: 0 }));
    const fresh = await classifyCells(cells, cellCrops(warped, cells.size, cells.margin, only), exact);
    const k = cells.classes.length;
    const f = cells.features;
    reuse.cells.forEach((cell, j) => {
      probs.set(fresh.probs.subarray(j * k, (j + 1) * k), cell * k);
      if (features && fresh.features) features.set(fresh.features.subarray(j * f, (j + 1) * f), cell * f);
    });
    await secondLook(cells, warped, probs, allowed, new Set(reuse.cells), !exact);
  } else {
    const read = await classifyCells(cells, cellCrops(warped, cells.size, cells.margin), exact);
    probs = read.probs;
    features = read.features;
    await secondLook(cells, warped, probs, allowed, undefined, !exact);
  }
  // Seen from the side, tiles are read on the plane of their faces, and empty squares on the board's own.
  let plane: RgbImage | undefined;
  // Whether a grid searched for lies on the board is judged from the squares as the faces' plane reads them (below).
  const pose = faces !== corners ? posed : undefined;
  const steep = pose?.solved === true && pose.tilt >= EMPTY_ON_BOARD_TILT;
  const onFaces = steep && !reuse && !options.corners ? probs.slice() : undefined;
  // The squares a steep view squeezes are read by the seat reader too (after the grid's check's copy above: whether
  // a grid lies on the board is judged by the model's reading alone, as before, weighed by the game's examples as
  // every reading is).
  if (steep && cells.seat)
    await readSqueezed(cells.seat, warped, faces, probs, features, allowed, reuse?.cells);
  if (steep) {
    plane = reuse?.state.plane
      ? patchBoard(reuse.state.plane, photo, corners, reuse.cells, 0.35)
      : warpBoard(photo, corners);
    await emptiesOnTheBoard(cells, plane, probs, features, reuse ? reuse.cells : undefined, exact);
  }
  // The squares the seat reader reads too are weighed by the game's examples of such squares only, and taught to
  // them only (TileMemory.squeezed): the model's features of a squeezed glyph are not those of the same letter nearer
  // the camera (in the rendered seat game the near rows' examples read a far T as I: docs/measurements.md, "The
  // game's examples and a seat view"). They are compared by the seat reader's features (readSqueezed), or the
  // model's on the board's plane where that reads them empty.
  const squeezed = steep && cells.seat ? new Set(squeezedCells(faces, cells.seat.belowAspect)) : undefined;
  const look =
    options.memory && features
      ? { memory: options.memory, features, size: cells.features, ...(squeezed ? { squeezed } : {}) }
      : undefined;
  // A square in doubt between a letter and its umlaut (U or Ü) is settled by the dots above its letter, where the
  // square is large enough in the photo to show them (umlaut.ts).
  settleUmlauts(cells, warped, probs, allowed, faces, reuse?.cells);
  const readAll = () =>
    reuse && !reuse.rethink
      ? readCells(cells, probs, allowed, look, new Set(reuse.cells), reuse.state.seen)
      : readCells(cells, probs, allowed, look);
  let seen = readAll();
  // The blank-or-empty check compares colours across the board: all of them this frame's (the light and a camera's
  // white balance change from frame to frame), taken from the photo itself.
  const onBoard = gridHomography(corners);
  const colours = photoColours(photo, onBoard);
  // Seen steeply, the squares behind a tile show its face where their colours are taken (facesOver); what the faces
  // leave of them shows the squares themselves.
  const over = steep ? facesOver(corners, faces) : undefined;
  const coveredBy = over?.map((list) => list.map((f) => f.front));
  const uncovered =
    over &&
    ((cell: number, fronts: readonly number[]) => {
      const window = uncoveredWindow(over[cell]!.filter((f) => fronts.includes(f.front)));
      return window && colourOf(photo, onBoard, cell, window);
    });
  // A grid searched for must sit on the board: where the squares read empty do not show the premium layout's
  // colours, it lies over something else (a rack, the table, the border) or rows off, and its reading is no board's.
  // Judged from the faces' plane's reading where the view is from the side: read on the board's plane, the empty
  // squares under a grid a row and a column off (seen on the rendered seat game) are surer, and would pass.
  // Where the faces' plane reads too few empty squares surely to judge by (a half-full board seen at 62°: a grid a
  // row off went unjudged, 46 squares read wrong without a question), from the reading as it stands.
  const judgedBy = (r: CellReading) =>
    reuse || options.corners ? undefined : layoutContrast(colours, r.chars, r.confidence);
  let judged = onFaces ? readCells(cells, onFaces, allowed, look) : seen;
  let contrast = judgedBy(judged);
  if (contrast === undefined && judged !== seen) {
    judged = seen;
    contrast = judgedBy(seen);
  }
  // And where the grid moved a square shows the layout more clearly than the grid does, the grid is a row or a
  // column off (a grid found on the border's line, or on a line of the far tiles' edges seen from a seat). Looked for
  // also where the grid shows the layout too faintly to pass: a grid a column onto a board's side panel shows it
  // mixed, and its true place clearly (kwwangkw-en s5, a real photo from above). Such a grid is in doubt for its
  // layout all the same (below); the move is where it is read again.
  const moved =
    contrast === undefined
      ? undefined
      : clearerMoved(colours, judged.chars, judged.confidence, contrast, MIN_LAYOUT_CONTRAST);
  // A grid searched for under which too few squares read surely empty to judge it by (fewer than 5 plain ones, or
  // fewer than two premium kinds with two each: layoutContrast) is not taken for a board's: a grid over part of a
  // board only (a 55° view of a board on a table of wooden planks: two fifths of the board's width, one premium kind
  // read empty twice or more; 20 squares read wrong without a question). Not met on a grid on a board of the real
  // photos or the committed renders (361 grids). Only a grid searched for afresh: a steady camera's grid, from its
  // last frame's, stays judged by the contrast alone (a hand over most of the board must not lose it).
  const searched = ontoBoard || (!reuse && !options.corners && !options.hint && !frame?.corners);
  const unjudged = searched && contrast === undefined;
  // And a grid searched for whose outer row shows one colour, neither the tiles' nor the squares', lies a row over
  // the board's border (oneColourEdge): seen from a seat, a half-full board's near edge found on its border, its near
  // half too full of tiles for the layout to judge, and every row stretched (a game rendered at 64°, letters read a
  // row off without a question).
  const edge = searched && !unjudged ? oneColourEdge(colours, judged.chars, judged.confidence) : undefined;
  // And seen from the side, where the board's lines between the squares read surely empty run a quarter of a square
  // or more off a grid searched for in a third of the board, the grid is turned or stretched off the board's (a
  // half-full board's near lines hidden by the tiles and the rack: a game rendered at 64°, letters on the right read
  // a row off without a question); it is moved onto them below. Judged on the board's plane, where the lines are; a
  // steady camera's grid, from its last frame's, is not judged so.
  const surelyEmpty = (cell: number) => seen.chars[cell] === '.' && seen.confidence[cell]! > SURELY_EMPTY;
  const lines = searched && plane ? boardLines(plane, surelyEmpty) : undefined;
  const turned = lines !== undefined && linesOffGrid(lines) >= MAX_LINES_OFF;
  const gridDoubt = unjudged
    ? "a grid was found, but too few of the squares under it read clearly as empty to check it against the board's premium squares: it may lie over part of the board only. Make sure the whole board is in view"
    : contrast !== undefined && contrast < MIN_LAYOUT_CONTRAST
      ? "a grid was found, but the squares under it do not show the board's premium squares: it may lie over a rack or the table, or rows off the board. Make sure the whole board is in view"
      : moved
        ? "a grid was found, but the board's premium squares show more clearly a square beside it: it is likely a row or a column off the board's grid. Make sure the whole board and its border are in view"
        : edge
          ? "a grid was found, but one of its outer rows shows neither the board's squares nor tiles: it likely runs a row over the board's border. Make sure the whole board and its border are in view"
          : turned
            ? `a grid was found, but ${LINES_OFF}: it is likely turned off the board's grid. Make sure the whole board and its border are in view`
            : undefined;
  // The board's colours settle empty or blank, on the reading as it stands.
  const settle = () =>
    settleBlanks(colours, seen.chars, seen.confidence, seen.pair, seen, coveredBy, uncovered);
  let colourSettled = settle();
  if (!exact) {
    // Where the colours overrule the model (a square it read empty is a tile: a blank, or a letter it saw too
    // faintly), the reading rests on the smallest shares, where the quick copy and the model differ most: those
    // squares are read again by the model itself, second look included, and the board read again (once: a square the
    // colours overrule only in that second reading keeps the copy's shares).
    const overruled = colourSettled.chars.flatMap((c, i) => (c !== seen.chars[i] ? [i] : []));
    if (overruled.length > 0) {
      const only = overruled.map((cell) => ({ cell, dx: 0, dy: 0 }));
      const again = await classifyCells(cells, cellCrops(warped, cells.size, cells.margin, only), true);
      const k = cells.classes.length;
      overruled.forEach((cell, j) => {
        probs.set(again.probs.subarray(j * k, (j + 1) * k), cell * k);
      });
      await secondLook(cells, warped, probs, allowed, new Set(overruled), false);
      // As every square of the frame was: the squeezed ones by the seat reader too. (Their board-plane reading,
      // emptiesOnTheBoard, is not made again: a square the colours overrule shows a tile's colours.)
      if (steep && cells.seat)
        await readSqueezed(cells.seat, warped, faces, probs, features, allowed, overruled);
      settleUmlauts(cells, warped, probs, allowed, faces, overruled);
      seen = readAll();
      colourSettled = settle();
    }
  }
  const blanksKept =
    options.blanks === undefined ? colourSettled : fewerBlanks(colourSettled, options.blanks);
  // A tile read where its face's colour is the board's, not a tile's, is the board's print read as a letter (the name
  // on the border beside the far row, seen from a seat): in doubt (surface.ts offTheFaces).
  const faceColours = faces === corners ? colours : photoColours(photo, gridHomography(faces));
  const offFaces = offTheFaces(
    faceColours,
    colours,
    blanksKept.chars,
    blanksKept.confidence,
    borderColours(photo, onBoard),
  );
  const settled = offFaces ? { chars: blanksKept.chars, confidence: offFaces } : blanksKept;
  // A square that shows its own colour is covered by no hand, whatever the model's hand share (surface.ts squaresShown).
  const shown = squaresShown(colours, settled.chars, settled.confidence);
  const t3 = performance.now();
  const ms = (a: number, b: number) => Math.round((b - a) * 10) / 10;
  const reading = assemble(seen, settled, shown, corners, photo, options, gridDoubt, {
    decode: ms(t0, t1),
    locate: ms(t1, t2),
    classify: ms(t2, t3),
    total: ms(t0, t3),
  });
  const state: FrameState = {
    size: { width: photo.width, height: photo.height },
    corners,
    probs,
    features,
    warped,
    ...(plane ? { plane } : {}),
    ...(squeezed ? { squeezed } : {}),
    seen,
    reading,
    ...(moved ? { moved } : {}),
  };
  // A grid in doubt only for running off the board's own lines is moved onto them (where they say clearly how) and
  // the photo read again through it (movedOnto); else, or where the moved grid fails, the grid stays in doubt.
  const onto = lines && !ontoBoard && gridDoubt?.includes(LINES_OFF) ? ontoLines(corners, lines) : undefined;
  let chosen = onto && offPicture(onto, photo) <= 1 ? ((await movedOnto(onto, lines!)) ?? state) : state;
  // A grid in doubt where the premium layout shows more clearly on the grid moved a square, or one half of it so
  // (clearerMoved), is moved there and the photo read again through it, taken where every check passes it as a grid
  // searched for and it leaves at most OTHER_UNSURE squares unsure (a real photo from the red board's far side,
  // jheidel-en 170750, its grid found a line off at one side; rendered seat view 27, a row off at one edge). Where
  // the moved grid is in doubt so again, it is moved once more (MAX_MOVES: kwwangkw-en s5, a column onto the board's
  // side panel, moved a half at a time). Only a grid judged so: a steady camera's grid, kept from its last frame, is
  // not (no layout judged); a camera's look from a hint is, and the moved grid must pass every check a grid searched
  // for does.
  const shift = moved !== undefined && !ontoBoard && chosen === state;
  let from: FrameState = state;
  for (let n = 0; shift && n < MAX_MOVES && from.moved; n++) {
    const grid = movedGrid(from.corners, from.moved);
    // A move back onto the grid first read (a faint grid's false move, undone) is no new grid: not read again.
    if (offPicture(grid, photo) > 1 || cornersMoved(grid, corners) < 0.5) break;
    const again = await readAgain(grid);
    if (!again) break;
    if (again.reading.gridDoubt === undefined && again.reading.unsure.length <= OTHER_UNSURE) {
      chosen = again;
      break;
    }
    from = again;
  }
  // A grid searched for afresh and still in doubt: the other grids the closer search finds are each read in turn,
  // and the first that every check passes as a grid searched for is taken (a real photo from a player's seat, its
  // first grid stretched over the board's printed name panel: jheidel-en 170746), where the reading through it is
  // sure of two thirds of the squares or more (OTHER_UNSURE: one more in doubt says little of the grid). Where none
  // is taken, the first grid stays, in doubt. The closer search is made once a photo (`searchedOthers`).
  const afresh = !ontoBoard && !reuse && !options.corners && !options.hint && !frame?.corners;
  const tried = afresh && chosen.reading.gridDoubt !== undefined;
  if (tried)
    for (const other of await otherCorners(photo, corners)) {
      const again = await readAgain(other);
      if (again && again.reading.gridDoubt === undefined && again.reading.unsure.length <= OTHER_UNSURE) {
        chosen = again;
        break;
      }
    }
  // Where none is taken and the first grid the search found ran off the picture (passed over for this one), that is
  // the likelier reason, as it was before the other grids were looked for: the board is not wholly in view.
  if (tried && chosen === state && searchedOthers.get(photo)?.ranOff)
    throw new VisionError('no-board', OFF_PICTURE);
  await options.inspect?.(photo, chosen.corners, chosen.warped);
  if (chosen === state && !onto && !shift && !tried) return state;
  // The second read's time is the frame's too (and the other grids' search and reads, taken or not: counted as
  // classifying, after the first grid's reading).
  const t4 = performance.now();
  const times = { decode: ms(t0, t1), locate: ms(t1, t2), classify: ms(t2, t4), total: ms(t0, t4) };
  return { ...chosen, reading: { ...chosen.reading, ms: times } };

  /** The frame read again through the grid moved onto the board's lines, kept only where every check passes it as a
   *  grid searched for (the layout, the border) and every third judged before is judged again with its lines within
   *  MAX_LINES_MOVED of the grid's; undefined otherwise (a read the vision refuses included). */
  async function movedOnto(moved: Corners, before: BoardLines): Promise<FrameState | undefined> {
    const again = await readAgain(moved);
    if (!again || again.reading.gridDoubt !== undefined || !again.plane) return undefined;
    const after = boardLines(
      again.plane,
      (cell) => again.seen.chars[cell] === '.' && again.seen.confidence[cell]! > SURELY_EMPTY,
    );
    const kept = (b: readonly (number | undefined)[], a: readonly (number | undefined)[]) =>
      b.every(
        (d, third) => d === undefined || (a[third] !== undefined && Math.abs(a[third]!) <= MAX_LINES_MOVED),
      );
    return kept(before.down, after.down) && kept(before.right, after.right) ? again : undefined;
  }

  /** The photo read again through `grid`, judged as a grid searched for and not moved again; undefined where the
   *  vision refuses it (VisionError). */
  async function readAgain(grid: Corners): Promise<FrameState | undefined> {
    try {
      return await readFrame(
        bytes,
        { ...options, inspect: undefined },
        undefined,
        { photo, since: t0, decoded: t1, corners: grid },
        quick,
        true,
      );
    } catch (err) {
      if (err instanceof VisionError) return undefined;
      throw err;
    }
  }
}

/**
 * The grid moved as `clearerMoved` found the premium layout shows more clearly: by whole squares (`rows` down, `cols`
 * across, in the grid's own perspective), or, where only one half of it showed so, the two corners on that half's edge
 * (a grid whose one edge lies a row off, the other on the board's).
 */
export function movedGrid(corners: Corners, move: GridMove): Corners {
  const h = gridHomography(corners);
  const edge = move.half === 'first' ? 0 : 15;
  const at = (k: 0 | 1 | 2 | 3): Point => {
    // The corner's place on the grid: top-left, top-right, bottom-right, bottom-left.
    const [u, v] = [k === 1 || k === 2 ? 15 : 0, k >= 2 ? 15 : 0];
    const moves = move.half === undefined || (move.rows !== 0 ? v === edge : u === edge);
    return moves ? project(h, u + move.cols, v + move.rows) : corners[k];
  };
  return [at(0), at(1), at(2), at(3)];
}

/** Why a photo whose grid runs off the picture is not read. */
const OFF_PICTURE =
  'the grid found runs off the picture by a whole row or column of squares: make sure the whole board is in view';

/** How many times a grid in doubt as a square off is moved (`movedGrid`) and read again, at most. */
const MAX_MOVES = 2;
/** How many other grids (`otherGrids`) a grid searched for and in doubt gives way to, at most. */
const OTHER_GRIDS = 2;
/**
 * Another grid is taken only where the reading through it leaves at most this many squares unsure (a third of the
 * board). Of those every check passed: jheidel-en 170746 and the renders seat-border 19 and seat-planks 16 left 64,
 * 59 and 40 (read right but for squares asked about); the 62° game's moves 15 and 20, 86 and 85, their grids half a
 * square off the board's at a near corner (2 squares read wrong without a question); jheidel-en 164048, blurred, 123
 * (6). Not taken, those stay in doubt.
 */
const OTHER_UNSURE = 75;

/** Per decoded photo, the closer search's other grids (`Located.others`) where `locateGrid` made that search, in the
 *  work image's pixels, and that image. */
const searchedOthers = new WeakMap<
  DecodedImage,
  { work: RgbImage; others: readonly Located[]; ranOff: boolean }
>();

/**
 * The other grids of a decoded photo (`otherGrids`, or those `locateGrid` found already), in its pixels, top-left
 * first as `locateGrid` gives them: those clear enough to be a board's (MIN_GRID_EVIDENCE), on the picture, and not
 * the grid in doubt (two corners or more at least half a square from its own), the clearest OTHER_GRIDS.
 */
async function otherCorners(photo: DecodedImage, doubted: Corners): Promise<Corners[]> {
  const known = searchedOthers.get(photo);
  const work = known?.work ?? (await shrink(photo, WORK));
  const others = known?.others ?? otherGrids(work);
  const k = photo.width / work.width;
  return others
    .filter((o) => o.score * o.support >= MIN_GRID_EVIDENCE)
    .map((o) => mapCorners(orderCorners([...scaleCorners(o.corners, k)]), (p) => p))
    .filter((c) => offPicture(c, photo) <= 1 && cornerShifts(doubted, c).filter((d) => d >= 0.5).length >= 2)
    .slice(0, OTHER_GRIDS);
}

/**
 * Seen from the side, a square is read twice: on the plane of a tile's face (the grid lifted by the tiles' height,
 * pose.ts), where a tile's letter is, and on the board's own plane, where an empty square's print is. Read on the
 * lifted grid, an empty square shows the board a third of a square off (and the side of the tile behind it, or the
 * print of the square beyond): the model, which learnt squares cut on their own lines, is unsure of it. So where the
 * board's plane shows an empty square (its likeliest reading), more surely than the faces' plane shows a tile, and
 * that plane shows no sure tile (TILE_ON_FACE), the square is taken as the board's plane reads it. A tile read on the
 * board's plane shows its own side and most of its face: of 230 tiles of the rendered seat game, 3 read empty there,
 * none of them surely; a tile whose letter the faces' plane spreads over several (a K read H, R, hand) can read
 * empty there, and stays a tile, by the faces' plane's share.
 */
async function emptiesOnTheBoard(
  model: CellModel,
  plane: RgbImage,
  probs: Float32Array,
  features: Float32Array | undefined,
  /** Only these cells (the others were read so before). */
  only: readonly number[] | undefined,
  exact: boolean,
): Promise<void> {
  const list = only ?? Array.from({ length: 225 }, (_, i) => i);
  if (list.length === 0) return;
  const k = model.classes.length;
  const hand = model.classes.indexOf('#');
  const read = await classifyCells(
    model,
    cellCrops(
      plane,
      model.size,
      model.margin,
      list.map((cell) => ({ cell, dx: 0, dy: 0 })),
    ),
    exact,
  );
  const f = model.features;
  list.forEach((cell, j) => {
    const board = read.probs.subarray(j * k, (j + 1) * k);
    let best = 0;
    for (let c = 1; c < k; c++) if (board[c]! > board[best]!) best = c;
    if (best !== 0) return;
    const face = probs.subarray(cell * k, (cell + 1) * k);
    const tile = 1 - face[0]! - (hand >= 0 ? face[hand]! : 0);
    // The surer of the two: the board's plane that the square is empty, or the faces' plane that a tile is there.
    if (tile >= TILE_ON_FACE || board[0]! <= tile) return;
    probs.set(board, cell * k);
    if (features && read.features) features.set(read.features.subarray(j * f, (j + 1) * f), cell * f);
  });
}

/** The grid's corners in the decoded photo: the ones given, or found (from the hint first). */
async function locate(photo: DecodedImage, options: RecognizeOptions): Promise<Corners> {
  // Corners come and go in the original photo's pixels; a large photo is decoded smaller.
  const toDecoded = (c: Corners) => scaleCorners(c, photo.scaleX, photo.scaleY);
  const given = options.corners && toDecoded(options.corners);
  if (given) {
    validateCorners(given, photo);
    return given;
  }
  return locateGrid(photo, options.hint && toDecoded(options.hint));
}

/**
 * The grid's corners in a decoded photo (`decodeImage`), in its pixels: from `hint` (corners in the same pixels, a
 * steady camera's last frame's) when its lines are still there, else searched for in the whole picture. A
 * VisionError (`no-board`) when there is none.
 */
export async function locateGrid(
  photo: DecodedImage,
  hintDecoded?: Corners,
  /** Only refined from the hint, where its lines still are: else no-board, the whole picture not searched. */
  hintOnly = false,
): Promise<Corners> {
  const work = await shrink(photo, WORK);
  const k = photo.width / work.width;
  const hint = hintDecoded && scaleCorners(hintDecoded, 1 / k);
  const found = locateBoard(work, hint, hintOnly && hint !== undefined);
  // The closer search's other grids, where it was made: a grid in doubt gives way to them (readFrame), without that
  // search made twice.
  if (found?.others) searchedOthers.set(photo, { work, others: found.others, ranOff: found.ranOff === true });
  const located = found && {
    ...found,
    corners: scaleCorners(found.corners, k),
  };
  // Only a grid that no camera could see the square board as (its lines fitted): a photo cut off-centre or
  // stretched (the check takes the camera's middle for the picture's), or a grid skewed across the board's tiles.
  if (located?.skewed)
    throw new VisionError(
      'no-board',
      "a grid was found, but no camera could see the square board so: the photo may be cut off-centre or stretched, or the grid lies across the tiles. Send the photo as the camera took it, or give the board's corners",
    );
  if (!located || located.score * located.support < MIN_GRID_EVIDENCE)
    throw new VisionError('no-board', 'no Scrabble board was found in the image');
  // A grid whose lines never fitted is a guess (seen on boards viewed very steeply): better no reading than one
  // off by a row or skewed across the board.
  if (!located.fitted)
    throw new VisionError(
      'no-board',
      'something like a board was found, but its 15×15 grid lines could not be fitted: the view may be too steep, or the board partly hidden',
    );
  // Whatever order a hint came in, the corners go on as seen in the photo: top-left first, clockwise.
  const corners = mapCorners(orderCorners([...located.corners]), (p) => p);
  // A grid running a whole square or more off the picture cannot be read (and a grid found there is more
  // likely fitted to a patterned cloth than to a board): the camera has to take the whole board in.
  if (offPicture(corners, photo) > 1) throw new VisionError('no-board', OFF_PICTURE);
  return corners;
}

/** The reading as callers see it: upright board text, confidences, the squares in doubt and their readings. */
function assemble(
  seen: CellReading,
  settled: { chars: readonly string[]; confidence: readonly number[] },
  /** Per cell as seen, whether it shows its own square's colour: its hand share is reported as its empty share. */
  shown: readonly boolean[],
  corners: Corners,
  photo: DecodedImage,
  options: RecognizeOptions,
  gridDoubt: string | undefined,
  ms: BoardReading['ms'],
): BoardReading {
  const chars = uprightGrid(settled.chars, seen.turns);
  const conf = uprightGrid(settled.confidence, seen.turns);
  const readings = uprightGrid(seen.options, seen.turns);
  const bare = uprightGrid(shown, seen.turns);
  const outside = uprightGrid(resolvedForeign(seen.foreign, corners), seen.turns);
  // A reading through a grid off the board is sure of nothing.
  const threshold = gridDoubt ? Number.POSITIVE_INFINITY : (options.threshold ?? DEFAULT_THRESHOLD);
  const board: string[] = [];
  const confidence: number[][] = [];
  const unsure: { row: number; col: number }[] = [];
  const alternatives: BoardReading['alternatives'][number][] = [];
  const foreign: { row: number; col: number; letter: string }[] = [];
  for (let r = 0; r < 15; r++) {
    board.push(chars.slice(r * 15, r * 15 + 15).join(''));
    confidence.push(conf.slice(r * 15, r * 15 + 15).map((p) => Math.round(p * 1000) / 1000));
    for (let c = 0; c < 15; c++) {
      const i = r * 15 + c;
      if (outside[i] && chars[i] !== '.' && chars[i] !== '?')
        foreign.push({ row: r, col: c, letter: outside[i]! });
      if (conf[i]! >= threshold) continue;
      unsure.push({ row: r, col: c });
      // The reading reported (the surface check may have settled it) first, then the model's others.
      alternatives.push({ row: r, col: c, options: optionsOf(chars[i]!, conf[i]!, readings[i]!, bare[i]!) });
    }
  }
  const turn = (i: number) => corners[(i + seen.turns) % 4]!;
  const upright: Corners = [turn(0), turn(1), turn(2), turn(3)];
  return {
    board,
    confidence,
    unsure,
    alternatives,
    ...(foreign.length > 0 ? { foreign } : {}),
    ...(gridDoubt ? { gridDoubt } : {}),
    ...(options.scores
      ? {
          scores: {
            keys: seen.scores.keys,
            cells: uprightGrid(seen.scores.cells, seen.turns),
            hand: uprightGrid(seen.scores.hand, seen.turns),
          },
        }
      : {}),
    corners: mapCorners(upright, ([x, y]) => [
      Math.round((x / photo.scaleX) * 10) / 10,
      Math.round((y / photo.scaleY) * 10) / 10,
    ]),
    rotation: rotationOf(seen.turns),
    ms,
  };
}

/**
 * A square's readings as reported (`BoardReading.alternatives`): the reading reported (`tile`, `p`: the surface checks
 * may have settled it) first, then the model's others (`readings`), shares to three decimals. Where the square shows
 * its own colour (`shown`, squaresShown) nothing covers it: what the model took for a hand there (`#`) is the square
 * itself, an empty one, and its share goes to the empty reading (reported, listed, or added).
 */
export function optionsOf(
  tile: string,
  p: number,
  readings: readonly { readonly tile: string; readonly p: number }[],
  shown: boolean,
): { tile: string; p: number }[] {
  let reported = { tile, p };
  let others = readings.filter((o) => o.tile !== tile);
  const hand = shown ? others.find((o) => o.tile === '#') : undefined;
  if (hand) {
    others = others.filter((o) => o !== hand);
    const empty = others.find((o) => o.tile === '.');
    if (tile === '.') reported = { tile, p: Math.min(1, p + hand.p) };
    else if (empty) others = others.map((o) => (o === empty ? { tile: '.', p: o.p + hand.p } : o));
    else others = [...others, { tile: '.', p: hand.p }];
    others.sort((a, b) => b.p - a.p);
  }
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return [reported, ...others].map((o) => ({ tile: o.tile, p: round(o.p) }));
}

/** Shifts of the second look at a doubtful cell, in cells: tiles are rarely centred on their squares. */
const SHIFTS = [
  [0.08, 0],
  [-0.08, 0],
  [0, 0.08],
  [0, -0.08],
] as const;

/**
 * An Ä, Ö or Ü shows itself by two dots above the letter, about a tenth of the tile's height. On a square shorter
 * than this in the photo (pixels), they are a pixel or two, and an E's top bar or serifs read as them: seen from a
 * seat, the far rows' E read as Ü in 19 squares of the rendered seat game's 25 frames, on squares 9–20 pixels tall;
 * the 43 squares of scrabscrap-de's German photos flagged so (read as English) are 55 pixels tall.
 */
const MIN_FOREIGN_PX = 24;

/** The letters of another set read on the squares (`CellReading.foreign`, cells as seen on `corners`), without those
 *  on squares too small in the photo to show an umlaut's dots (MIN_FOREIGN_PX). */
function resolvedForeign(foreign: readonly string[], corners: Corners): readonly string[] {
  if (foreign.every((letter) => !letter)) return foreign;
  const sides = squareSides(corners);
  return foreign.map((letter, i) => {
    if (!letter) return letter;
    return Math.min(sides.tall[i]!, sides.wide[i]!) >= MIN_FOREIGN_PX ? letter : '';
  });
}

/** Settles the squares (`only`, or all) in doubt between a letter and its umlaut by the dots above the letter, on
 *  squares at least MIN_FOREIGN_PX tall and wide in the photo (`faces`: the grid `board` was straightened from). */
function settleUmlauts(
  model: CellModel,
  board: RgbImage,
  probs: Float32Array,
  allowed: ReadonlySet<string> | undefined,
  faces: Corners,
  only: readonly number[] | undefined,
): void {
  if (umlautPairs(allowed).length === 0) return;
  const turns = boardTurns(model, probs);
  let sides: { tall: Float64Array; wide: Float64Array } | undefined;
  const large = (cell: number) => {
    sides ??= squareSides(faces);
    return Math.min(sides.tall[cell]!, sides.wide[cell]!) >= MIN_FOREIGN_PX;
  };
  weighUmlauts(
    model.classes,
    probs,
    board,
    turns,
    allowed,
    only ?? Array.from({ length: 225 }, (_, i) => i),
    large,
  );
}

/** Each square's height and width in the photo (cells as seen on `corners`), measured through its middle. */
function squareSides(corners: Corners): { tall: Float64Array; wide: Float64Array } {
  const h = gridHomography(corners);
  const at = (u: number, v: number): [number, number] => {
    const w = h[6]! * u + h[7]! * v + h[8]!;
    return [(h[0]! * u + h[1]! * v + h[2]!) / w, (h[3]! * u + h[4]! * v + h[5]!) / w];
  };
  const length = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const tall = new Float64Array(225);
  const wide = new Float64Array(225);
  for (let i = 0; i < 225; i++) {
    const [r, c] = [Math.floor(i / 15), i % 15];
    tall[i] = length(at(c + 0.5, r), at(c + 0.5, r + 1));
    wide[i] = length(at(c, r + 0.5), at(c + 1, r + 0.5));
  }
  return { tall, wide };
}

/**
 * The squares of a steep view whose height in the photo is under the seat reader's `belowAspect` of their width (or
 * the other way round), read by the seat reader as well (its crops, then its second look at those it doubts), and
 * each square's shares made the two readings' weighted mean. A square where the two disagree ends unsure, whoever is
 * right: the seat reader alone was sure of real tiles it misread (SeatReader). `only`: just these cells. Their
 * `features` become the seat reader's (where it gives features as wide as the model's): the game's examples of
 * squeezed squares tell the same letter squeezed alike better by them (docs/measurements.md, session 46).
 */
async function readSqueezed(
  seat: SeatReader,
  warped: RgbImage,
  faces: Corners,
  probs: Float32Array,
  features: Float32Array | undefined,
  allowed: ReadonlySet<string> | undefined,
  only: readonly number[] | undefined,
): Promise<void> {
  const asked = only && new Set(only);
  const squeezed = squeezedCells(faces, seat.belowAspect).filter((cell) => !asked || asked.has(cell));
  if (squeezed.length === 0) return;
  const { model, weight } = seat;
  const k = model.classes.length;
  const own = probs.slice();
  const crops = squeezed.map((cell) => ({ cell, dx: 0, dy: 0 }));
  const read = await classifyCells(model, cellCrops(warped, model.size, model.margin, crops), true);
  const f = model.features;
  squeezed.forEach((cell, j) => {
    probs.set(read.probs.subarray(j * k, (j + 1) * k), cell * k);
    if (features && read.features && f === features.length / 225)
      features.set(read.features.subarray(j * f, (j + 1) * f), cell * f);
  });
  await secondLook(model, warped, probs, allowed, new Set(squeezed), false);
  for (const cell of squeezed)
    for (let c = cell * k; c < (cell + 1) * k; c++) probs[c] = weight * probs[c]! + (1 - weight) * own[c]!;
}

/** The cells (as seen on `corners`) whose square's shorter side in the photo is under `below` of its longer. */
function squeezedCells(corners: Corners, below: number): number[] {
  const { tall, wide } = squareSides(corners);
  const out: number[] = [];
  for (let i = 0; i < 225; i++)
    if (Math.min(tall[i]!, wide[i]!) < below * Math.max(tall[i]!, wide[i]!)) out.push(i);
  return out;
}

/** A grid moved onto the board's lines (`ontoLines`) is kept only where every third's lines then lie this near it,
 *  in squares (the 64° game's ten grids moved so: within 0.1). */
const MAX_LINES_MOVED = 0.12;
/** Why a grid turned off the board's lines is in doubt (`BoardReading.gridDoubt`). */
const LINES_OFF = "the board's lines run a quarter of a square or more off it in part of the board";

/** A square whose face-plane reading gives tiles this share is a tile, whatever its board-plane reading. */
const TILE_ON_FACE = 0.9;
/**
 * Views at least this steep (degrees from straight down) read empty squares on the board's plane: there the lifted
 * grid moves a square a fifth of a square or more (the tiles' height times the tilt's tangent), and the model is
 * unsure of it. Nearer straight above, the faces' plane reads them well, and the colour check that tells an empty
 * square from a blank (surface.ts) is left as it was: on the real photos at 25–35° (jheidel-en), reading the empty
 * squares there moved it on two blanks.
 */
const EMPTY_ON_BOARD_TILT = 40;

/**
 * A second look at the cells the first one doubts: each is read again from a few slightly shifted crops and the
 * readings are averaged, so a tile sitting off its square, or a glyph the crop cut oddly, gets a fairer chance. By
 * the model itself: where the first look may be the quick copy's (`byCopy`), the cell's own crop is read again by the
 * model too, so a cell doubtful by the first look's shares ends as the model alone would have read it. (A cell the
 * copy is sure of where the model alone would doubt it gets no second look.)
 */
async function secondLook(
  model: CellModel,
  board: RgbImage,
  probs: Float32Array,
  allowed: ReadonlySet<string> | undefined,
  /** Only these cells (the others were looked at again when they were read). */
  only: ReadonlySet<number> | undefined,
  /** Whether the cells' shares may be the quick copy's (`classifyCells`). */
  byCopy: boolean,
) {
  const k = model.classes.length;
  const first = readCells(model, probs, allowed, undefined, only);
  const doubtful = first.confidence.flatMap((p, i) =>
    p < DEFAULT_THRESHOLD && first.chars[i] !== '.' && (!only || only.has(i)) ? [i] : [],
  );
  if (doubtful.length === 0) return;
  const looks = byCopy ? [[0, 0] as const, ...SHIFTS] : SHIFTS;
  const crops = doubtful.flatMap((cell) => looks.map(([dx, dy]) => ({ cell, dx, dy })));
  const more = (await classifyCells(model, cellCrops(board, model.size, model.margin, crops), true)).probs;
  doubtful.forEach((cell, d) => {
    let at = d * looks.length;
    if (byCopy) probs.set(more.subarray(at * k, ++at * k), cell * k);
    for (let j = 0; j < k; j++) {
      let sum = probs[cell * k + j]!;
      for (let s = 0; s < SHIFTS.length; s++) sum += more[(at + s) * k + j]!;
      probs[cell * k + j] = sum / (SHIFTS.length + 1);
    }
  });
}

function validateCorners(corners: Corners, photo: RgbImage): void {
  const inside = corners.every(
    ([x, y]) =>
      Number.isFinite(x) &&
      Number.isFinite(y) &&
      x >= -photo.width &&
      y >= -photo.height &&
      x <= 2 * photo.width &&
      y <= 2 * photo.height,
  );
  const [a, b, c, d] = corners;
  const area = Math.abs(
    (a[0] * b[1] -
      b[0] * a[1] +
      b[0] * c[1] -
      c[0] * b[1] +
      c[0] * d[1] -
      d[0] * c[1] +
      d[0] * a[1] -
      a[0] * d[1]) /
      2,
  );
  if (!inside || area < 15 * 15 * 16) {
    throw new VisionError(
      'bad-corners',
      'the corners do not outline a board in this image (give x1,y1,…,x4,y4 clockwise from top-left)',
    );
  }
}
