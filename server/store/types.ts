/**
 * Storage behind an interface: the embedded SQLite store today, PostgreSQL later. A game is its configuration and
 * its append-only event list; photos live on disk beside the database and are referred to by path.
 */
import type { GameEvent, MeEvent } from '../engine/index.ts';

export interface GameConfig {
  readonly players: readonly string[];
  readonly lang: 'en' | 'de';
  readonly variant: 'classic' | 'nine-tile' | 'finish-line' | 'uk' | 'scrabble-me';
  /** Finish Line: each player's level, in seat order. */
  readonly levels?: readonly ('beginner' | 'intermediate' | 'expert')[];
  /** Scrabble Me: the prize podium's first tiles, face up, three per player. */
  readonly podium?: string;
  readonly challengeRule: 'double' | 'single' | 'void' | '5-point' | '10-point';
  readonly capture: 'auto' | 'button';
  readonly lexicon?: string;
}

export interface StoredGame {
  readonly id: string;
  readonly tokenHash: string;
  readonly config: GameConfig;
  readonly createdAt: string;
  readonly events: readonly StoredEvent[];
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
  readonly at: string;
}

export interface GameStore {
  createGame(game: { id: string; tokenHash: string; config: GameConfig }): void;
  /** Appends an event; `seq` must be the next number for the game (events are never rewritten). */
  appendEvent(gameId: string, event: StoredEvent): void;
  getGame(id: string): StoredGame | undefined;
  listGames(): { id: string; config: GameConfig; createdAt: string }[];
  /** Writes a photo and returns its path relative to the data folder. */
  savePhoto(gameId: string, name: string, bytes: Uint8Array): string;
  close(): void;
}
