/**
 * The live side both kinds of game share, in one place: the viewers told after a change, the frame intake (each
 * camera seat's last frame and grid, the camera pictures, doubled End turns), the readings held for the
 * scorekeeper with their photos, and the camera streams shown to the scorekeeper.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Camera, type Corners, TileMemory } from '../../../vision/index.ts';
import { type Board, formatBoard, parseBoard, type Square } from '../../engine/index.ts';
import type { Look, PendingView, SourceView } from '../../protocol/index.ts';
import type { GameStore, StoredHeld } from '../../store/types.ts';
import { ServiceError } from '../errors.ts';
import { keptPhoto, makeThumbnail, readFrame, readingOptions, type Thumbnail } from './frames.ts';

/**
 * Who watches a game. Each change is told once, on the event loop's next turn however many changes were made
 * before it, with a fresh snapshot: the HTTP reply of a commit goes out first, and a thousand viewers cost the
 * scorekeeper nothing.
 */
export class Viewers<S> {
  private readonly listeners = new Set<(snapshot: S) => void>();
  private scheduled = false;
  /** Changes told so far (the service tells other instances when a request changed the game). */
  count = 0;

  constructor(private readonly snapshot: () => S) {}

  get size(): number {
    return this.listeners.size;
  }

  subscribe(listener: (snapshot: S) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every viewer after the current request has been answered. */
  changed(): void {
    this.count++;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.listeners.size === 0) return;
      const snapshot = this.snapshot();
      for (const listener of this.listeners) listener(snapshot);
    });
  }
}

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
export class FrameIntake {
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
  private share: PictureShare | undefined;
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
    this.share?.watching(here);
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
   * camera learns from it how this set's tiles look. Returns the squares learnt from.
   */
  learn(seat: number, board: Board): number {
    const camera = this.cameras.get(seat);
    if (!camera) return 0;
    const rows = Array.from({ length: 15 }, (_, r) => board.cells.slice(r * 15, r * 15 + 15).join(''));
    return camera.learn(rows);
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

  /** Shows a frame read elsewhere (a worker) to whoever watches the cameras here. */
  show(bytes: Uint8Array, corners: Corners | null, seat: number): Promise<void> {
    return this.thumbnail(bytes, corners, seat);
  }

  private async thumbnail(bytes: Uint8Array, corners: Corners | null, seat: number): Promise<void> {
    const away = this.watchedElsewhere();
    const watched = most(this.watchingHere(), away);
    if (!watched) return;
    const thumb = await makeThumbnail(bytes, corners, watched === 'pictures');
    const data = this.seats > 1 ? { ...thumb, camera: seat } : thumb;
    this.deliver(data);
    if (away) this.share?.send(away === 'grid' ? gridOf(data) : data);
  }

  /**
   * What pages on other instances watch of the cameras, as last asked. The frame does not wait for Redis: the answer
   * is asked again in the background when it is older than WATCHED_MS (one question at a time; no while Redis is
   * away), so a page that has just opened elsewhere gets the frames from the next one on.
   */
  private watchedElsewhere(): Watching {
    const share = this.share;
    if (!share) return false;
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

/** A reading waiting for the scorekeeper. */
export interface Held {
  readonly board: Board;
  readonly reasons: readonly string[];
  readonly squares: readonly Square[];
  /** Path of its photo, if one was kept. */
  readonly photo: string | undefined;
  /** Where the board is in the photo and the readings of its unsure squares. */
  readonly look?: Look | undefined;
  /** Later turns ended while this one was held, oldest first: decided in order once it is. */
  readonly behind?: readonly Behind[] | undefined;
}

/** A turn ended while another waited for the scorekeeper: the board it showed and the squares in doubt on it. */
export interface Behind {
  readonly board: Board;
  readonly doubts: readonly Square[];
}

/**
 * Readings held for the scorekeeper, by board (0 for a game on one board), and their photos, kept in the store as
 * they change so that a restart loses none: a reading replaced by a newer one, or dropped, takes its photo with
 * it; a confirmed one hands its photo to the move.
 */
export class HeldReadings {
  private readonly held = new Map<number, Held>();

  constructor(
    private readonly store: GameStore,
    private readonly gameId: string,
    /** The start of a held photo's name (`pending-`: a photo no held reading refers to is found by it). */
    private readonly prefix: (board: number) => string,
    stored: readonly StoredHeld[] = [],
  ) {
    this.reset(stored);
    // A photo of a held reading that is no longer held (a crash between two writes) is named by none: it goes. The
    // store reads the held readings itself, as they are now: another instance may be holding one meanwhile.
    store
      .sweepPhotos(gameId, 'pending-')
      .catch((err: unknown) => console.error(`game ${gameId}: ${(err as Error).message}`));
  }

  get size(): number {
    return this.held.size;
  }

  get(board: number): Held | undefined {
    return this.held.get(board);
  }

  /** Which reading board `board` holds, in a few characters ('' for none): the same on every instance that loads
   *  it, so that a mark taken before a hold tells, after a restart elsewhere, that the reading was held since. */
  stamp(board: number): string {
    const held = this.held.get(board);
    if (!held) return '';
    const what = JSON.stringify([held.board.cells.join(''), held.reasons, held.squares]);
    return createHash('sha256').update(what).digest('base64url').slice(0, 12);
  }

  /** The readings held as stored (by another instance, or before a restart), in place of those in memory. */
  reset(stored: readonly StoredHeld[]): void {
    this.held.clear();
    for (const h of stored) {
      const read = parseBoard(h.reading);
      if (!read.ok)
        throw new Error(`game ${this.gameId}: the reading held for board ${h.board + 1}: ${read.message}`);
      const behind = (h.behind ?? []).map((b) => {
        const board = parseBoard(b.reading);
        if (!board.ok)
          throw new Error(`game ${this.gameId}: a turn waiting on board ${h.board + 1}: ${board.message}`);
        return { board: board.board, doubts: b.doubts };
      });
      this.held.set(h.board, {
        board: read.board,
        reasons: h.reasons,
        squares: h.squares,
        photo: h.photo,
        look: h.look,
        ...(behind.length > 0 ? { behind } : {}),
      });
    }
  }

  /**
   * Holds `read` for board `board`. The same reading held again keeps its first photo, and answers false (nothing
   * new to tell) unless it is held for other reasons now; `photo` is the frame it was read from, or `held` for the
   * photo already held.
   */
  async hold(
    board: number,
    read: Board,
    reasons: readonly string[],
    squares: readonly Square[],
    photo?: Uint8Array | 'held',
    /** What the photo showed (a new frame's); a reading held again from the held photo keeps its look. */
    look?: Look,
  ): Promise<boolean> {
    const before = this.held.get(board);
    if (before && before.board.cells.join('') === read.cells.join('')) {
      // The same reading held again keeps its photo; if it is held for another reason now (a confirm that still
      // is no legal move), the reason is what the scorekeeper must see.
      const same = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);
      if (same(before.reasons, reasons) && same(before.squares, squares)) return false;
      await this.set(board, { ...before, reasons, squares });
      return true;
    }
    const seen = photo instanceof Uint8Array ? look : before?.look;
    const held: Held = {
      board: read,
      reasons,
      squares,
      photo: before?.photo,
      ...(seen ? { look: seen } : {}),
      ...(before?.behind ? { behind: before.behind } : {}),
    };
    if (photo instanceof Uint8Array) {
      // A name no other instance holding a reading of this game can take, and the reading stored naming it before
      // the photo is saved: a photo no held reading names is swept away when any instance loads the game.
      const name = `${this.prefix(board)}${randomUUID()}.jpg`;
      const named = `photos/${this.gameId}/${name}`;
      await this.set(board, { ...held, photo: named });
      let saved: string | undefined;
      try {
        saved = await this.store.savePhoto(this.gameId, name, (await keptPhoto(photo)).bytes);
      } catch (err) {
        // The reading is held all the same, without its photo.
        console.error(`game ${this.gameId}: keeping a held reading's photo: ${(err as Error).message}`);
      }
      // Over the game's cap on photos (or not kept): the reading is held without one.
      if (saved !== named) await this.set(board, { ...held, photo: saved });
    } else await this.set(board, held);
    const path = this.held.get(board)?.photo;
    if (before?.photo && before.photo !== path) await this.store.deletePhoto(this.gameId, before.photo);
    return true;
  }

  /** Fixes one square of the reading held for `board`. */
  async correct(board: number, row: number, col: number, tile: string): Promise<Held> {
    const held = this.held.get(board);
    if (!held) throw new ServiceError('not-allowed', 'there is no reading waiting for confirmation');
    const cells = held.board.cells.slice();
    cells[row * 15 + col] = tile;
    const fixed = parseBoard(cells.join('').match(/.{15}/gu) ?? []);
    if (!fixed.ok) throw new ServiceError('bad-request', fixed.message);
    const next = {
      ...held,
      board: fixed.board,
      squares: held.squares.filter((q) => q.row !== row || q.col !== col),
    };
    await this.set(board, next);
    return next;
  }

  /**
   * Before board `board`'s move is stored from `photo` (a frame, or `held`: the held reading's, confirmed): a new
   * frame is kept under a name of its own (the game's photo cap checked), and the path the move's photo will have as
   * `name` is said (undefined: no photo, or over the cap). `settle` then names it so, once the move is stored;
   * `discard` lets it go if the store refuses the move.
   */
  async prepare(
    board: number,
    photo: Uint8Array | 'held' | undefined,
    name: string,
  ): Promise<{ path: string | undefined; upload?: string }> {
    const path = `photos/${this.gameId}/${name}`;
    if (photo === 'held') return { path: this.held.get(board)?.photo === undefined ? undefined : path };
    if (!photo) return { path: undefined };
    let kept: Uint8Array;
    try {
      kept = (await keptPhoto(photo)).bytes;
    } catch {
      return { path: undefined }; // a frame the vision read is a picture: this is not expected, and costs no move
    }
    const upload = await this.store.savePhoto(this.gameId, `upload-${randomUUID()}.jpg`, kept);
    return upload ? { path, upload } : { path: undefined };
  }

  /** The move was not stored: its frame, kept by `prepare`, goes. */
  async discard(prepared: { upload?: string }): Promise<void> {
    if (prepared.upload) await this.store.deletePhoto(this.gameId, prepared.upload);
  }

  /**
   * Board `board`'s move has been stored from `photo`: its photo takes the name `prepare` said, and the held
   * reading goes, with its photo unless it became the move's. A move the store refused changed nothing of this.
   */
  async settle(
    board: number,
    photo: Uint8Array | 'held' | undefined,
    name: string,
    prepared: { path: string | undefined; upload?: string },
  ): Promise<void> {
    const held = this.held.get(board)?.photo;
    // The move is stored: a photo that cannot be named as its own (gone: a crash between a held reading's two
    // writes) is said in the log, and the held reading goes all the same.
    const rename = (from: string) =>
      this.store
        .renamePhoto(this.gameId, from, name)
        .catch((err: unknown) =>
          console.error(`game ${this.gameId}: naming the photo of a move: ${(err as Error).message}`),
        );
    if (prepared.upload) await rename(prepared.upload);
    else if (photo === 'held' && held && prepared.path) await rename(held);
    if (this.held.has(board)) await this.set(board, undefined);
    if (held && photo !== 'held') await this.store.deletePhoto(this.gameId, held);
  }

  /** A later turn ended while board `board`'s reading is held: it waits behind it (in the store too). */
  async queue(board: number, turn: Behind): Promise<void> {
    const held = this.held.get(board);
    if (!held) throw new Error('no reading is held to wait behind');
    await this.set(board, { ...held, behind: [...(held.behind ?? []), turn] });
  }

  /** A better look at the last turn waiting behind board `board`'s held reading takes its place. */
  async replaceLast(board: number, turn: Behind): Promise<void> {
    const held = this.held.get(board);
    if (!held?.behind?.length) throw new Error('no turn waits to be replaced');
    await this.set(board, { ...held, behind: [...held.behind.slice(0, -1), turn] });
  }

  /** The turns waiting behind board `board`'s held reading, taken out of it (they are decided next). */
  async takeBehind(board: number): Promise<readonly Behind[]> {
    const held = this.held.get(board);
    if (!held?.behind?.length) return [];
    const { behind, ...rest } = held;
    await this.set(board, rest);
    return behind;
  }

  /** Lets board `board`'s held reading go, with its photo (the turns waiting behind it stay the caller's). */
  async drop(board: number): Promise<void> {
    const held = this.held.get(board);
    if (!held) return;
    await this.set(board, undefined);
    if (held.photo) await this.store.deletePhoto(this.gameId, held.photo);
  }

  /** Lets every held reading go, with its photo. */

  async clear(): Promise<void> {
    for (const [board, { photo }] of [...this.held]) {
      await this.set(board, undefined);
      if (photo) await this.store.deletePhoto(this.gameId, photo);
    }
  }

  /** Changes the reading held for a board, in memory and in the store. */
  private async set(board: number, held: Held | undefined): Promise<void> {
    // The store first: a write that fails leaves the reading in memory as it is stored.
    await this.store.setHeld(
      this.gameId,
      board,
      held
        ? {
            board,
            reading: formatBoard(held.board),
            reasons: held.reasons,
            squares: held.squares,
            ...(held.photo ? { photo: held.photo } : {}),
            ...(held.look ? { look: held.look } : {}),
            ...(held.behind?.length
              ? { behind: held.behind.map((b) => ({ reading: formatBoard(b.board), doubts: b.doubts })) }
              : {}),
          }
        : null,
    );
    if (held) this.held.set(board, held);
    else this.held.delete(board);
  }

  /** The reading held for `board` as the protocol shows it. */
  view(board: number): PendingView | null {
    const held = this.held.get(board);
    return held
      ? {
          board: formatBoard(held.board),
          reasons: held.reasons,
          squares: held.squares,
          photo: photoUrl(this.gameId, held.photo),
          ...(held.look && held.photo ? { look: held.look } : {}),
          waiting: held.behind?.length ?? 0,
        }
      : null;
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

/** What every viewer is told of a stream that stopped: its reason (`ENOTFOUND`, `ECONNREFUSED`, a content type)
 *  would tell anyone watching what answers where on the server's network. */
export const STREAM_STOPPED = 'the camera stream stopped';

/** The camera streams pulled for a game, by seat: pulling, or stopped with its reason (the scorekeeper's only). */
export class SourceBoard {
  private readonly seats = new Map<number, SourceView>();

  constructor(private readonly changed: () => void) {}

  set(view: SourceView): void {
    const was = this.seats.get(view.camera);
    if (was && was.host === view.host && was.state === view.state && was.error === view.error) return;
    this.seats.set(view.camera, view);
    this.changed();
  }

  delete(camera: number): void {
    if (this.seats.delete(camera)) this.changed();
  }

  /** Whether seat `camera`'s stream is listed as being pulled (here or, in a hall, by another server). */
  streamed(camera: number): boolean {
    return this.seats.get(camera)?.state === 'pulling';
  }

  /** The streams as every viewer sees them (the snapshot): why one stopped is not said. */
  view(): SourceView[] {
    return this.detail().map((v) => (v.error === null ? v : { ...v, error: STREAM_STOPPED }));
  }

  /** The streams with why each stopped, for the scorekeeper (`GET …/source` with the token). */
  detail(): SourceView[] {
    return [...this.seats.values()].sort((a, b) => a.camera - b.camera);
  }
}

/** The URL a page loads a stored photo from ('' when the photo was not kept). */
export function photoUrl(gameId: string, path: string | undefined): string {
  const name = path?.split('/').pop();
  return name ? `/api/games/${gameId}/photos/${encodeURIComponent(name)}` : '';
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

/**
 * The stored events after version `seq`, which must follow it without a gap (a game catching up with what it or
 * another instance stored): a gap is a broken store, thrown.
 */
export function eventsAfter<E extends { readonly seq: number }>(
  events: readonly E[],
  seq: number,
  gameId: string,
): E[] {
  const newer = events.filter((e) => e.seq > seq);
  newer.forEach((e, k) => {
    if (e.seq !== seq + k + 1)
      throw new Error(`stored game ${gameId} skips from event ${seq + k} to ${e.seq}`);
  });
  return newer;
}
