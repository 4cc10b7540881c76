/**
 * Storage behind an interface: the embedded SQLite store (the default; photos in a folder beside it) or PostgreSQL
 * (photos in the database, so that every instance reads them). A game is its configuration and its append-only
 * event list; photos are referred to by path (`photos/GAME/NAME`).
 */
import type { GameEvent, MeEvent } from '../engine/index.ts';
import type { Decision, GameConfig, Look, Verification } from '../protocol/index.ts';

/** A game's configuration, as the protocol declares it. */
export type { GameConfig } from '../protocol/index.ts';

export interface StoredGame {
  readonly id: string;
  readonly tokenHash: string;
  readonly config: GameConfig;
  readonly createdAt: string;
  readonly events: readonly StoredEvent[];
  /** Readings waiting for the scorekeeper, by board (0 for a game on one board). */
  readonly held?: readonly StoredHeld[];
}

/** What a copy of a game read up to event `after` needs to catch up (GameStore.getChanges). */
export type GameChanges = Pick<StoredGame, 'events' | 'held'>;

/** A reading held for the scorekeeper: kept so that a restart does not lose it. */
export interface StoredHeld {
  readonly board: number;
  readonly reading: readonly string[];
  readonly reasons: readonly string[];
  readonly squares: readonly { readonly row: number; readonly col: number }[];
  /** Path of its photo, relative to the data folder, if one was kept. */
  readonly photo?: string;
  /** Where the board is in the photo and the readings of its unsure squares. */
  readonly look?: Look;
  /** Later turns ended while this reading waits, oldest first: the board each showed and its squares in doubt. */
  readonly behind?: readonly {
    readonly reading: readonly string[];
    readonly doubts: readonly { readonly row: number; readonly col: number }[];
  }[];
}

/**
 * Scrabble Me: one board's turn ended in the round being built (the reading accepted for it), kept so that a
 * restart mid-round does not lose it. The round's engine event follows once every board has one.
 */
export interface BoardTurnRecord {
  readonly type: 'board-turn';
  readonly board: number;
  readonly reading: readonly string[];
}

export interface StoredEvent {
  readonly seq: number;
  /** A classic game's event, or a Scrabble Me game's (the game's variant says which). */
  readonly event: GameEvent | MeEvent | BoardTurnRecord;
  /** Path of the photo the event was read from, relative to the data folder, if any. */
  readonly photo?: string;
  /** How a move read by the camera was decided. */
  readonly decision?: Decision;
  readonly at: string;
}

/** A score checked from photos, kept for its permalink. */
export interface StoredCheck {
  readonly id: string;
  readonly createdAt: string;
  readonly lang: 'en' | 'de';
  /** The protocol's Verification, as JSON. */
  readonly verification: Verification;
  readonly before: StoredImage | null;
  readonly after: StoredImage;
}

export interface StoredImage {
  readonly type: string;
  readonly bytes: Uint8Array;
}

/** A game in a listing. */
export interface ListedGame {
  readonly id: string;
  readonly config: GameConfig;
  readonly createdAt: string;
  /** When the game ended, or null while it is live. */
  readonly endedAt: string | null;
  /** The totals after the last event recorded (seat order), or null before the first. */
  readonly scores: readonly number[] | null;
  /** When the last event was recorded, or null before the first. */
  readonly lastEventAt: string | null;
  /** When the game was archived (hidden from the listing), or null. */
  readonly archivedAt: string | null;
}

export interface ListQuery {
  /** At most this many, newest first. */
  readonly limit: number;
  /** Only games created before this one (the cursor of the previous page). */
  readonly after?: { readonly createdAt: string; readonly id: string };
  /** Live or ended games (archived ones are left out), or only the archived ones. */
  readonly status?: 'live' | 'ended' | 'archived';
  /** Only the games of this event (GameConfig.event). */
  readonly event?: string;
}

/** What the listing shows of a game, kept as its events are recorded. */
export interface GameSummary {
  /** When the game ended (null: live again), left as it is when absent. */
  readonly ended?: string | null;
  /** The totals after these events, in seat order. */
  readonly scores?: readonly number[];
}

/**
 * The store's ceiling on photos (game photos and kept checks' together) is reached, and thinning the oldest ended
 * games' photos made no room.
 */
export class StoreFull extends Error {
  constructor(message = "the server's photo storage is full") {
    super(message);
    this.name = 'StoreFull';
  }
}

/** The store's caps on photo bytes. */
export interface PhotoCaps {
  /** One game's photos (beyond it moves are recorded without their photo). */
  readonly perGame: number;
  /**
   * Every photo the store keeps: games' and checks'. When a photo would pass it, the photos of the games that ended
   * longest ago go first, a game at a time; when no ended game has photos left, a game's photo is not kept (its move
   * is recorded all the same) and a check is refused (StoreFull).
   */
  readonly total: number;
}

/**
 * The frame that last ended a turn of one of a game's cameras (its SHA-256, base64), with the game's version right
 * after: the very frame again, with nothing recorded since, is a doubled or retried End turn, not a pass. Kept with
 * the game so that the guard survives a worker's restart and Redis losing its data.
 */
export interface TurnFrame {
  readonly camera: number;
  readonly digest: string;
  readonly version: number;
  /** When it was noted (ISO 8601). */
  readonly at: string;
}

/** Events that could not be appended: another writer (another instance) recorded the game's next event first. */
export class StoreConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConflict';
  }
}

/**
 * Every method is asynchronous: the embedded SQLite store answers at once, PostgreSQL over the network. A game's
 * writes come from its own queue, one at a time; what one instance writes another sees on its next read.
 */
export interface GameStore {
  createGame(game: { id: string; tokenHash: string; config: GameConfig }): Promise<void>;
  /**
   * Appends events, all or none, with what the listing shows of the game after them (`summary`). The first `seq`
   * must be the next number for the game: a number already taken is a StoreConflict (events are never rewritten,
   * and a move is recorded exactly once).
   */
  appendEvents(gameId: string, events: readonly StoredEvent[], summary?: GameSummary): Promise<void>;
  /** Archives the game at `at` (it leaves the listing), or (null) brings it back. */
  setArchived(gameId: string, at: string | null): Promise<void>;
  /** Keeps the reading held for a board of the game, or (null) lets it go. */
  setHeld(gameId: string, board: number, held: StoredHeld | null): Promise<void>;
  getGame(id: string): Promise<StoredGame | undefined>;
  /**
   * The game's events after event `after` and its held readings now, read together (one snapshot): what a copy of
   * the game read up to `after` needs to catch up, without reading the whole game again. Undefined: no such game.
   */
  getChanges(id: string, after: number): Promise<GameChanges | undefined>;
  /** Notes the frame that has just ended a turn of the game's camera `frame.camera` (replacing the one before). */
  noteTurnFrame?(gameId: string, frame: TurnFrame): Promise<void>;
  /** The frame that last ended a turn of the game's camera `camera`, if one is noted. */
  turnFrame?(gameId: string, camera: number): Promise<TurnFrame | undefined>;
  listGames(query: ListQuery): Promise<ListedGame[]>;
  /**
   * Keeps a photo and returns its path (`photos/GAME/NAME`), or undefined when the game's photos already take the
   * most bytes a game may keep (the move is still recorded, without its photo).
   */
  savePhoto(gameId: string, name: string, bytes: Uint8Array): Promise<string | undefined>;
  /** Bytes of every photo kept, games' and checks' (what the ceiling of PhotoCaps.total counts). */
  photoBytesKept(): Promise<number>;
  /** The bytes of a kept photo of the game, by its name. */

  getPhoto(gameId: string, name: string): Promise<Uint8Array | undefined>;
  /** Renames a kept photo of the game (a held reading's photo becoming its move's); returns the new path. */
  renamePhoto(gameId: string, path: string, name: string): Promise<string>;
  /** Removes a kept photo; a photo already gone is not an error. */
  deletePhoto(gameId: string, path: string): Promise<void>;
  /**
   * Removes the game's photos whose names start with `prefix` that no held reading of the game names (a crash
   * between two writes left them), in one step with reading the held readings: a reading stored before its photo
   * (as `HeldReadings.hold` does) keeps the photo, whichever instance sweeps meanwhile.
   */
  sweepPhotos(gameId: string, prefix: string): Promise<void>;
  /** Keeps a score check (`POST /api/checks`) with its photos; the oldest beyond `keep` checks are let go. */
  saveCheck(check: StoredCheck, keep: number): Promise<void>;
  /** A kept check without its photos' bytes (`before`/`after` say only whether there is one, and its type). */
  getCheck(id: string): Promise<
    | (Omit<StoredCheck, 'before' | 'after'> & {
        readonly before: { readonly type: string } | null;
        readonly after: { readonly type: string };
      })
    | undefined
  >;
  getCheckPhoto(id: string, which: 'before' | 'after'): Promise<StoredImage | undefined>;
  close(): Promise<void>;
}
