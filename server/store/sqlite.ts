/**
 * The embedded store: one SQLite file (better-sqlite3, WAL journal, synchronous FULL so that a committed move
 * survives the process being killed) and a photos folder beside it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import Database from 'better-sqlite3';
import type { GameConfig, GameStore, StoredEvent, StoredGame } from './types.ts';

export class SqliteStore implements GameStore {
  private readonly db: Database.Database;
  private readonly dataDir: string;

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.dataDir = dirname(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, config TEXT NOT NULL, created_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (
        game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, event TEXT NOT NULL,
        photo TEXT, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
    `);
  }

  createGame(game: { id: string; tokenHash: string; config: GameConfig }): void {
    this.db
      .prepare('INSERT INTO games (id, token_hash, config, created_at) VALUES (?, ?, ?, ?)')
      .run(game.id, game.tokenHash, JSON.stringify(game.config), new Date().toISOString());
  }

  appendEvent(gameId: string, e: StoredEvent): void {
    this.db
      .prepare('INSERT INTO events (game_id, seq, event, photo, at) VALUES (?, ?, ?, ?, ?)')
      .run(gameId, e.seq, JSON.stringify(e.event), e.photo ?? null, e.at);
  }

  getGame(id: string): StoredGame | undefined {
    const row = this.db.prepare('SELECT * FROM games WHERE id = ?').get(id) as
      | { id: string; token_hash: string; config: string; created_at: string }
      | undefined;
    if (!row) return undefined;
    const events = (
      this.db.prepare('SELECT seq, event, photo, at FROM events WHERE game_id = ? ORDER BY seq').all(id) as {
        seq: number;
        event: string;
        photo: string | null;
        at: string;
      }[]
    ).map((e) => ({
      seq: e.seq,
      event: JSON.parse(e.event),
      at: e.at,
      ...(e.photo ? { photo: e.photo } : {}),
    }));
    return {
      id: row.id,
      tokenHash: row.token_hash,
      config: JSON.parse(row.config),
      createdAt: row.created_at,
      events,
    };
  }

  listGames(): { id: string; config: GameConfig; createdAt: string }[] {
    return (
      this.db.prepare('SELECT id, config, created_at FROM games ORDER BY created_at DESC').all() as {
        id: string;
        config: string;
        created_at: string;
      }[]
    ).map((r) => ({ id: r.id, config: JSON.parse(r.config), createdAt: r.created_at }));
  }

  savePhoto(gameId: string, name: string, bytes: Uint8Array): string {
    const path = join(this.dataDir, 'photos', gameId, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    return relative(this.dataDir, path);
  }

  close(): void {
    this.db.close();
  }
}
