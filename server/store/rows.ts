/**
 * The rows both stores read, and how each becomes what the store interface returns: SQLite and PostgreSQL keep the
 * same columns (JSON as text), so one mapping serves both.
 */
import type { GameConfig, GameStore, GameSummary, ListedGame, StoredEvent } from './types.ts';

/** A new game's column values: id, token_hash, config, created_at, event. */
export function gameValues(game: { id: string; tokenHash: string; config: GameConfig }) {
  return [
    game.id,
    game.tokenHash,
    JSON.stringify(game.config),
    new Date().toISOString(),
    game.config.event ?? null,
  ];
}

/** An event's column values: game_id, seq, event, photo, decision, at. */
export function eventValues(gameId: string, e: StoredEvent) {
  return [
    gameId,
    e.seq,
    JSON.stringify(e.event),
    e.photo ?? null,
    e.decision ? JSON.stringify(e.decision) : null,
    e.at,
  ];
}

/** After appending `events`: last_event_at and the totals (null: as they were), then the game id. */
export function lastEventValues(gameId: string, events: readonly StoredEvent[], summary: GameSummary) {
  const last = events.at(-1);
  return last ? [last.at, summary.scores ? JSON.stringify(summary.scores) : null, gameId] : undefined;
}

/** A games row as the listing reads it. */
export interface ListedRow {
  id: string;
  config: string;
  created_at: string;
  ended_at: string | null;
  scores: string | null;
  last_event_at: string | null;
  archived_at: string | null;
}

export function listed(r: ListedRow): ListedGame {
  return {
    id: r.id,
    config: JSON.parse(r.config),
    createdAt: r.created_at,
    endedAt: r.ended_at,
    scores: r.scores ? (JSON.parse(r.scores) as number[]) : null,
    lastEventAt: r.last_event_at,
    archivedAt: r.archived_at,
  };
}

/** An events row. */
export interface EventRow {
  seq: number;
  event: string;
  photo: string | null;
  decision: string | null;
  at: string;
}

export function storedEvent(e: EventRow): StoredEvent {
  return {
    seq: e.seq,
    event: JSON.parse(e.event),
    at: e.at,
    ...(e.photo ? { photo: e.photo } : {}),
    ...(e.decision ? { decision: JSON.parse(e.decision) } : {}),
  };
}

/** A checks row without its photos' bytes. */
export interface CheckRow {
  id: string;
  created_at: string;
  lang: 'en' | 'de';
  verification: string;
  before_type: string | null;
  after_type: string;
}

export function keptCheck(row: CheckRow): NonNullable<Awaited<ReturnType<GameStore['getCheck']>>> {
  return {
    id: row.id,
    createdAt: row.created_at,
    lang: row.lang,
    verification: JSON.parse(row.verification),
    before: row.before_type ? { type: row.before_type } : null,
    after: { type: row.after_type },
  };
}
