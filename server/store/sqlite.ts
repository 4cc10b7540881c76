/**
 * The embedded store: one SQLite file (better-sqlite3, WAL journal, synchronous FULL so that a committed move
 * survives the process being killed) and a photos folder beside it, with a cap on the bytes of photos per game.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import Database from 'better-sqlite3';
import {
  type CheckRow,
  type EventRow,
  eventValues,
  gameValues,
  keptCheck,
  type ListedRow,
  lastEventValues,
  listed,
  storedEvent,
} from './rows.ts';
import {
  type GameChanges,
  type GameConfig,
  type GameStore,
  type GameSummary,
  type ListedGame,
  type ListQuery,
  type PhotoCaps,
  StoreConflict,
  type StoredCheck,
  type StoredEvent,
  type StoredGame,
  type StoredHeld,
  type StoredImage,
  StoreFull,
  type TurnFrame,
} from './types.ts';

/** Default cap on one game's photos: a long game of phone photos with every reading held is well under it. */
export const DEFAULT_PHOTO_BYTES_PER_GAME = 256 * 1024 * 1024;
/** Default ceiling on every photo kept (games' and checks'): a club's season of games at a few hundred KB a photo. */
export const DEFAULT_PHOTO_BYTES_TOTAL = 4 * 1024 * 1024 * 1024;

export class SqliteStore implements GameStore {
  private readonly db: Database.Database;
  private readonly dataDir: string;
  /** Bytes of photos per game, counted from the folder on first use. */
  private readonly photoBytes = new Map<string, number>();
  /** Bytes of every game's photos, counted from the folders on first use. */
  private gamePhotoBytes: number | undefined;
  private readonly maxPhotoBytesPerGame: number;
  private readonly maxPhotoBytesTotal: number;

  constructor(file: string, caps: Partial<PhotoCaps> = {}) {
    this.maxPhotoBytesPerGame = caps.perGame ?? DEFAULT_PHOTO_BYTES_PER_GAME;
    this.maxPhotoBytesTotal = caps.total ?? DEFAULT_PHOTO_BYTES_TOTAL;
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
    // Version 2: games know when they ended, for listing live and ended games.
    const columns = this.db.prepare('PRAGMA table_info(games)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'ended_at'))
      this.db.exec('ALTER TABLE games ADD COLUMN ended_at TEXT');
    this.db.exec('CREATE INDEX IF NOT EXISTS games_by_created ON games (created_at DESC, id DESC)');
    // Version 4: how each move read by the camera was decided.
    const eventColumns = this.db.prepare('PRAGMA table_info(events)').all() as { name: string }[];
    if (!eventColumns.some((c) => c.name === 'decision'))
      this.db.exec('ALTER TABLE events ADD COLUMN decision TEXT');
    // Version 3: readings held for the scorekeeper survive a restart.
    this.db.exec(`CREATE TABLE IF NOT EXISTS held (
      game_id TEXT NOT NULL REFERENCES games(id), board INTEGER NOT NULL, held TEXT NOT NULL,
      PRIMARY KEY (game_id, board))`);
    // Version 5: scores checked from photos, for their permalinks (photos kept in the row: a check is one unit).
    this.db.exec(`CREATE TABLE IF NOT EXISTS checks (
      id TEXT PRIMARY KEY, created_at TEXT NOT NULL, lang TEXT NOT NULL, verification TEXT NOT NULL,
      before_type TEXT, before BLOB, after_type TEXT NOT NULL, after BLOB NOT NULL)`);
    // Version 6: the listing shows each game's totals and last move's time; games can be archived; games belong to
    // an event (indexed: the hall lists an event's games).
    const gameColumns = this.db.prepare('PRAGMA table_info(games)').all() as { name: string }[];
    const added = ['scores', 'last_event_at', 'archived_at', 'event'].filter(
      (column) => !gameColumns.some((c) => c.name === column),
    );
    for (const column of added) this.db.exec(`ALTER TABLE games ADD COLUMN ${column} TEXT`);
    // Games recorded before: their last event's time from their events (their totals come with their next event).
    if (added.includes('last_event_at'))
      this.db.exec(
        'UPDATE games SET last_event_at = (SELECT max(at) FROM events WHERE events.game_id = games.id)',
      );
    this.db.exec('CREATE INDEX IF NOT EXISTS games_by_event ON games (event, created_at DESC)');
    // Version 7: the frame that last ended a turn, per camera (TurnFrame).
    this.db.exec(`CREATE TABLE IF NOT EXISTS turn_frames (
      game_id TEXT NOT NULL REFERENCES games(id), camera INTEGER NOT NULL, digest TEXT NOT NULL,
      version INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, camera))`);
  }

  async setArchived(gameId: string, at: string | null): Promise<void> {
    this.db.prepare('UPDATE games SET archived_at = ? WHERE id = ?').run(at, gameId);
  }

  async saveCheck(check: StoredCheck, keep: number): Promise<void> {
    if (!this.room((check.before?.bytes.byteLength ?? 0) + check.after.bytes.byteLength))
      throw new StoreFull();
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO checks (id, created_at, lang, verification, before_type, before, after_type, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          check.id,
          check.createdAt,
          check.lang,
          JSON.stringify(check.verification),
          check.before?.type ?? null,
          check.before ? Buffer.from(check.before.bytes) : null,
          check.after.type,
          Buffer.from(check.after.bytes),
        );
      this.db
        .prepare(
          'DELETE FROM checks WHERE rowid NOT IN (SELECT rowid FROM checks ORDER BY rowid DESC LIMIT ?)',
        )
        .run(keep);
    })();
  }

  async getCheck(id: string): ReturnType<GameStore['getCheck']> {
    const row = this.db
      .prepare('SELECT id, created_at, lang, verification, before_type, after_type FROM checks WHERE id = ?')
      .get(id) as CheckRow | undefined;
    return row && keptCheck(row);
  }

  async getCheckPhoto(id: string, which: 'before' | 'after'): Promise<StoredImage | undefined> {
    // Two fixed statements: the column is never built from input.
    const sql =
      which === 'before'
        ? 'SELECT before_type AS type, before AS bytes FROM checks WHERE id = ?'
        : 'SELECT after_type AS type, after AS bytes FROM checks WHERE id = ?';
    const row = this.db.prepare(sql).get(id) as { type: string | null; bytes: Buffer | null } | undefined;
    return row?.type && row.bytes ? { type: row.type, bytes: row.bytes } : undefined;
  }

  async createGame(game: { id: string; tokenHash: string; config: GameConfig }): Promise<void> {
    this.db
      .prepare('INSERT INTO games (id, token_hash, config, created_at, event) VALUES (?, ?, ?, ?, ?)')
      .run(...gameValues(game));
  }

  async appendEvents(
    gameId: string,
    events: readonly StoredEvent[],
    summary: GameSummary = {},
  ): Promise<void> {
    const insert = this.db.prepare(
      'INSERT INTO events (game_id, seq, event, photo, decision, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    try {
      this.db.transaction(() => {
        for (const e of events) insert.run(...eventValues(gameId, e));
        if (summary.ended !== undefined)
          this.db.prepare('UPDATE games SET ended_at = ? WHERE id = ?').run(summary.ended, gameId);
        const last = lastEventValues(gameId, events, summary);
        if (last)
          this.db
            .prepare('UPDATE games SET last_event_at = ?, scores = COALESCE(?, scores) WHERE id = ?')
            .run(...last);
      })();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
        throw new StoreConflict(`game ${gameId}: event ${events[0]?.seq} is recorded already`);
      throw err;
    }
  }

  async setHeld(gameId: string, board: number, held: StoredHeld | null): Promise<void> {
    if (held === null) this.db.prepare('DELETE FROM held WHERE game_id = ? AND board = ?').run(gameId, board);
    else
      this.db
        .prepare('INSERT OR REPLACE INTO held (game_id, board, held) VALUES (?, ?, ?)')
        .run(gameId, board, JSON.stringify(held));
  }

  async getGame(id: string): Promise<StoredGame | undefined> {
    const row = this.db.prepare('SELECT * FROM games WHERE id = ?').get(id) as
      | { id: string; token_hash: string; config: string; created_at: string }
      | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      tokenHash: row.token_hash,
      config: JSON.parse(row.config),
      createdAt: row.created_at,
      // Events are numbered from 1: after 0 is all of them.
      ...this.changes(id, 0),
    };
  }

  async noteTurnFrame(gameId: string, frame: TurnFrame): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO turn_frames (game_id, camera, digest, version, at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (game_id, camera) DO UPDATE SET digest = excluded.digest, version = excluded.version,
         at = excluded.at`,
      )
      .run(gameId, frame.camera, frame.digest, frame.version, frame.at);
  }

  async turnFrame(gameId: string, camera: number): Promise<TurnFrame | undefined> {
    return this.db
      .prepare('SELECT camera, digest, version, at FROM turn_frames WHERE game_id = ? AND camera = ?')
      .get(gameId, camera) as TurnFrame | undefined;
  }

  async getChanges(id: string, after: number): Promise<GameChanges | undefined> {
    if (!this.db.prepare('SELECT 1 FROM games WHERE id = ?').get(id)) return undefined;
    return this.changes(id, after);
  }

  /** Game `id`'s events after number `after`, and its held readings. */
  private changes(id: string, after: number): GameChanges {
    const events = (
      this.db
        .prepare(
          'SELECT seq, event, photo, decision, at FROM events WHERE game_id = ? AND seq > ? ORDER BY seq',
        )
        .all(id, after) as EventRow[]
    ).map(storedEvent);
    const held = (
      this.db.prepare('SELECT held FROM held WHERE game_id = ? ORDER BY board').all(id) as { held: string }[]
    ).map((h) => JSON.parse(h.held) as StoredHeld);
    return { events, held };
  }

  async listGames(query: ListQuery): Promise<ListedGame[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.after) {
      where.push('(created_at < ? OR (created_at = ? AND id < ?))');
      params.push(query.after.createdAt, query.after.createdAt, query.after.id);
    }
    if (query.event !== undefined) {
      where.push('event = ?');
      params.push(query.event);
    }
    if (query.status === 'archived') where.push('archived_at IS NOT NULL');
    else where.push('archived_at IS NULL');
    if (query.status === 'live') where.push('ended_at IS NULL');
    if (query.status === 'ended') where.push('ended_at IS NOT NULL');
    const sql = `SELECT id, config, created_at, ended_at, scores, last_event_at, archived_at FROM games ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at DESC, id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, query.limit) as ListedRow[];
    return rows.map(listed);
  }

  async savePhoto(gameId: string, name: string, bytes: Uint8Array): Promise<string | undefined> {
    if (this.bytesOf(gameId) + bytes.length > this.maxPhotoBytesPerGame) return undefined;
    if (!this.room(bytes.length)) return undefined;
    const used = this.bytesOf(gameId);
    const all = this.allGamePhotoBytes();
    const path = this.photoPath(gameId, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    this.photoBytes.set(gameId, used + bytes.length);
    this.gamePhotoBytes = all + bytes.length;
    return relative(this.dataDir, path);
  }

  async photoBytesKept(): Promise<number> {
    return this.allGamePhotoBytes() + this.checkPhotoBytes();
  }

  /**
   * Whether `bytes` more fit under the ceiling on all photos, once the photos of the games that ended longest ago
   * have gone, a game at a time, as far as needed.
   */
  private room(bytes: number): boolean {
    const fits = () => this.allGamePhotoBytes() + this.checkPhotoBytes() + bytes <= this.maxPhotoBytesTotal;
    if (fits()) return true;
    const ended = this.db
      .prepare('SELECT id FROM games WHERE ended_at IS NOT NULL ORDER BY ended_at, id')
      .all() as { id: string }[];
    for (const { id } of ended) {
      if (this.bytesOf(id) === 0) continue;
      const freed = this.bytesOf(id);
      rmSync(join(this.dataDir, 'photos', id), { recursive: true, force: true });
      this.photoBytes.set(id, 0);
      this.gamePhotoBytes = this.allGamePhotoBytes() - freed;
      console.error(`the photos are at their ceiling: game ${id}'s photos (${freed} bytes, ended) removed`);
      if (fits()) return true;
    }
    return false;
  }

  private allGamePhotoBytes(): number {
    if (this.gamePhotoBytes === undefined) {
      let games: string[] = [];
      try {
        games = readdirSync(join(this.dataDir, 'photos'));
      } catch {
        // no photos yet
      }
      this.gamePhotoBytes = games.reduce((sum, id) => sum + this.bytesOf(id), 0);
    }
    return this.gamePhotoBytes;
  }

  private checkPhotoBytes(): number {
    const row = this.db
      .prepare('SELECT coalesce(sum(coalesce(length(before), 0) + length(after)), 0) AS bytes FROM checks')
      .get() as { bytes: number };
    return row.bytes;
  }

  async renamePhoto(gameId: string, path: string, name: string): Promise<string> {
    const to = this.photoPath(gameId, name);
    renameSync(this.inGame(gameId, path), to);
    return relative(this.dataDir, to);
  }

  async deletePhoto(gameId: string, path: string): Promise<void> {
    this.removePhoto(gameId, path);
  }

  private removePhoto(gameId: string, path: string): void {
    const file = this.inGame(gameId, path);
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      return;
    }
    rmSync(file, { force: true });
    this.photoBytes.set(gameId, Math.max(0, this.bytesOf(gameId) - size));
    if (this.gamePhotoBytes !== undefined) this.gamePhotoBytes = Math.max(0, this.gamePhotoBytes - size);
  }

  async sweepPhotos(gameId: string, prefix: string): Promise<void> {
    // One process writes this database: nothing comes between reading the held readings and the removal.
    const named = new Set(
      (this.db.prepare('SELECT held FROM held WHERE game_id = ?').all(gameId) as { held: string }[]).flatMap(
        (row) => {
          const photo = (JSON.parse(row.held) as { photo?: unknown }).photo;
          return typeof photo === 'string' ? [basename(photo)] : [];
        },
      ),
    );
    for (const name of this.photoNames(gameId))
      if (name.startsWith(prefix) && !named.has(name)) this.removePhoto(gameId, join('photos', gameId, name));
  }

  async getPhoto(gameId: string, name: string): Promise<Uint8Array | undefined> {
    if (!this.photoNames(gameId).includes(basename(name))) return undefined;
    try {
      return readFileSync(this.photoPath(gameId, name));
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private photoPath(gameId: string, name: string): string {
    return join(this.dataDir, 'photos', gameId, basename(name));
  }

  /** A stored photo path, checked to lie in the game's own folder. */
  private inGame(gameId: string, path: string): string {
    const folder = resolve(this.dataDir, 'photos', gameId);
    const file = resolve(this.dataDir, path);
    if (!file.startsWith(folder + sep)) throw new Error(`photo ${path} is not one of game ${gameId}'s`);
    return file;
  }

  private photoNames(gameId: string): string[] {
    try {
      return readdirSync(join(this.dataDir, 'photos', gameId));
    } catch {
      return [];
    }
  }

  private bytesOf(gameId: string): number {
    let used = this.photoBytes.get(gameId);
    if (used === undefined) {
      used = 0;
      for (const name of this.photoNames(gameId)) {
        try {
          used += statSync(join(this.dataDir, 'photos', gameId, name)).size;
        } catch {
          // gone meanwhile
        }
      }
      this.photoBytes.set(gameId, used);
    }
    return used;
  }
}
