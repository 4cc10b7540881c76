/**
 * Storage behind an interface: the embedded SQLite store today, PostgreSQL later. A game is its configuration and
 * its append-only event list; photos live on disk beside the database and are referred to by path.
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
}

export interface ListQuery {
  /** At most this many, newest first. */
  readonly limit: number;
  /** Only games created before this one (the cursor of the previous page). */
  readonly after?: { readonly createdAt: string; readonly id: string };
  readonly status?: 'live' | 'ended';
}

export interface GameStore {
  createGame(game: { id: string; tokenHash: string; config: GameConfig }): void;
  /** Appends an event; `seq` must be the next number for the game (events are never rewritten). */
  appendEvent(gameId: string, event: StoredEvent): void;
  /** Keeps the reading held for a board of the game, or (null) lets it go. */
  setHeld(gameId: string, board: number, held: StoredHeld | null): void;
  /** Marks the game ended at `at`, or live again (an end taken back) with null. */
  setEnded(gameId: string, at: string | null): void;
  getGame(id: string): StoredGame | undefined;
  listGames(query: ListQuery): ListedGame[];
  /**
   * Writes a photo and returns its path relative to the data folder, or undefined when the game's photos already
   * take the most bytes a game may keep (the move is still recorded, without its photo).
   */
  savePhoto(gameId: string, name: string, bytes: Uint8Array): string | undefined;
  /** Renames a saved photo of the game (a held reading's photo becoming its move's); returns the new path. */
  renamePhoto(gameId: string, path: string, name: string): string;
  /** Removes a saved photo; a photo already gone is not an error. */
  deletePhoto(gameId: string, path: string): void;
  /** Removes the game's photos whose names start with `prefix`, but those named in `keep`. */
  deletePhotos(gameId: string, prefix: string, keep?: ReadonlySet<string>): void;
  /** Keeps a score check (`POST /api/checks`) with its photos; the oldest beyond `keep` checks are let go. */
  saveCheck(check: StoredCheck, keep: number): void;
  /** A kept check without its photos' bytes (`before`/`after` say only whether there is one, and its type). */
  getCheck(id: string):
    | (Omit<StoredCheck, 'before' | 'after'> & {
        readonly before: { readonly type: string } | null;
        readonly after: { readonly type: string };
      })
    | undefined;
  getCheckPhoto(id: string, which: 'before' | 'after'): StoredImage | undefined;
  /** Runs `work` as one transaction: every write in it is stored, or (it throws) none. */
  transaction<T>(work: () => T): T;
  close(): void;
}
