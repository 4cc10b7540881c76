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
 *   else the frame is read whole on the grid found, and it becomes the new reference. A grid found half a square or
 *   more from the last one is taken only where the squares say the board is there (`keptBySquares`): seen steeply,
 *   tall tiles hide the lines, and a search can settle a far row off.
 * Every `fullEvery` frames one is read whole anyway, as a guard (its grid looked for again the same way; where few
 * squares changed, only refined from the last grid, which stands where its lines are gone); a frame someone waits
 * for (`urgent`: an End turn, or a frame an End turn waiting out a hand takes as its own) puts that off, to the next
 * frame nobody waits for, up to DEFER times as long: a whole read costs as much as 4–8 other frames, and an End turn
 * read whole waits that much longer (and makes the frames behind it wait). A client that sends only End turns gets
 * the guard every DEFER·`fullEvery` frames. Whole reads the frame itself calls for (see above) are never put off. A
 * reading is always what `recognize` would make of the pixels each square shows; only the work to get it differs.
 */
import { Buffer } from 'node:buffer';
import { uprightGrid } from './classify.ts';
import { type DecodedImage, decodeImage } from './decode.ts';
import { cornersMoved } from './homography.ts';
import { inNewLight, relight } from './light.ts';
import { type FrameState, locateGrid, type RecognizeOptions, readFrame } from './recognize.ts';
import { changedSquares, lookApart, movedWholeSquares, PER, sampleSquares } from './sampling.ts';
import { gridStayed, type LineProfiles, lineProfiles } from './track.ts';
import { type BoardReading, type Corners, VisionError } from './types.ts';

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

/** More changed squares than this: the camera, the board or the light may have moved; the grid is looked for
 *  again before the squares are read. */
const MOST = 40;
/** More changed squares than this: the frame is read whole even on an unmoved grid (the light changed). */
const NEARLY_ALL = 150;
/** A grid found again whose corners moved less than this share of a square has not moved. */
const UNMOVED = 0.1;
/**
 * A grid found again whose corners lie at least this far from the last grid's (squares of the last grid, where each
 * lies) is found elsewhere, and kept only where the squares say the board is there (keptBySquares). A whole read's
 * search refines a steady camera's grid by less (the rendered seat game at 55°: 0.14 and 0.26 of a square, its
 * reading the better for it, though against the rendered grid it went 0.09 → 0.21 → 0.34 of a square off); one that
 * settled a far row off moved it 1.5 squares (the same game seen at 68°).
 */
const FOUND_ELSEWHERE = 0.5;
/** The last grid is kept against one found elsewhere when the squares under it look at most this share as unlike the
 *  reference as under the other. */
const KEPT_CLEARLY = 0.75;
/** Squares read again in turn on every frame that reads some, as a guard. */
const GUARD = 5;
/** A whole read due (`fullEvery`) waits while frames are waited for, up to this many times as long. */
const DEFER = 3;

/** A square is learnt from only when the model gave what it holds at least this share (else the frame did not show
 *  it: a hand, a tile still moving), and a hand less than `HAND_SHARE`. */
const LEARN_FLOOR = 0.02;
const HAND_SHARE = 0.5;
/** Squares are learnt from in this order (a step coprime with 225), so that the plain squares kept, the newest, come
 *  from all over the board rather than its last rows. */
const LEARN_STEP = 97;

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
  /**
   * The squares the game last committed empty (cells as seen), with their samples then and the grid they were taken
   * on (`learn`): while such a square shows the same pixels, it is the same empty square, whatever the model makes
   * of it (the printed words of a premium square, the side of a tile beside it, seen from a seat).
   */
  private settled: { corners: Corners; samples: Float32Array; empty: Uint8Array } | undefined;
  /** The last frame read (its bytes), for `learn` to know the board it is told of is this frame's. */
  private lastFrame: Uint8Array | undefined;

  constructor(private readonly options: CameraOptions = {}) {}

  /** Reads the next frame; `urgent`: an answer is waited for (an End turn, or a frame it takes as its own), so a
   *  periodic whole read due is put off. */
  async read(bytes: Uint8Array, options: { urgent?: boolean } = {}): Promise<CameraReading> {
    this.reading++;
    try {
      // A read of this camera still running (its caller stopped waiting for it: frames.ts's READ_STALL_MS) may yet
      // draw on the last straightened board (patchBoard): this one reads its frame whole, on a board of its own.
      const read = await this.next(bytes, options, this.reading === 1);
      this.lastFrame = bytes;
      return read;
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
          ...this.keepEmpty(last, samples),
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
        // A grid found elsewhere is not taken where the squares under the last grid look clearly more as they did
        // (keptBySquares): seen steeply, tall tiles cover the lines the lines' check needs, and a search may settle a
        // far row off.
        if (!byLines) found = this.keptBySquares(photo, found, last.corners);
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
        return {
          ...this.keepEmpty(next, samples),
          path: 'changed',
          cellsRead: cells.size,
          ...(gridBy ? { gridBy } : {}),
        };
      }
    }
    const hint = this.options.corners || !same ? undefined : last?.reading.corners;
    // A whole read on a grid followed so far (the guard's, or one beside another read of this camera): the grid is
    // looked for from there, and one found elsewhere taken only where the squares say so (keptBySquares).
    if (!found && hint && last && this.reference) {
      // The squares under the last grid nearly all look as they did (the guard's whole read, every `fullEvery`
      // frames, on a camera that did not move): the grid is refined from where it was, where its lines still are,
      // and else stays. Not searched for in the whole picture: seen steeply, a search settles where the tiles' faces
      // stand over the lines (the rendered game at 68°: 0.32 of a square off the board's grid, against 0.09, and
      // three moves more held; docs/measurements.md, "A grid no camera could see"). Refined from there, it follows
      // the camera's slow drift (a German game's move 21, its Ü read surely only so).
      const before = changedSquares(this.reference, sampleSquares(photo, last.corners)).length;
      let searched: Corners | undefined;
      try {
        searched = await locateGrid(photo, last.corners, before <= MOST);
      } catch (err) {
        if (!(err instanceof VisionError && err.code === 'no-board') || before > MOST) throw err;
      }
      found = searched ? this.keptBySquares(photo, searched, last.corners) : last.corners;
    }
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
      ...this.keepEmpty(next, this.reference),
      path: hint ? 'hint' : 'search',
      cellsRead: 225,
      ...(gridBy ? { gridBy } : {}),
    };
  }

  /**
   * Of a grid found again (`found`) and the last one (`last`), the one the squares say the board is under: the one
   * under which they look clearly more as they did in the reference, whatever the light (`lookApart`). A board or a
   * camera that moved changes nearly every square under the last grid; the tiles of a move change only theirs. Seen
   * steeply, tall tiles hide the lines, and a grid found again can settle a far row off, to be read so from then on
   * (docs/measurements.md, "A steady camera's grid kept by its squares"). A grid found near where it was
   * (FOUND_ELSEWHERE) is taken as found: the reference was sampled under the last grid, so any other looks changed
   * on the squares with letters, and a search may refine a grid a little; so is one where the two look alike.
   */
  private keptBySquares(photo: DecodedImage, found: Corners, last: Corners): Corners {
    if (!this.reference) return found;
    // The grid found, its corners in the last grid's order (a board seen near 45° may start them elsewhere).
    let aligned = found;
    let moved = Number.POSITIVE_INFINITY;
    for (let k = 0; k < 4; k++) {
      const turned = [0, 1, 2, 3].map((i) => found[(i + k) % 4]!) as unknown as Corners;
      const m = cornersMoved(last, turned);
      if (m < moved) [aligned, moved] = [turned, m];
    }
    if (!(moved >= FOUND_ELSEWHERE)) return found;
    const stayed = lookApart(this.reference, sampleSquares(photo, last));
    const there = lookApart(this.reference, sampleSquares(photo, aligned));
    return stayed < KEPT_CLEARLY * there ? last : found;
  }

  /**
   * The game committed `board` (upright board text: 15 rows, `.` empty, a lowercase letter a blank) from this
   * camera's last frame: its squares become examples of this set's look in the camera's memory (options.memory; a
   * steep view's squeezed squares in its squeezed part, or none), except those the frame did not show (see
   * LEARN_FLOOR). Returns how many were learnt. With `frame`, the bytes of
   * the frame the board was read from: when it is this camera's last frame, the squares committed empty are kept
   * empty while they show the same pixels (`keepEmpty`); when it is not (a reading held and confirmed later, the
   * game gone on meanwhile), the squares kept so before are no longer. `teach: false` keeps the empty squares only,
   * and teaches the memory nothing (the empty board before the first move: its printed squares are no examples).
   */
  learn(board: readonly string[], frame?: Uint8Array, { teach = true }: { teach?: boolean } = {}): number {
    const memory = this.options.memory;
    const state = this.state;
    if (!state || board.length !== 15) return 0;
    const { seen, features } = state;
    const at = seenCells(seen.turns);
    const label: string[] = new Array(225);
    at.forEach((cell, upright) => {
      const t = board[Math.floor(upright / 15)]?.[upright % 15] ?? '';
      label[cell] = t === '.' || t === '?' ? t : t === t.toLowerCase() ? '?' : t;
    });
    this.settled = undefined;
    if (
      this.reference &&
      frame !== undefined &&
      this.lastFrame !== undefined &&
      sameBytes(frame, this.lastFrame)
    )
      this.settled = {
        corners: state.corners,
        samples: this.reference.slice(),
        empty: Uint8Array.from(label, (t) => (t === '.' ? 1 : 0)),
      };
    if (!memory || !features || !teach) return 0;
    const size = features.length / 225;
    const keys = seen.scores.keys;
    let learnt = 0;
    for (let k = 0; k < 225; k++) {
      const cell = (k * LEARN_STEP) % 225;
      const row = seen.scores.cells[cell];
      const j = keys.indexOf(label[cell]!);
      const into = state.squeezed?.has(cell) ? memory.squeezed : memory;
      if (!into || !row || row.length === 0 || j < 0) continue;
      const hand = seen.scores.hand[cell] ?? 0;
      let total = hand;
      for (const v of row) total += v;
      if (total <= 0 || row[j]! / total < LEARN_FLOOR || hand / total >= HAND_SHARE) continue;
      into.add(label[cell]!, features.subarray(cell * size, (cell + 1) * size), seen.turns);
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
    this.settled = undefined;
    this.forgotten++;
  }

  /**
   * The frame's reading, with the squares the game last committed empty that show the same pixels as then (their
   * samples within CHANGED of those, on the same grid) read empty, surely. A tile laid there, a hand over it, the
   * light or the camera moved: the pixels differ, and the model's reading stands.
   */
  private keepEmpty(state: FrameState, samples: Float32Array | undefined): BoardReading {
    const settled = this.settled;
    const reading = state.reading;
    if (!settled || !samples) return reading;
    if (!unmoved(state.corners, settled.corners)) {
      this.settled = undefined;
      return reading;
    }
    const changed = new Set(changedSquares(settled.samples, samples));
    const at = seenCells(state.seen.turns);
    const keep = new Set<number>();
    at.forEach((cell, upright) => {
      if (settled.empty[cell] && !changed.has(cell)) keep.add(upright);
    });
    const kept = (s: { row: number; col: number }) => keep.has(s.row * 15 + s.col);
    const changes = reading.board.some((row, r) =>
      [...row].some((c, col) => keep.has(r * 15 + col) && (c !== '.' || reading.confidence[r]![col]! < 1)),
    );
    if (!changes) return reading;
    return {
      ...reading,
      board: reading.board.map((row, r) =>
        [...row].map((c, col) => (keep.has(r * 15 + col) ? '.' : c)).join(''),
      ),
      confidence: reading.confidence.map((row, r) => row.map((p, col) => (keep.has(r * 15 + col) ? 1 : p))),
      unsure: reading.unsure.filter((s) => !kept(s)),
      alternatives: reading.alternatives.filter((s) => !kept(s)),
      ...(reading.foreign ? { foreign: reading.foreign.filter((s) => !kept(s)) } : {}),
    };
  }
}

/** For each square of the upright board, the square as seen in the photo (`turns` quarter turns): upright[i] =
 *  seen[at[i]]. */
function seenCells(turns: Parameters<typeof uprightGrid>[1]): number[] {
  return uprightGrid(
    Array.from({ length: 225 }, (_, i) => i),
    turns,
  );
}

/** Whether two frames are the same bytes (a frame sent again, as an End turn sends the frame the camera just sent). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
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
