/**
 * The one contract of a game being played, whatever its kind: the classic game and its variants on one board
 * (classic.ts) and Scrabble Me, a board per player (me.ts). HTTP and the WebSocket hold a `GameView`, the service
 * and the hall a `Session`; none asks which kind it is. One comment per member, as chessground's api.ts declares
 * its Api.
 */
import type { Corners } from '../../../vision/index.ts';
import type { FrameResult, Snapshot, Verification } from '../../protocol/index.ts';
import type { GameChanges, StoredGame } from '../../store/types.ts';
import type { Thumbnail } from './frames.ts';
import type { PictureShare, SourceBoard } from './live.ts';

/**
 * What the transport (http/, the WebSocket) holds of a game: the views it serves and the streams it opens. Every
 * change goes through the service (`GameService.submitFrame`, `act`, …), never through the game's own methods.
 */
export interface GameView {
  /** The game's id. */
  readonly id: string;
  /** The camera streams the server pulls for this game, as the scorekeeper's page shows them. */
  readonly sources: SourceBoard;
  /** The game as every page shows it: scores, board(s), moves, the reading waiting, the camera streams. */
  snapshot(): Snapshot;

  /**
   * Calls `listener` with a fresh snapshot after every change, once the request that made it has been answered.
   * Returns the function that stops it.
   */
  subscribe(listener: (snapshot: Snapshot) => void): () => void;

  /** The camera pictures the camera pages watch (only their listening: the rest is the service's). */
  readonly pictures: Pick<CameraPictures, 'onThumbnail'>;

  /** The game so far as a GCG file; a `not-allowed` error for a kind of game GCG cannot record. The racks the
   *  scorekeeper kept with the moves only with `racks` (theirs alone to see): otherwise each play's tiles. */
  gcg(options?: { racks?: boolean }): string;

  /** The rack kept with move `turn` (1-based: plays, passes and exchanges), if the scorekeeper kept one. */
  keptRack(turn: number): string | undefined;

  /** Each player's rack left at the end, from the racks kept with their last moves (engine racksLeft); null where
   *  it cannot be told. The scorekeeper's only, as the racks are. */
  racksLeft(): (string | null)[];
}

/** A game's camera pictures: each frame, small, with the grid found in it, for the pages that watch the cameras, and
 *  shared between a hall's instances. The frame intake (intake.ts) is it. */
export interface CameraPictures {
  /** Calls `listener` with each camera frame, small, and the grid found in it (for pages with the token); with
   *  `pictures: false`, only the grid (no picture is made for such a page: live.ts `Watching`). */
  onThumbnail(listener: (thumb: Thumbnail) => void, options?: { pictures?: boolean }): () => void;
  /** Shares the camera pictures with the other instances of the service (live.ts `PictureShare`). */
  sharePictures(share: PictureShare): void;
  /** Shows a camera picture taken on another instance to this one's thumbnail listeners. */
  showPicture(thumb: Thumbnail): void;
  /** Where the grid was found in `frame`, if this process read it (a worker tells the instance that took it). */
  gridOf(frame: Uint8Array): Corners | undefined;
  /** Shows a frame another process read (a worker) to this process's thumbnail listeners, with the grid it found
   *  there (null: no board). */
  showFrame(frame: Uint8Array, camera: number, grid: Corners | null): Promise<void>;
}

/** A game as the service and the hall hold it: the view, and everything that changes it or keeps it in step. */
export interface Session extends GameView {
  /** The camera pictures, whole: shared with the other instances, shown from a worker's reading. */
  readonly pictures: CameraPictures;
  /** The game as it was created: its configuration and the hash of its scorekeeper token. */
  readonly stored: Omit<StoredGame, 'events'>;
  /** Camera seats: one for a game on one board, one per player in Scrabble Me. */
  readonly seats: number;
  /** The number of the last stored event: a request made against an older version is refused as stale. */
  readonly version: number;
  /** Viewers and camera watchers listening: a game nobody watches may be dropped from memory. */
  readonly watchers: number;
  /** Work is scheduled for later (an End turn waiting out a hand): the game must stay loaded. */
  readonly busy: boolean;
  /**
   * The End turns waiting out a hand here, by camera, each with a mark of what it waits in: a worker notes them in
   * Redis for the worker that takes the game over if it dies (`waitStands` reads the mark there).
   */
  readonly endTurnsWaiting: readonly { readonly camera: number; readonly mark: string }[];
  /** Runs work the game schedules for later in its queue (set by the service; alone, it runs at once). */
  defer: (task: () => Promise<unknown>) => void;
  /** How many changes the game has told its viewers of: one more after a request that changed anything. */
  readonly changes: number;

  /**
   * Catches up with the game as stored (another instance of the service recorded events or held a reading): the
   * events after this one's version are applied, the held readings taken as stored, and the viewers told.
   */
  refresh(stored: GameChanges): void;

  /**
   * Whether an End turn of `camera` that was waiting out a hand in `mark` (`endTurnsWaiting`, noted by a process
   * that died) still stands: nothing recorded since would have ended its wait, so the camera's next frame ends it.
   */
  waitStands(camera: number, mark: string): boolean;

  /**
   * Holds at once, saying a hand was in view, every End turn still waiting for a clear frame (its process is giving
   * the game up: a worker handing its queue over, or stopping). Nothing waits on a timer afterwards.
   */
  settleWaits(): Promise<void>;

  /** The squares of the "board disturbed" notice now (committed squares read as changed two frames running). */
  disturbance(): readonly { row: number; col: number }[];

  /** Shows the notice another process (a worker) worked out from the frames it read. */
  showDisturbance(squares: readonly { row: number; col: number }[]): void;

  /**
   * A frame from the camera at seat `camera` (0 for a game on one board). Without `endTurn` it feeds the views
   * (and auto capture); with it, the board the frame shows ends its turn: the move is committed, or held for the
   * scorekeeper when the camera is unsure, the move is not legal, or the tiles are more than the set has.
   */
  submitFrame(
    bytes: Uint8Array,
    endTurn: boolean,
    options?: { camera?: number; now?: number },
  ): Promise<FrameResult>;

  /**
   * A scorekeeper's action, validated against the protocol's declaration for this kind of game (a `bad-request`
   * error names what is wrong) and carried out, or refused with a `not-allowed` error saying why.
   */
  act(action: unknown): Promise<FrameResult>;

  /**
   * Turn `turn` (an index of the snapshot's turns) explained point by point, with who played it; a `not-found`
   * error for no such turn, `not-allowed` for a turn that is no play or a kind of game whose moves are not explained.
   */
  explainTurn(turn: number): { verification: Verification; player: string };
}
