/**
 * One steady camera read frame after frame, doing again only what changed. Between two turns a camera over a
 * board sends the same board over and over; an End turn changes 2 to 7 of its 225 squares. So each frame is
 * decoded and, on the grid of the last frame, each square is sampled at a few points (a few hundred pixels in all)
 * and compared with what the square showed when it was last read:
 * - nothing changed: the last reading stands (the pixels that made it are the same);
 * - a few squares changed: only they (and a few others in turn, as a guard) are read again, on the same grid;
 * - many changed (a hand over the board, moves taken back, the camera or the board moved, the light changed): first
 *   the grid lines are looked at where the grid puts them (track.ts, about 3 ms). When they stand where they stood
 *   when the grid was last found (three in four of them, to a twentieth of a square at the corners), and the squares
 *   do not look more as they did one to seven whole squares away than in place (a board moved by whole squares puts
 *   each line on another), the grid has stayed. Should a move still pass both (none of 826 real ones did), its
 *   squares would be read off by whole squares until the next whole read, and the game would refuse such a board,
 *   not score it. The lines kept are those of the last whole read: after many frames of new tiles fewer of them
 *   match, and the grid is looked for more often until the next whole read. Else the grid is looked for again, from
 *   the last one; where it has not moved (by a tenth of a square at most: the grid found again from the same pixels
 *   varies by about half that) and not most of the board changed, still only the changed squares are read again;
 *   else the frame is read whole on the grid found, and it becomes the new reference.
 * Every `fullEvery` frames one is read whole anyway, as a guard; a frame someone waits for (`urgent`: an End turn,
 * or a frame an End turn waiting out a hand takes as its own) puts that off, to the next frame nobody waits for, up
 * to DEFER times as long: a whole read costs as much as 4–8 other frames, and an End turn read whole waits that much
 * longer (and makes the frames behind it wait). A client that sends only End turns gets the guard every
 * DEFER·`fullEvery` frames. Whole reads the frame itself calls for (see above) are never put off. A reading
 * is always what `recognize` would make of the pixels each square shows; only the work to get it differs.
 */
import { uprightGrid } from './classify.ts';
import { decodeImage } from './decode.ts';
import { gridHomography } from './homography.ts';
import { type FrameState, locateGrid, type RecognizeOptions, readFrame } from './recognize.ts';
import { gridStayed, type LineProfiles, lineProfiles } from './track.ts';
import type { BoardReading, Corners } from './types.ts';

/** How a frame was read: searched for the board, its grid found again from the last one, the same as the last
 *  frame, or some squares read again. */
export type ReadPath = 'search' | 'hint' | 'still' | 'changed';

export interface CameraReading extends BoardReading {
  readonly path: ReadPath;
  /** Squares classified again for this frame (225 for a whole read). */
  readonly cellsRead: number;
  /** When many squares changed (and the grid is not fixed): how it was made sure of, by its lines, or looked for
   *  again. */
  readonly gridBy?: 'lines' | 'search';
}

export interface CameraOptions extends Omit<RecognizeOptions, 'hint' | 'corners' | 'inspect'> {
  /** A frame is read whole at least this often (default 30). */
  readonly fullEvery?: number;
  /** Fixed grid corners (a mounted camera): never searched for. */
  readonly corners?: Corners;
  /**
   * How a frame with many squares changed makes sure the grid has not moved: by its lines first (`lines`, the
   * default), or always by looking for the grid again (`search`, as before the lines were asked; for comparison).
   */
  readonly gridCheck?: 'lines' | 'search';
}

/** Sample points per square, on each axis, inside its inner part (the grid lines and tile edges left out). */
const SAMPLES = 5;
const INNER = 0.6;
/** A square whose samples moved by more than this (mean absolute difference in grey levels) has changed. */
const CHANGED = 14;
/** More changed squares than this: the camera, the board or the light may have moved; the grid is looked for
 *  again before the squares are read. */
const MOST = 40;
/** More changed squares than this: the frame is read whole even on an unmoved grid (the light changed). */
const NEARLY_ALL = 150;
/** A grid found again whose corners moved less than this share of a square has not moved. */
const UNMOVED = 0.1;
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
/** Squares read again in turn on every frame that reads some, as a guard. */
const GUARD = 5;
/** A whole read due (`fullEvery`) waits while frames are waited for, up to this many times as long. */
const DEFER = 3;

export class Camera {
  private state: FrameState | undefined;
  /** Grey samples of every square, as the squares were when last read. */
  private reference: Float32Array | undefined;
  /** The profiles across the grid lines in the frame the grid was last found in (track.ts). */
  private lines: LineProfiles | undefined;
  private sinceFull = 0;
  /** How often the examples were forgotten (`unlearn`), and up to which of those times the readings were made again
   *  without them (every square's, from what the model saw). */
  private forgotten = 0;
  private rethought = 0;
  private guard = 0;
  /** Reads of this camera running now. */
  private reading = 0;

  constructor(private readonly options: CameraOptions = {}) {}

  /** Reads the next frame; `urgent`: an answer is waited for (an End turn, or a frame it takes as its own), so a
   *  periodic whole read due is put off. */
  async read(bytes: Uint8Array, options: { urgent?: boolean } = {}): Promise<CameraReading> {
    this.reading++;
    try {
      // A read of this camera still running (its caller stopped waiting for it: frames.ts's READ_STALL_MS) may yet
      // draw on the last straightened board (patchBoard): this one reads its frame whole, on a board of its own.
      return await this.next(bytes, options, this.reading === 1);
    } finally {
      this.reading--;
    }
  }

  private async next(
    bytes: Uint8Array,
    { urgent = false }: { urgent?: boolean },
    alone: boolean,
  ): Promise<CameraReading> {
    const since = performance.now();
    const last = this.state;
    // Forgotten since the last reading made: made again now. A forgetting that comes while this frame is read (or
    // a frame that cannot be read) leaves it to the next.
    const forgotten = this.forgotten;
    const rethink = this.rethought !== forgotten;
    const photo = await decodeImage(bytes);
    const decoded = performance.now();
    // A frame of another size is another view (a phone turned, another resolution): searched for afresh.
    const same = last && photo.width === last.size.width && photo.height === last.size.height;
    /** The grid, when it was looked for again already (many squares changed), and how. */
    let found: Corners | undefined;
    let gridBy: CameraReading['gridBy'];
    const every = this.options.fullEvery ?? 30;
    if (alone && last && same && this.reference && this.sinceFull < (urgent ? DEFER * every : every)) {
      const samples = sampleSquares(photo, last.corners);
      const changed = changedSquares(this.reference, samples);
      // Many changed: perhaps the light did (a lamp, a cloud, the camera's exposure). Compared in this frame's light,
      // fewer may have: only those are read again, once the grid is known to be where it was (below).
      const lit = changed.length > MOST ? inNewLight(this.reference, samples, changed) : undefined;
      const relit = lit?.squares;
      const toRead = relit && relit.length < changed.length ? relit : changed;
      if (changed.length === 0 && !rethink) {
        this.sinceFull++;
        const round = (t: number) => Math.round(t * 10) / 10;
        const now = performance.now();
        return {
          ...last.reading,
          ms: {
            decode: round(decoded - since),
            locate: round(now - decoded),
            classify: 0,
            total: round(now - since),
          },
          path: 'still',
          cellsRead: 0,
        };
      }
      // Many changed: is the grid where it was? Its lines say so at once when it is (a mounted camera's does not
      // move); else it is looked for again, from where it was.
      if (changed.length > MOST && this.options.corners) found = last.corners;
      else if (changed.length > MOST) {
        const byLines =
          this.options.gridCheck !== 'search' &&
          // Nearly every square changed: the frame is read whole; the grid is looked for again for it.
          toRead.length <= NEARLY_ALL &&
          this.lines !== undefined &&
          gridStayed(this.lines, lineProfiles(photo, last.corners)) &&
          !movedWholeSquares(this.reference, samples);
        found = byLines ? last.corners : await locateGrid(photo, last.corners);
        gridBy = byLines ? 'lines' : 'search';
      }
      if (changed.length <= MOST || (toRead.length <= NEARLY_ALL && unmoved(found!, last.corners))) {
        const cells = new Set(toRead);
        for (let k = 0; k < GUARD; k++) cells.add((this.guard + k) % 225);
        this.guard = (this.guard + GUARD) % 225;
        let next: FrameState;
        try {
          next = await readFrame(
            bytes,
            this.options,
            { state: last, cells: [...cells].sort((a, b) => a - b), rethink },
            { photo, since, decoded },
          );
        } catch (err) {
          // The last straightened board may have been drawn on already (patchBoard): the next frame is read whole.
          this.reference = undefined;
          throw err;
        }
        this.state = next;
        this.rethought = forgotten;
        // The squares not read again are as they were, in this frame's light: so they are compared from now on.
        if (toRead === relit) relight(this.reference, lit!.light);
        for (const cell of cells)
          this.reference.set(samples.subarray(cell * PER, (cell + 1) * PER), cell * PER);
        this.sinceFull++;
        return { ...next.reading, path: 'changed', cellsRead: cells.size, ...(gridBy ? { gridBy } : {}) };
      }
    }
    const hint = this.options.corners || !same ? undefined : last?.reading.corners;
    const next = await readFrame(
      bytes,
      {
        ...this.options,
        ...(this.options.corners ? { corners: this.options.corners } : {}),
        ...(hint ? { hint } : {}),
      },
      undefined,
      { photo, since, decoded, ...(found ? { corners: found } : {}) },
    );
    if (next.reading.gridDoubt) {
      // A grid off the board is not followed: the next frame looks for the board afresh.
      this.state = undefined;
      this.reference = undefined;
      this.lines = undefined;
      return {
        ...next.reading,
        path: hint ? 'hint' : 'search',
        cellsRead: 225,
        ...(gridBy ? { gridBy } : {}),
      };
    }
    this.state = next;
    this.rethought = forgotten;
    this.reference = sampleSquares(photo, next.corners);
    // The lines as they stand on the grid just found (a mounted camera's fixed grid is never looked for).
    this.lines = this.options.corners ? undefined : lineProfiles(photo, next.corners);
    this.sinceFull = 0;
    return {
      ...next.reading,
      path: hint ? 'hint' : 'search',
      cellsRead: 225,
      ...(gridBy ? { gridBy } : {}),
    };
  }

  /**
   * The game committed `board` (upright board text: 15 rows, `.` empty, a lowercase letter a blank) from this
   * camera's last frame: its squares become examples of this set's look in the camera's memory (options.memory),
   * except those the frame did not show (see LEARN_FLOOR). Returns how many were learnt.
   */
  learn(board: readonly string[]): number {
    const memory = this.options.memory;
    const state = this.state;
    if (!memory || !state?.features || board.length !== 15) return 0;
    const { seen, features } = state;
    const size = features.length / 225;
    // upright[i] = seen[at[i]]
    const at = uprightGrid(
      Array.from({ length: 225 }, (_, i) => i),
      seen.turns,
    );
    const label: string[] = new Array(225);
    at.forEach((cell, upright) => {
      const t = board[Math.floor(upright / 15)]?.[upright % 15] ?? '';
      label[cell] = t === '.' || t === '?' ? t : t === t.toLowerCase() ? '?' : t;
    });
    const keys = seen.scores.keys;
    let learnt = 0;
    for (let k = 0; k < 225; k++) {
      const cell = (k * LEARN_STEP) % 225;
      const row = seen.scores.cells[cell];
      const j = keys.indexOf(label[cell]!);
      if (!row || row.length === 0 || j < 0) continue;
      const hand = seen.scores.hand[cell] ?? 0;
      let total = hand;
      for (const v of row) total += v;
      if (total <= 0 || row[j]! / total < LEARN_FLOOR || hand / total >= HAND_SHARE) continue;
      memory.add(label[cell]!, features.subarray(cell * size, (cell + 1) * size), seen.turns);
      learnt++;
    }
    return learnt;
  }

  /**
   * Forgets what the camera learnt of the set (a committed square was corrected: the examples may include a wrong
   * one). Its next frame's readings are all made again from what the model saw in each square (kept: the pixels
   * are the same), without the examples; only the squares that changed are classified again.
   */
  unlearn(): void {
    this.options.memory?.clear();
    this.forgotten++;
  }
}

const PER = SAMPLES * SAMPLES;

/** A square is learnt from only when the model gave what it holds at least this share (else the frame did not show
 *  it: a hand, a tile still moving), and a hand less than `HAND_SHARE`. */
const LEARN_FLOOR = 0.02;
const HAND_SHARE = 0.5;
/** Squares are learnt from in this order (a step coprime with 225), so that the plain squares kept, the newest, come
 *  from all over the board rather than its last rows. */
const LEARN_STEP = 97;

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

/** Whether a grid found again (`corners`) is where it was (`before`): no corner moved by `UNMOVED` of a square. */
function unmoved(corners: Corners, before: Corners): boolean {
  // A square's size: a fifteenth of the grid's shortest side.
  let side = Infinity;
  for (let k = 0; k < 4; k++) {
    const [a, b] = [before[k]!, before[(k + 1) % 4]!];
    side = Math.min(side, Math.hypot(a[0] - b[0], a[1] - b[1]));
  }
  return corners.every(
    ([x, y], k) => Math.hypot(x - before[k]![0], y - before[k]![1]) <= (UNMOVED * side) / 15,
  );
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

/** The mean absolute difference of square `cell`'s samples from the reference's, as the reference looks in `light`. */
function difference(reference: Float32Array, samples: Float32Array, cell: number, light?: Light): number {
  const [gain, offset] = light ? lightAt(light, cell) : [1, 0];
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
    const d = difference(reference, samples, cell, light);
    if (d > CHANGED || (before.has(cell) && d > LIGHT_EXPLAINS)) out.push(cell);
  }
  return out;
}

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
    const misfits = kept.map((cell) => difference(reference, samples, cell, light)).sort((p, q) => p - q);
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
function relight(reference: Float32Array, light: Light): void {
  for (let cell = 0; cell < 225; cell++) {
    const [gain, offset] = lightAt(light, cell);
    for (let k = cell * PER; k < (cell + 1) * PER; k++) reference[k] = gain * reference[k]! + offset;
  }
}
