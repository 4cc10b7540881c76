/**
 * The frame intake of a live game: each camera seat's last frame and grid hint, the steady camera that reads it, the
 * pictures the camera pages watch (shared with the other instances in a hall), and doubled End turns.
 */
import { createHash } from 'node:crypto';
import { Camera, type Corners, TileMemory } from '../../../vision/index.ts';
import type { Board } from '../../engine/index.ts';
import type { Look } from '../../protocol/index.ts';
import { ServiceError } from '../errors.ts';
import type { CameraPictures } from './contract.ts';
import { makeThumbnail, readFrame, readingOptions, type Thumbnail } from './frames.ts';

/**
 * The camera pictures of a game shared with the other instances of the service (over the bus): a page watching the
 * cameras on one instance sees the frames taken on another (a hall behind a load balancer: the camera page posts its
 * frames to one instance, the scorekeeper's page listens on another).
 */
export interface PictureShare {
  /** What pages on other instances watch of this game's cameras: the pictures, only the grid, or nothing. */
  watched(): Promise<Watching>;
  /** Sends a picture taken here (or only its grid: no `jpeg`) to them. */
  send(thumb: Thumbnail): void;
  /** Tells the others what the pages here watch (called when that changes). */
  watching(here: Watching): void;
}

/**
 * What pages watch of a game's cameras: their pictures (the scorekeeper's page shows them), only where the grid was
 * found in each frame (the camera page draws it over its own live view: `camera-view` with `pictures: false`), or
 * nothing. A picture costs as much as reading a steady frame (the JPEG decoded again, shrunk and encoded: about
 * 9 ms here); a grid, the photo's header.
 */
export type Watching = 'pictures' | 'grid' | false;

/** The share of a game whose pictures go nowhere else: a server alone, or a worker (it has no pages). */
export const NO_SHARE: PictureShare = {
  watched: async () => false,
  send: () => {},
  watching: () => {},
};

/** A camera picture without the picture: the grid and the frame's size. */
function gridOf({ jpeg: _, ...grid }: Thumbnail): Thumbnail {
  return grid;
}

/** The more of two: pictures over grid over nothing. */
function most(a: Watching, b: Watching): Watching {
  return a === 'pictures' || b === 'pictures' ? 'pictures' : a || b;
}

/**
 * How old a camera's last frame may be for End turn pressed on the scorekeeper's page to read it: the camera page
 * sends one at least every 5 s (and at once when the picture changes), so an older one means the camera stopped (a
 * phone's screen locked, the page closed), and the board it shows may be moves behind (read, it would be recorded
 * as a pass).
 */
export const LAST_FRAME_MS = 20_000;

/** How long the answer to "is it watched elsewhere?" is kept before Redis is asked again. */
const WATCHED_MS = 1000;

/**
 * Camera frames coming in, per seat: each seat's frames are read as one steady camera (vision's Camera: the grid of
 * the last frame tried first, only the squares whose pixels changed read again), the last one kept as the seat's
 * last frame (End turn from the scorekeeper's page reads it), and shown small to whoever watches the cameras. It
 * also notices a doubled End turn: the very frame that has just ended a turn, again.
 */
export class FrameIntake implements CameraPictures {
  private readonly frames = new Map<number, { bytes: Uint8Array; at: number }>();
  /** When each seat's last picture came, showing a board or not. */
  private readonly seen = new Map<number, number>();
  private readonly cameras = new Map<number, Camera>();
  /** What each frame read showed (the grid, the unsure squares' readings), for a reading held from it. */
  private readonly looks = new WeakMap<Uint8Array, Look>();
  /** Who watches the cameras here, each with whether it shows the pictures or only the grid. */
  private readonly thumbnailListeners = new Map<(thumb: Thumbnail) => void, 'pictures' | 'grid'>();
  /** What the pages here watch, as last told to the other instances. */
  private here: Watching = false;
  private readonly turnFrames = new TurnFrames();
  private share: PictureShare = NO_SHARE;
  /** What is watched of the cameras elsewhere, as last asked, when, and the question in flight. */
  private away: { watched: Watching; at: number; asking?: Promise<void> } = { watched: false, at: 0 };

  constructor(
    private readonly lang: 'en' | 'de',
    /** Seats with a camera: thumbnails say which seat when there is more than one. */
    private readonly seats: number,
  ) {}

  get watchers(): number {
    return this.thumbnailListeners.size;
  }

  /**
   * Calls `listener` with each frame's picture and grid; with `pictures: false`, only with the grid (no `jpeg`): a
   * frame watched so only is not shrunk into a picture at all.
   */
  onThumbnail(
    listener: (thumb: Thumbnail) => void,
    { pictures = true }: { pictures?: boolean } = {},
  ): () => void {
    this.thumbnailListeners.set(listener, pictures ? 'pictures' : 'grid');
    this.tellWatching();
    return () => {
      if (this.thumbnailListeners.delete(listener)) this.tellWatching();
    };
  }

  /** What the pages here watch of the cameras. */
  private watchingHere(): Watching {
    let watching: Watching = false;
    for (const kind of this.thumbnailListeners.values()) watching = most(watching, kind);
    return watching;
  }

  /** Tells the other instances what the pages here watch, when that changed. */
  private tellWatching(): void {
    const here = this.watchingHere();
    if (here === this.here) return;
    this.here = here;
    this.share.watching(here);
  }

  /** Shares the camera pictures with the other instances: the frames read here go to pages watching there. */
  sharePictures(share: PictureShare): void {
    this.share = share;
    if (this.here) share.watching(this.here);
  }

  /** Shows a picture taken on another instance to whoever watches the cameras here (one of this game's seats). */
  showPicture(thumb: Thumbnail): void {
    if ((thumb.camera ?? 0) >= this.seats) return;
    this.deliver(thumb);
  }

  /** A frame's picture to each listener: the grid alone to those that watch only it, the picture to the others
   *  (a grid without its picture, made before such a page here was known, goes only to those that watch grids). */
  private deliver(thumb: Thumbnail): void {
    const grid = gridOf(thumb);
    for (const [listener, kind] of this.thumbnailListeners) {
      if (kind === 'grid') listener(grid);
      else if (thumb.jpeg !== undefined) listener(thumb);
    }
  }

  /**
   * The seat's last frame, for End turn pressed on the scorekeeper's page. A ServiceError when none has come, or
   * when it is older than LAST_FRAME_MS (the camera stopped sending: the board may have changed since).
   */
  last(seat: number, now = Date.now()): Uint8Array {
    const last = this.frames.get(seat);
    const which = this.seats > 1 ? `the camera at seat ${seat}` : 'the camera';
    if (!last && this.seen.has(seat))
      throw new ServiceError(
        'not-allowed',
        `${which} has shown no board yet: is it over the board, with the whole board in the picture?`,
      );
    if (!last) throw new NoFrameYet(seat, `no frame has arrived from ${which} yet`);
    const age = now - last.at;
    if (age > LAST_FRAME_MS && now - (this.seen.get(seat) ?? 0) <= LAST_FRAME_MS)
      throw new ServiceError(
        'not-allowed',
        `${which} has shown no board for ${Math.round(age / 1000)} s: is it still over the board, with the whole board in the picture?`,
      );
    if (age > LAST_FRAME_MS)
      throw new ServiceError(
        'not-allowed',
        `the last frame from ${which} is ${Math.round(age / 1000)} s old: is the camera page still open (a phone's screen on)? End turn reads what the camera shows now`,
      );
    return last.bytes;
  }

  /**
   * Reads a frame of camera `seat`. The thumbnail goes out before the answer, with the grid found (or none when
   * the picture shows no board); a picture that is no image or shows no board is a ServiceError. `urgent`: an answer
   * is waited for (an End turn, or a frame one waiting out a hand takes as its own).
   */
  async read(bytes: Uint8Array, seat: number, urgent = false): ReturnType<typeof readFrame> {
    let camera = this.cameras.get(seat);
    if (!camera) {
      // Each camera learns the set being played from the squares the game commits (vision/adapt.ts).
      camera = new Camera({ ...readingOptions(this.lang), memory: new TileMemory() });
      this.cameras.set(seat, camera);
    }
    this.seen.set(seat, Date.now());
    try {
      const read = await readFrame(bytes, this.lang, camera, urgent);
      // Only a frame that shows a board is kept (a picture that is no image, or too big, is not).
      this.frames.set(seat, { bytes, at: Date.now() });
      this.looks.set(bytes, {
        corners: read.reading.corners.map(([x, y]) => [x, y] as [number, number]),
        squares: read.reading.alternatives.map((a) => ({ row: a.row, col: a.col, options: a.options })),
      });
      await this.thumbnail(bytes, read.reading.corners, seat);
      return read;
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'no-board') await this.thumbnail(bytes, null, seat);
      throw err;
    }
  }

  /**
   * The game has accepted `board` from camera `seat`'s last frame (a move read, or a held reading confirmed): the
   * camera learns from it how this set's tiles look. `frame`: the frame the board was read from (a held reading's,
   * when it is confirmed): when it is still the camera's last, the camera keeps the squares committed empty empty
   * while their pixels stay (vision's Camera.learn). Returns the squares learnt from.
   */
  learn(seat: number, board: Board, frame?: Uint8Array, options?: { teach?: boolean }): number {
    const camera = this.cameras.get(seat);
    if (!camera) return 0;
    const rows = Array.from({ length: 15 }, (_, r) => board.cells.slice(r * 15, r * 15 + 15).join(''));
    return camera.learn(rows, frame, options);
  }

  /** Forgets what every camera learnt of the set (a committed square was corrected: it may have taught a wrong
   *  reading); each makes its readings again without it on its next frame. */
  forget(): void {
    for (const camera of this.cameras.values()) camera.unlearn();
  }

  /** What the frame `bytes` showed when it was read, if it was. */
  lookOf(bytes: Uint8Array): Look | undefined {
    return this.looks.get(bytes);
  }

  /** The frame, with nothing recorded since (`version`), has just ended a turn of this seat. */
  repeated(seat: number, bytes: Uint8Array, version: number, now?: number): boolean {
    return this.turnFrames.repeated(seat, bytes, version, now);
  }

  /** The frame ended a turn of this seat, leaving the game at `version`. */
  endedTurn(seat: number, bytes: Uint8Array, version: number, now?: number): void {
    this.turnFrames.remember(seat, bytes, version, now);
  }

  /** Where the grid was found in the frame `bytes`, if it was read here. */
  gridOf(bytes: Uint8Array): Corners | undefined {
    return this.looks.get(bytes)?.corners as Corners | undefined;
  }

  /** Shows a frame read elsewhere (a worker) to whoever watches the cameras here. */
  showFrame(bytes: Uint8Array, seat: number, corners: Corners | null): Promise<void> {
    return this.thumbnail(bytes, corners, seat);
  }

  private async thumbnail(bytes: Uint8Array, corners: Corners | null, seat: number): Promise<void> {
    const away = this.watchedElsewhere();
    const watched = most(this.watchingHere(), away);
    if (!watched) return;
    const thumb = await makeThumbnail(bytes, corners, watched === 'pictures');
    const data = this.seats > 1 ? { ...thumb, camera: seat } : thumb;
    this.deliver(data);
    if (away) this.share.send(away === 'grid' ? gridOf(data) : data);
  }

  /**
   * What pages on other instances watch of the cameras, as last asked. The frame does not wait for Redis: the answer
   * is asked again in the background when it is older than WATCHED_MS (one question at a time; no while Redis is
   * away), so a page that has just opened elsewhere gets the frames from the next one on.
   */
  private watchedElsewhere(): Watching {
    const share = this.share;
    const now = Date.now();
    if (now - this.away.at >= WATCHED_MS && !this.away.asking) {
      this.away.asking = share
        .watched()
        .catch((): Watching => false)
        .then((watched) => {
          this.away = { watched, at: Date.now() };
        });
    }
    return this.away.watched;
  }
}

/** End turn pressed for a camera seat no frame has come from (on this instance). */
export class NoFrameYet extends ServiceError {
  constructor(
    readonly seat: number,
    message: string,
  ) {
    super('not-allowed', message);
  }
}

/**
 * Remembers, per camera, the frame that last ended a turn and the game's version right after it: the same bytes
 * again, with nothing recorded since and within a few seconds, are a doubled or retried End turn (two clicks, a
 * client's retry), not a second turn, and must not record a pass.
 */
class TurnFrames {
  private readonly last = new Map<number, { digest: string; version: number; at: number }>();

  constructor(private readonly windowMs = 10_000) {}

  repeated(camera: number, bytes: Uint8Array, version: number, now = Date.now()): boolean {
    const last = this.last.get(camera);
    return (
      last !== undefined &&
      last.version === version &&
      now - last.at < this.windowMs &&
      last.digest === digest(bytes)
    );
  }

  remember(camera: number, bytes: Uint8Array, version: number, now = Date.now()): void {
    this.last.set(camera, { digest: digest(bytes), version, at: now });
  }
}

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}
