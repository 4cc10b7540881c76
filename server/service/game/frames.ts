/**
 * What both kinds of game do with a camera frame: read it (vision errors become service errors), make the small
 * picture the scorekeeper's and camera pages show. What the reading means for the game is interpret.ts's.
 */
import {
  type BoardReading,
  type Camera,
  type Corners,
  checkImage,
  decodeImage,
  type KeptImage,
  keptImage,
  loadModel,
  locateGrid,
  openImage,
  orderCorners,
  prepareVision,
  type RackReading,
  readRack,
  recognize,
  VisionError,
} from '../../../vision/index.ts';
import { type Board, parseBoard, type TileSetId, tileSets } from '../../engine/index.ts';
import { readingLexicon } from '../../lexicon/index.ts';
import type { ServerMessage } from '../../protocol/index.ts';
import { ServiceError } from '../errors.ts';

export type Thumbnail = Extract<ServerMessage, { type: 'thumbnail' }>['data'];

/** What the camera may report for a game in `lang`: the letters of its tile set, and no more blanks than it has. */
export function readingOptions(lang: TileSetId): { letters: string; blanks: number } {
  return { letters: tileSets[lang].letters.map(([l]) => l).join(''), blanks: tileSets[lang].blanks };
}

/**
 * Loads what reading frames needs (the model, OpenCV, the lexicons that break ties between readings) now, not with
 * the first frame: a worker taking a hall's queues over, or a server at a round's first frames, answers them at speed.
 * The German lexicon is worked out once (about 2 s) and kept in a file (server/lexicon).
 */
export async function prepareReading(): Promise<void> {
  try {
    await prepareVision();
    for (const lang of ['en', 'de'] as const) readingLexicon(lang)?.has('A');
  } catch (err) {
    // Not ready is not broken: what failed fails again with the first frame, and is reported there.
    console.error(`tilecam: could not load what reading frames needs ahead: ${(err as Error).message}`);
  }
}

/** Frames waiting to be read in this process, by whether someone waits for the answer (`oneAtATime`), each with
 *  when it was queued. */
const waiting: {
  readonly urgent: { start: () => void; at: number }[];
  readonly other: { start: () => void; at: number }[];
} = { urgent: [], other: [] };
/** Whether a read holds the others up (running, and not let go: `READ_STALL_MS`). */
let busy = false;
/** A read still running after this long no longer holds the others up (none is known to: a hang in a native
 *  library, say). */
const READ_STALL_MS = 10_000;
/** A frame no one waits for that has waited this long goes before those someone waits for: they cannot hold it up
 *  for ever (a flood of checks' photos, say), and an automatic capture or a hand's wait needs it. */
const OTHER_WAIT_MS = 2000;

/** Begins the next frame's read: one someone waits for first, else the one waiting longest; but a frame no one waits
 *  for that has waited OTHER_WAIT_MS before all. */
function nextRead(): void {
  const late = (waiting.other[0]?.at ?? Number.POSITIVE_INFINITY) <= performance.now() - OTHER_WAIT_MS;
  const next = (late ? waiting.other.shift() : undefined) ?? waiting.urgent.shift() ?? waiting.other.shift();
  busy = next !== undefined;
  next?.start();
}

/**
 * Runs `read` once the reads begun before it in this process have ended, one at a time: first the frames someone
 * waits for (`urgent`: an End turn, a frame one waiting out a hand takes as its own, a check's photo), first come
 * first served, then the others (a camera's frames between turns, at most one waiting per camera: service.ts), unless
 * one of those has waited OTHER_WAIT_MS. An End turn still waits for its own game's frames before it (its game's
 * queue: service.ts), read in their turn. A read is work for the processor with short waits in it (the decode, the
 * model); frames read at once shared it, so each took as long as all of them together. In the hall's two-worker
 * phase (16 games a worker), four runs each way alternated: frame posted → every viewer updated p50 48/42/59/82 ms
 * and p99 298/244/358/360 one at a time, against 59/69/87/145 and 307/493/589/587 interleaved. With 32 cameras
 * streaming a frame a second into one process, End turns first: decided p50 155/338 → 142/65 ms. A read must not
 * read another frame itself (it would wait for itself until READ_STALL_MS).
 */
function oneAtATime<T>(read: () => Promise<T>, urgent: boolean): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const start = () => {
      let released = false;
      // Counted from when this read begins, not from when it was queued.
      const stalled = setTimeout(() => {
        console.error(`a frame read has run ${READ_STALL_MS / 1000} s: the next ones no longer wait for it`);
        release();
      }, READ_STALL_MS);
      stalled.unref();
      function release() {
        if (released) return;
        released = true;
        clearTimeout(stalled);
        nextRead();
      }
      let running: Promise<T>;
      try {
        running = read();
      } catch (err) {
        release();
        return reject(err);
      }
      running.then(
        (value) => {
          release();
          resolve(value);
        },
        (err: unknown) => {
          release();
          reject(err);
        },
      );
    };
    (urgent ? waiting.urgent : waiting.other).push({ start, at: performance.now() });
    if (!busy) nextRead();
  });
}

/** The vision's refusal of a picture as the service's (a picture over the pixel limit: 413); anything else as it is. */
export function asServiceError(err: unknown): unknown {
  if (!(err instanceof VisionError) || err.code === 'no-model') return err;
  const code =
    err.code === 'no-board' ? 'no-board' : err.code === 'image-too-large' ? 'too-large' : 'bad-image';
  return new ServiceError(code, err.message);
}

/** Refuses a picture the vision would not read, by its header (a rack camera's frame, decoded in a thread). */
export async function checkFrame(bytes: Uint8Array): Promise<void> {
  try {
    await checkImage(bytes);
  } catch (err) {
    throw asServiceError(err);
  }
}

/**
 * The rack standing in front of the board in a frame, for a game in `lang`; undefined when none is seen. `corners`:
 * the grid as the frame's reading gave it (upright, in the frame's own pixels); without them (a rack camera's frame,
 * which is not read as the board) the board is looked for first, and none found is no rack. About 1–2 s here, cut into
 * pieces (vision/rack.ts) and not one of the frames read `oneAtATime`: frames and End turns go on being read
 * between its pieces, sharing the processor with it.
 */
export async function readRackIn(
  bytes: Uint8Array,
  corners: Corners | undefined,
  lang: TileSetId,
  /** Where the rack stood in the last look on this grid (vision's readRack). */
  near?: number,
): Promise<RackReading | undefined> {
  const photo = await decodeImage(bytes);
  let inView: Corners;
  if (corners)
    // The rack stands in front of the picture's lower edge of the grid: the corners as the picture shows them.
    inView = orderCorners(
      corners.map(([x, y]) => [x * photo.scaleX, y * photo.scaleY]),
    ) as unknown as Corners;
  else {
    // With the board reader's own checks (enough evidence, lines fitted, not off the picture): no board, no rack.
    try {
      inView = await locateGrid(photo);
    } catch (err) {
      if (err instanceof VisionError && err.code === 'no-board') return undefined;
      throw err;
    }
  }
  return readRack(photo, inView, await loadModel(), [...readingOptions(lang).letters], near);
}

/**
 * A photo as it is kept (vision's keptImage: never more than its picture, at most 2000 px a side); a picture the
 * vision refuses is the service's error.
 */
export async function keptPhoto(bytes: Uint8Array): Promise<KeptImage> {
  try {
    return await keptImage(bytes);
  } catch (err) {
    throw asServiceError(err);
  }
}

/**
 * Reads a frame for a game in `lang`: alone, or (`camera`) as the next frame of a steady camera, which reads again
 * only what changed. A picture that is no image, or shows no board, is a ServiceError (`bad-image`, `no-board`); a
 * model that cannot be loaded is the server's fault, not the picture's, and goes on as it is.
 */
export async function readFrame(
  bytes: Uint8Array,
  lang: 'en' | 'de',
  camera?: Camera,
  /** An answer is waited for (an End turn, a frame one waiting out a hand takes as its own, a check's photo): read
   *  before the frames no one waits for (`oneAtATime`), and the camera puts a periodic whole read due off
   *  (vision/camera.ts). */
  urgent = false,
): Promise<{ reading: BoardReading; board: Board }> {
  let reading: BoardReading;
  try {
    reading = await oneAtATime(
      () => (camera ? camera.read(bytes, { urgent }) : recognize(bytes, readingOptions(lang))),
      urgent,
    );
    // A grid that does not lie on the board read nothing of it: the picture shows no board the reader can use.
    if (reading.gridDoubt) throw new VisionError('no-board', reading.gridDoubt);
  } catch (err) {
    throw asServiceError(err);
  }
  const read = parseBoard(reading.board);
  if (!read.ok) throw new Error(read.message);
  return { reading, board: read.board };
}

/**
 * A small JPEG of the frame (EXIF orientation applied) and the grid found in it, in the frame's own pixels; with
 * `picture` false, only the grid and the frame's size (its header read, the picture not made: about 9 ms less a
 * frame here, as much as reading a steady frame).
 */
export async function makeThumbnail(
  bytes: Uint8Array,
  corners: Corners | null,
  picture = true,
): Promise<Thumbnail> {
  const image = openImage(bytes).rotate();
  const meta = await image.metadata();
  // EXIF orientation 5–8 swaps the sides.
  const swap = (meta.orientation ?? 1) >= 5;
  const grid = {
    width: (swap ? meta.height : meta.width) ?? 0,
    height: (swap ? meta.width : meta.height) ?? 0,
    corners: corners ? corners.map(([x, y]) => [x, y] as [number, number]) : null,
  };
  if (!picture) return grid;
  const jpeg = (await image.resize(320, 320, { fit: 'inside' }).jpeg({ quality: 60 }).toBuffer()).toString(
    'base64',
  );
  return { jpeg, ...grid };
}
