/**
 * The rack in a seat camera's foreground: the tiles standing on it, read by the same model as the board's squares.
 *
 * A camera at a player's seat looks across the board from beyond its near edge, and the player's rack stands
 * between the two, its tiles facing the camera. From the grid's homography the camera's pose is known (pose.ts); a
 * tile standing on the table at a place (u, v) of the board's plane, its face one tile wide and one tall and leaning
 * back a little (LEAN), is then a known quadrilateral in the picture. Such faces are cut out (with the margin the
 * model was trained with) along rows in front of the board, every quarter of a square, and read, then the likeliest
 * rows again finely; the rack is the row whose faces read most surely as letters, its tiles the places along it that
 * do, a tile's width apart, and of them the longest run standing side by side.
 *
 * Knows nothing of the game: letters and how sure the model is of each.
 */
import { type CellModel, classifyCells } from './classify.ts';
import { gridHomography } from './homography.ts';
import { cameraPose, projector } from './pose.ts';
import { resample } from './resample.ts';
import type { Corners, Point, RgbImage } from './types.ts';

/** A tile's face, in squares: its width and height (the faces of common sets are about 0.92 of a square). */
const FACE = 0.92;
/** Where racks are looked for: rows this many squares in front of the board's near edge. */
const NEAREST = 0.9;
const FARTHEST = 20;
/** Steps along and across the rows, in squares. */
const STEP = 0.25;
/** Across the board's width and this much beyond each side, in squares. */
const BEYOND = 3;
/** A place reads as a tile when the model gives upright letters at least this share. */
const TILE = 0.5;
/** In the first, coarse look, a place counts toward its row from this share. */
const LIKELY = 0.2;
/** Rows looked at again finely. */
const ROWS = 3;
/**
 * A look told where the rack stood last time on the same grid (`near`) reads only the rows this far either side of
 * it (squares), finely at once: on the seat views, the same rack in 0.4 of the time a whole look takes.
 */
const NEAR_BAND = 0.375;
/** Neighbouring tiles on a rack stand at most this far apart, left edge to left edge, in squares. */
const NEXT = 1.4;
/** A row is a rack when its tiles read as tiles this surely, on average. */
const SURE_RACK = 0.7;
/** A rack shows at least this many tiles side by side (two of a board's printed letters can look like tiles). */
const LEAST_TILES = 3;
/** A letter is sure at this share of the place's letters. */
const SURE = 0.8;
/** A rack tile's other readings are kept from this share of the place's letters… */
const MIN_OPTION = 0.03;
/** …at most this many readings in all. */
const OPTIONS = 3;
/** Crops are cut at twice the model's size and averaged 2×2 down to it, as the board's are. */
const OVERSAMPLE = 2;
/** Views nearer straight above than this (degrees) show no rack in front of the board. */
const MIN_TILT = 30;
/**
 * A rack's tiles lean back against its slanted back, toward the board (degrees; racks lean them 10–20°). Read as
 * standing upright, the rendered seat views gave 9 racks, 7 whole, 44 of 175 tiles; leaning 15°, 11, 9 and 56, none
 * wrong; and the rendered seat game's racks, blurred in the foreground, none at all against most of them.
 */
const LEAN = 15;
const LEAN_SIN = Math.sin((LEAN * Math.PI) / 180);
const LEAN_COS = Math.cos((LEAN * Math.PI) / 180);
/** Faces cut out and read at a time. */
const BATCH = 256;

export interface RackTile {
  /** The letter read, upper case. Blanks are not read: a place reading as a blank tile was most often the rack's
   *  wood, so a blank shows as a gap, and the run of tiles may end there. */
  readonly letter: string;
  /** The model's share for it among the letters at this place. */
  readonly confidence: number;
  /** Whether it is read surely (`confidence` ≥ SURE). */
  readonly sure: boolean;
  /** The likeliest letters here (`letter` first), each with its share among the letters at this place: those of
   *  MIN_OPTION or more, at most OPTIONS of them. What a game weighs an unsure tile by. */
  readonly options: readonly { readonly letter: string; readonly p: number }[];
  /** The face's corners in the picture, top-left first, clockwise. */
  readonly face: readonly Point[];
}

export interface RackReading {
  /** The rack's tiles from the player's left to right. */
  readonly tiles: readonly RackTile[];
  /** The rack's distance in front of the board's near edge, in squares. */
  readonly distance: number;
}

/**
 * The rack standing in front of the board's near edge (the edge from `corners[3]` to `corners[2]`, the picture's
 * lower one, for corners ordered as the picture shows them), or undefined when no row of tiles is seen there or
 * the view is too near straight above to have one.
 */
export async function readRack(
  image: RgbImage,
  corners: Corners,
  model: CellModel,
  /** The letters of the game's tile set, upper case: others are not read (default: any the model knows). */
  letters?: readonly string[],
  /** The rack's `distance` in the last look on this grid, if one was found: only the rows around it are read. */
  near?: number,
): Promise<RackReading | undefined> {
  const pose = cameraPose(corners, image);
  if (!pose?.solved || pose.tilt < MIN_TILT) return undefined;
  const at = projector(pose, image);
  const m = model.margin;
  // Every place: the face standing on (u, v), u its left edge, grown by the model's margin.
  const place = (u: number, v: number): Place | undefined => {
    // A point `d` up the face from its foot, the face leaning back toward the board by LEAN.
    const up = (x: number, d: number) => at(x, v - d * LEAN_SIN, d * LEAN_COS);
    const quad = (grow: number): Point[] => [
      up(u - grow * FACE, FACE * (1 + grow)),
      up(u + FACE * (1 + grow), FACE * (1 + grow)),
      up(u + FACE * (1 + grow), -grow * FACE),
      up(u - grow * FACE, -grow * FACE),
    ];
    const face = quad(0);
    if (!face.every(([x, y]) => x >= 0 && y >= 0 && x < image.width && y < image.height)) return undefined;
    return { u, v, face, crop: quad(m) };
  };
  const upright = model.classes.flatMap((name, i) =>
    /^.0$/u.test(name) && (!letters || letters.includes(name[0]!)) ? [{ i, letter: name[0]! }] : [],
  );
  const readPlaces = (places: Place[]) => readFaces(image, model, places, upright);
  // First every quarter of a square; then, around the rows most like a rack, every sixteenth across and eighth along.
  // The fine places of the rows from..to (in front of the board), from u0 to u1.
  const finely = (from: number, to: number, u0: number, u1: number): Place[] => {
    const out: Place[] = [];
    for (let v = 15 + from; v <= 15 + to + 1e-9; v += STEP / 4)
      for (let u = u0; u <= u1; u += STEP / 2) {
        const p = place(u, v);
        if (p) out.push(p);
      }
    return out;
  };
  let fine: Place[] = [];
  if (near !== undefined) {
    fine = finely(Math.max(NEAREST, near - NEAR_BAND), near + NEAR_BAND, -BEYOND, 15 + BEYOND - FACE);
  } else {
    const coarse: Place[] = [];
    for (let v = 15 + NEAREST; v <= 15 + FARTHEST; v += STEP)
      for (let u = -BEYOND; u + FACE <= 15 + BEYOND; u += STEP) {
        const p = place(u, v);
        if (p) coarse.push(p);
      }
    if (coarse.length === 0) return undefined;
    for (const row of rows(await readPlaces(coarse), LIKELY).slice(0, ROWS)) {
      const us = row.tiles.map((t) => t.u);
      fine.push(
        ...finely(row.v - 15 - STEP, row.v - 15 + STEP, Math.min(...us) - 1.5, Math.max(...us) + 1.5),
      );
    }
  }
  if (fine.length === 0) return undefined;
  const row = rows(await readPlaces(fine), TILE)[0];
  if (!row) return undefined;
  // A rack's tiles stand side by side: the longest run of them, each within a gap of the next.
  const sorted = [...row.tiles].sort((a, b) => a.u - b.u);
  let run: ReadPlace[] = [];
  let current: ReadPlace[] = [];
  for (const t of sorted) {
    current = current.length > 0 && t.u - current[current.length - 1]!.u <= NEXT ? [...current, t] : [t];
    if (current.length > run.length) run = current;
  }
  const mean = (f: (t: ReadPlace) => number) => run.reduce((s, t) => s + f(t), 0) / run.length;
  if (run.length < LEAST_TILES || mean((t) => t.tile) < SURE_RACK) return undefined;
  return {
    distance: row.v - 15,
    tiles: run.map((t) => ({
      letter: t.letter,
      confidence: t.confidence,
      sure: t.confidence >= SURE,
      options: t.options,
      face: t.face,
    })),
  };
}

interface Place {
  readonly u: number;
  readonly v: number;
  readonly face: Point[];
  readonly crop: Point[];
}
interface ReadPlace extends Place {
  /** The model's share of upright letters here. */
  readonly tile: number;
  readonly letter: string;
  readonly confidence: number;
  readonly options: readonly { readonly letter: string; readonly p: number }[];
}

/**
 * The places' faces cut out and read: how much each reads as a tile, and its likeliest letter. In batches of BATCH,
 * each cut out and then read: the cutting is the processor's, and a server reading a rack between a game's frames
 * must not stop answering for the whole look (about 0.7 s in one piece here).
 */
async function readFaces(
  image: RgbImage,
  model: CellModel,
  places: readonly Place[],
  upright: readonly { i: number; letter: string }[],
): Promise<ReadPlace[]> {
  const out: ReadPlace[] = [];
  for (let from = 0; from < places.length; from += BATCH)
    out.push(...(await readBatch(image, model, places.slice(from, from + BATCH), upright)));
  return out;
}

async function readBatch(
  image: RgbImage,
  model: CellModel,
  places: readonly Place[],
  upright: readonly { i: number; letter: string }[],
): Promise<ReadPlace[]> {
  const size = model.size;
  const plane = size * size;
  const cells = new Float32Array(places.length * 3 * plane);
  const big = size * OVERSAMPLE;
  const s = 15 / big;
  places.forEach((p, k) => {
    // The crop's pixels → the picture's: the crop's square onto its quadrilateral.
    const h = gridHomography(p.crop);
    const toSource = [h[0]! * s, h[1]! * s, h[2]!, h[3]! * s, h[4]! * s, h[5]!, h[6]! * s, h[7]! * s, h[8]!];
    const px = resample(image, 3, toSource, big, big);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = 0; dy < OVERSAMPLE; dy++)
            for (let dx = 0; dx < OVERSAMPLE; dx++)
              sum += px[((y * OVERSAMPLE + dy) * big + x * OVERSAMPLE + dx) * 3 + c]!;
          cells[k * 3 * plane + c * plane + y * size + x] = sum / (OVERSAMPLE * OVERSAMPLE * 255);
        }
      }
    }
  });
  const { probs } = await classifyCells(model, cells);
  const k = model.classes.length;
  return places.map((p, n) => {
    let tile = 0;
    // The likeliest OPTIONS letters, likeliest first.
    const top: { letter: string; share: number }[] = [];
    for (const { i, letter } of upright) {
      const share = probs[n * k + i]!;
      tile += share;
      if (top.length === OPTIONS && share <= top[OPTIONS - 1]!.share) continue;
      let at = top.length;
      while (at > 0 && top[at - 1]!.share < share) at--;
      top.splice(at, 0, { letter, share });
      if (top.length > OPTIONS) top.pop();
    }
    const best = top[0] ?? { letter: '', share: 0 };
    const options =
      tile > 0
        ? top
            .map((t) => ({ letter: t.letter, p: t.share / tile }))
            .filter((o, j) => j === 0 || o.p >= MIN_OPTION)
        : [];
    return { ...p, tile, letter: best.letter, confidence: tile > 0 ? best.share / tile : 0, options };
  });
}

/**
 * The rows of places, each with its tiles (places reading as a tile at least `least`, the surest first, a face
 * apart), the rows whose tiles read most surely in all first.
 */
function rows(read: readonly ReadPlace[], least: number): { v: number; tiles: ReadPlace[]; score: number }[] {
  const byRow = new Map<number, ReadPlace[]>();
  for (const r of read) {
    const key = Math.round(r.v * 64);
    const row = byRow.get(key);
    if (row) row.push(r);
    else byRow.set(key, [r]);
  }
  const out: { v: number; tiles: ReadPlace[]; score: number }[] = [];
  for (const row of byRow.values()) {
    const tiles: ReadPlace[] = [];
    for (const r of row.filter((x) => x.tile >= least).sort((a, b) => b.tile - a.tile))
      if (tiles.every((t) => Math.abs(t.u - r.u) >= FACE)) tiles.push(r);
    if (tiles.length > 0) out.push({ v: row[0]!.v, tiles, score: tiles.reduce((s, t) => s + t.tile, 0) });
  }
  return out.sort((a, b) => b.score - a.score);
}
