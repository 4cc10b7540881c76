/**
 * The shared store: PostgreSQL (node-postgres), chosen by `DATABASE_URL=postgres://…` or `--db postgres://…`, so
 * that several instances of the service keep one set of games. Photos are kept in the database too (every instance
 * reads them; a folder of one machine would not be shared), with the same cap per game as the embedded store. The
 * schema is versioned: each migration runs once, in order, under an advisory lock, so that instances starting
 * together do not race. JSON is kept as text, exactly as written.
 */
import { basename } from 'node:path';
import pg from 'pg';
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
import { DEFAULT_PHOTO_BYTES_PER_GAME, DEFAULT_PHOTO_BYTES_TOTAL } from './sqlite.ts';
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

/** The schema, one migration per version; never edit one that has shipped, add the next. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE games (
     id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, config TEXT NOT NULL, created_at TEXT NOT NULL, ended_at TEXT);
   CREATE INDEX games_by_created ON games (created_at DESC, id DESC);
   CREATE TABLE events (
     game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, event TEXT NOT NULL, photo TEXT,
     decision TEXT, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
   CREATE TABLE held (
     game_id TEXT NOT NULL REFERENCES games(id), board INTEGER NOT NULL, held TEXT NOT NULL,
     PRIMARY KEY (game_id, board));
   CREATE TABLE photos (
     game_id TEXT NOT NULL REFERENCES games(id), name TEXT NOT NULL, bytes BYTEA NOT NULL,
     PRIMARY KEY (game_id, name));
   CREATE TABLE checks (
     n BIGSERIAL, id TEXT PRIMARY KEY, created_at TEXT NOT NULL, lang TEXT NOT NULL, verification TEXT NOT NULL,
     before_type TEXT, before BYTEA, after_type TEXT NOT NULL, after BYTEA NOT NULL);`,
  // 2: the listing shows each game's totals and last move's time; games can be archived; games belong to an event.
  `ALTER TABLE games ADD COLUMN scores TEXT, ADD COLUMN last_event_at TEXT, ADD COLUMN archived_at TEXT,
     ADD COLUMN event TEXT;
   CREATE INDEX games_by_event ON games (event, created_at DESC);`,
  // 3: photos written from now on are kept as they are, not compressed: a JPEG does not compress, and PostgreSQL tried
  // each time (its pglz over the whole photo, as its header's tables compress): 8.6 ms of the database's time a photo
  // in the hall's bench, 2.5 ms since. Metadata only: no table is rewritten; photos kept before stay as they are.
  `ALTER TABLE photos ALTER COLUMN bytes SET STORAGE EXTERNAL;
   ALTER TABLE checks ALTER COLUMN before SET STORAGE EXTERNAL, ALTER COLUMN after SET STORAGE EXTERNAL;`,
  // 4: the frame that last ended a turn, per camera: a doubled End turn is known after a restart (TurnFrame).
  `CREATE TABLE turn_frames (
     game_id TEXT NOT NULL REFERENCES games(id), camera INTEGER NOT NULL, digest TEXT NOT NULL,
     version INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, camera));`,
];

/** Any number: the advisory lock the migrations run under. */
const MIGRATION_LOCK = 7_151_234;

const UNIQUE_VIOLATION = '23505';

/** Game `g`'s events after number $2, and its held readings, as JSON (getGame, getChanges). */
const CHANGES = `(SELECT coalesce(json_agg(json_build_object('seq', e.seq, 'event', e.event, 'photo', e.photo,
                   'decision', e.decision, 'at', e.at) ORDER BY e.seq), '[]')
            FROM events e WHERE e.game_id = g.id AND e.seq > $2) AS events,
         (SELECT coalesce(json_agg(h.held ORDER BY h.board), '[]') FROM held h WHERE h.game_id = g.id) AS held`;

interface ChangesRow {
  events: EventRow[];
  held: string[];
}

function changesOf(row: ChangesRow): GameChanges {
  return { events: row.events.map(storedEvent), held: row.held.map((h) => JSON.parse(h) as StoredHeld) };
}

export class PostgresStore implements GameStore {
  private readonly maxPhotoBytesPerGame: number;
  private readonly maxPhotoBytesTotal: number;

  private constructor(
    private readonly pool: pg.Pool,
    caps: Partial<PhotoCaps>,
  ) {
    this.maxPhotoBytesPerGame = caps.perGame ?? DEFAULT_PHOTO_BYTES_PER_GAME;
    this.maxPhotoBytesTotal = caps.total ?? DEFAULT_PHOTO_BYTES_TOTAL;
  }

  /** Connects (a small pool) and brings the schema up to date. */
  static async open(url: string, caps: Partial<PhotoCaps> = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: 8, idleTimeoutMillis: 30_000 });
    // An idle client losing its connection (the server restarted) is not this process's crash.
    pool.on('error', (err) => console.error(`PostgreSQL: ${err.message}`));
    try {
      await migrate(pool);
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PostgresStore(pool, caps);
  }

  /** The schema version the database is at. */
  async version(): Promise<number> {
    const { rows } = await this.pool.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM tilecam_schema',
    );
    return rows[0]?.v ?? 0;
  }

  async createGame(game: { id: string; tokenHash: string; config: GameConfig }): Promise<void> {
    await this.pool.query(
      'INSERT INTO games (id, token_hash, config, created_at, event) VALUES ($1, $2, $3, $4, $5)',
      gameValues(game),
    );
  }

  async appendEvents(
    gameId: string,
    events: readonly StoredEvent[],
    summary: GameSummary = {},
  ): Promise<void> {
    if (events.length === 0) {
      if (summary.ended !== undefined)
        await this.pool.query('UPDATE games SET ended_at = $1 WHERE id = $2', [summary.ended, gameId]);
      return;
    }
    // One statement (atomic, one round trip: a move's commit waits for it): the events, then the game's row.
    const rows = events.map((e) => eventValues(gameId, e));
    const column = (k: number) => rows.map((r) => r[k]);
    const [lastAt, scores] = lastEventValues(gameId, events, summary)!;
    try {
      await this.pool.query(
        `WITH added AS (
           INSERT INTO events (game_id, seq, event, photo, decision, at)
           SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[]))
         UPDATE games SET last_event_at = $7, scores = COALESCE($8, scores),
           ended_at = CASE WHEN $9 THEN $10 ELSE ended_at END
         WHERE id = $11`,
        [
          ...[0, 1, 2, 3, 4, 5].map(column),
          lastAt,
          scores,
          summary.ended !== undefined,
          summary.ended ?? null,
          gameId,
        ],
      );
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION)
        throw new StoreConflict(
          events.length === 1
            ? `game ${gameId}: event ${events[0]!.seq} is recorded already`
            : `game ${gameId}: an event of ${events[0]!.seq}–${events.at(-1)!.seq} is recorded already`,
        );
      throw err;
    }
  }

  async setArchived(gameId: string, at: string | null): Promise<void> {
    await this.pool.query('UPDATE games SET archived_at = $1 WHERE id = $2', [at, gameId]);
  }

  async setHeld(gameId: string, board: number, held: StoredHeld | null): Promise<void> {
    if (held === null)
      await this.pool.query('DELETE FROM held WHERE game_id = $1 AND board = $2', [gameId, board]);
    else
      await this.pool.query(
        `INSERT INTO held (game_id, board, held) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, board) DO UPDATE SET held = EXCLUDED.held`,
        [gameId, board, JSON.stringify(held)],
      );
  }

  async getGame(id: string): Promise<StoredGame | undefined> {
    // One statement, so one snapshot of the database (the events and the held readings as they were together), and
    // one round trip. Events are numbered from 1: after 0 is all of them.
    const { rows } = await this.pool.query<
      { id: string; token_hash: string; config: string; created_at: string } & ChangesRow
    >(`SELECT g.id, g.token_hash, g.config, g.created_at, ${CHANGES} FROM games g WHERE g.id = $1`, [id, 0]);
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id,
      tokenHash: row.token_hash,
      config: JSON.parse(row.config),
      createdAt: row.created_at,
      ...changesOf(row),
    };
  }

  async noteTurnFrame(gameId: string, frame: TurnFrame): Promise<void> {
    await this.pool.query(
      `INSERT INTO turn_frames (game_id, camera, digest, version, at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (game_id, camera) DO UPDATE SET digest = $3, version = $4, at = $5`,
      [gameId, frame.camera, frame.digest, frame.version, frame.at],
    );
  }

  async turnFrame(gameId: string, camera: number): Promise<TurnFrame | undefined> {
    const { rows } = await this.pool.query<TurnFrame>(
      'SELECT camera, digest, version, at FROM turn_frames WHERE game_id = $1 AND camera = $2',
      [gameId, camera],
    );
    return rows[0];
  }

  async getChanges(id: string, after: number): Promise<GameChanges | undefined> {
    // One statement, as getGame: every instance catches up after each change made elsewhere, and a game's events
    // grow all game long, so only the new ones are read.
    const { rows } = await this.pool.query<ChangesRow>(`SELECT ${CHANGES} FROM games g WHERE g.id = $1`, [
      id,
      after,
    ]);
    const row = rows[0];
    return row && changesOf(row);
  }

  async listGames(query: ListQuery): Promise<ListedGame[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.after) {
      params.push(query.after.createdAt, query.after.id);
      where.push(`(created_at < $1 OR (created_at = $1 AND id < $2))`);
    }
    if (query.event !== undefined) {
      params.push(query.event);
      where.push(`event = $${params.length}`);
    }
    if (query.status === 'archived') where.push('archived_at IS NOT NULL');
    else where.push('archived_at IS NULL');
    if (query.status === 'live') where.push('ended_at IS NULL');
    if (query.status === 'ended') where.push('ended_at IS NOT NULL');
    params.push(query.limit);
    const { rows } = await this.pool.query<ListedRow>(
      `SELECT id, config, created_at, ended_at, scores, last_event_at, archived_at FROM games ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(listed);
  }

  async savePhoto(gameId: string, name: string, bytes: Uint8Array): Promise<string | undefined> {
    const file = basename(name);
    const saved = await this.inTransaction(async (client) => {
      // One writer at a time per game: the cap is checked and the photo kept together.
      await client.query('SELECT 1 FROM games WHERE id = $1 FOR UPDATE', [gameId]);
      const used = await client.query<{ bytes: string | null }>(
        'SELECT sum(length(bytes)) AS bytes FROM photos WHERE game_id = $1 AND name <> $2',
        [gameId, file],
      );
      if (Number(used.rows[0]?.bytes ?? 0) + bytes.length > this.maxPhotoBytesPerGame) return false;
      if (!(await this.room(client, bytes.length))) return false;
      await client.query(
        `INSERT INTO photos (game_id, name, bytes) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, name) DO UPDATE SET bytes = EXCLUDED.bytes`,
        [gameId, file, Buffer.from(bytes)],
      );
      return true;
    });
    return saved ? `photos/${gameId}/${file}` : undefined;
  }

  async getPhoto(gameId: string, name: string): Promise<Uint8Array | undefined> {
    const { rows } = await this.pool.query<{ bytes: Buffer }>(
      'SELECT bytes FROM photos WHERE game_id = $1 AND name = $2',
      [gameId, basename(name)],
    );
    return rows[0]?.bytes;
  }

  async renamePhoto(gameId: string, path: string, name: string): Promise<string> {
    const from = this.nameIn(gameId, path);
    const to = basename(name);
    const { rowCount } = await this.pool.query(
      'UPDATE photos SET name = $3 WHERE game_id = $1 AND name = $2',
      [gameId, from, to],
    );
    if (!rowCount) throw new Error(`photo ${path} of game ${gameId} is not kept`);
    return `photos/${gameId}/${to}`;
  }

  async deletePhoto(gameId: string, path: string): Promise<void> {
    await this.pool.query('DELETE FROM photos WHERE game_id = $1 AND name = $2', [
      gameId,
      this.nameIn(gameId, path),
    ]);
  }

  async sweepPhotos(gameId: string, prefix: string): Promise<void> {
    // One statement: the held readings it reads are those of its own snapshot, and a photo saved after that
    // snapshot is not seen by it, so a photo is either named by a reading it sees or left alone. The prefix is
    // matched as text, never as a pattern.
    await this.pool.query(
      `DELETE FROM photos p WHERE p.game_id = $1 AND left(p.name, length($2)) = $2
         AND NOT EXISTS (SELECT 1 FROM held h WHERE h.game_id = $1
                           AND h.held::jsonb ->> 'photo' = 'photos/' || $1 || '/' || p.name)`,
      [gameId, prefix],
    );
  }

  async photoBytesKept(): Promise<number> {
    return this.keptBytes(this.pool);
  }

  /** Bytes of every photo kept: games' and checks' (`length` reads a photo's size, not the photo). */
  private async keptBytes(client: pg.Pool | pg.PoolClient): Promise<number> {
    const { rows } = await client.query<{ bytes: string }>(
      `SELECT (SELECT coalesce(sum(length(bytes)), 0) FROM photos)
            + (SELECT coalesce(sum(coalesce(length(before), 0) + length(after)), 0) FROM checks) AS bytes`,
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  /**
   * Whether `bytes` more fit under the ceiling on all photos, once the photos of the games that ended longest ago
   * have gone, a game at a time, as far as needed. Instances writing at once may pass it by a photo each.
   */
  private async room(client: pg.Pool | pg.PoolClient, bytes: number): Promise<boolean> {
    for (let k = 0; k < 10_000; k++) {
      if ((await this.keptBytes(client)) + bytes <= this.maxPhotoBytesTotal) return true;
      const { rows } = await client.query<{ id: string; freed: string }>(
        `WITH oldest AS (SELECT g.id FROM games g WHERE g.ended_at IS NOT NULL
                           AND EXISTS (SELECT 1 FROM photos p WHERE p.game_id = g.id)
                         ORDER BY g.ended_at, g.id LIMIT 1),
              gone AS (DELETE FROM photos WHERE game_id IN (SELECT id FROM oldest) RETURNING game_id, length(bytes) AS n)
         SELECT game_id AS id, sum(n) AS freed FROM gone GROUP BY game_id`,
      );
      const game = rows[0];
      if (!game) return false;
      console.error(
        `the photos are at their ceiling: game ${game.id}'s photos (${game.freed} bytes, ended) removed`,
      );
    }
    return false;
  }

  async saveCheck(check: StoredCheck, keep: number): Promise<void> {
    if (!(await this.room(this.pool, (check.before?.bytes.byteLength ?? 0) + check.after.bytes.byteLength)))
      throw new StoreFull();
    await this.inTransaction(async (client) => {
      await client.query(
        `INSERT INTO checks (id, created_at, lang, verification, before_type, before, after_type, after)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          check.id,
          check.createdAt,
          check.lang,
          JSON.stringify(check.verification),
          check.before?.type ?? null,
          check.before ? Buffer.from(check.before.bytes) : null,
          check.after.type,
          Buffer.from(check.after.bytes),
        ],
      );
      await client.query(
        'DELETE FROM checks WHERE n NOT IN (SELECT n FROM checks ORDER BY n DESC LIMIT $1)',
        [keep],
      );
    });
  }

  async getCheck(id: string): ReturnType<GameStore['getCheck']> {
    const { rows } = await this.pool.query<CheckRow>(
      'SELECT id, created_at, lang, verification, before_type, after_type FROM checks WHERE id = $1',
      [id],
    );
    return rows[0] && keptCheck(rows[0]);
  }

  async getCheckPhoto(id: string, which: 'before' | 'after'): Promise<StoredImage | undefined> {
    // Two fixed statements: the column is never built from input.
    const sql =
      which === 'before'
        ? 'SELECT before_type AS type, before AS bytes FROM checks WHERE id = $1'
        : 'SELECT after_type AS type, after AS bytes FROM checks WHERE id = $1';
    const { rows } = await this.pool.query<{ type: string | null; bytes: Buffer | null }>(sql, [id]);
    const row = rows[0];
    return row?.type && row.bytes ? { type: row.type, bytes: row.bytes } : undefined;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** A stored photo path's file name, checked to be one of the game's (`photos/GAME/NAME`). */
  private nameIn(gameId: string, path: string): string {
    const parts = path.split('/');
    if (parts.length !== 3 || parts[0] !== 'photos' || parts[1] !== gameId || !parts[2])
      throw new Error(`photo ${path} is not one of game ${gameId}'s`);
    return parts[2];
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(begin);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that cannot even roll back is broken: it is closed, not handed back to the pool.
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }
}

/** Runs the migrations the database has not had, in order, one instance at a time. */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS tilecam_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM tilecam_schema');
    const at = rows[0]?.v ?? 0;
    if (at > MIGRATIONS.length)
      throw new Error(
        `the database's schema is version ${at}, newer than this tilecam knows (${MIGRATIONS.length}): upgrade tilecam`,
      );
    for (let v = at + 1; v <= MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v - 1]!);
      await client.query('INSERT INTO tilecam_schema (version) VALUES ($1)', [v]);
    }
    await client.query('COMMIT');
  } catch (err) {
    let broken: Error | undefined;
    await client.query('ROLLBACK').catch((e: Error) => {
      broken = e;
    });
    client.release(broken);
    throw err;
  }
  client.release();
}
