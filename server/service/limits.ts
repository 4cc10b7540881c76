/**
 * The service's limits: what one client, one viewer, one game and one camera stream may cost the machine. Each
 * has a default that a family's game and a club's evening stay far inside; `tilecam serve` sets them with
 * `--limit NAME=VALUE` (docs/operations.md, "Security").
 */

import type { PhotoCaps } from '../store/types.ts';

export type SourcePolicy = 'none' | 'public' | 'lan' | 'any';

export const sourcePolicies: readonly SourcePolicy[] = ['none', 'public', 'lan', 'any'];

export interface Limits {
  /** Camera frames a game reads per second, from HTTP, WebSocket and pulled streams together. */
  readonly framesPerSecond: number;
  /** Games one client address may create per minute. */
  readonly gamesPerMinute: number;
  /** Scores one client address may check from photos per minute (each reads two photos). */
  readonly checksPerMinute: number;
  /** Checks kept for their permalinks; the oldest beyond go. */
  readonly checksKept: number;
  /** Messages one WebSocket connection may send per second (a camera sends one or two). */
  readonly messagesPerSecond: number;
  /** Largest WebSocket message in bytes: a camera frame as base64. */
  readonly messageBytes: number;
  /** Bytes waiting to go out to one viewer above which its snapshots are coalesced into the latest one. */
  readonly viewerBufferBytes: number;
  /** A viewer that stays above that for this long, or answers no ping for this long, is disconnected. */
  readonly viewerStallMs: number;
  /** Camera streams the server pulls at once, over all games. */
  readonly sources: number;
  /** A camera stream that sends nothing (not even its headers) for this long is dropped and reported. */
  readonly sourceTimeoutMs: number;
  /** Bytes of photos one game may keep (beyond it moves are recorded without their photo). */
  readonly photoBytesPerGame: number;
  /**
   * Bytes of photos kept in all, games' and checks' together: past it the photos of the games that ended longest
   * ago go first; when none are left, moves are recorded without their photo and score checks are refused (507).
   */
  readonly photoBytesTotal: number;
  /** A game nobody watches is dropped from memory after this long (it is loaded again on the next request). */
  readonly idleMs: number;
  /** Games kept in memory at most; the least recently used unwatched ones go first. */
  readonly liveGames: number;
}

export const defaultLimits: Limits = {
  framesPerSecond: 8,
  gamesPerMinute: 20,
  checksPerMinute: 20,
  checksKept: 1000,
  messagesPerSecond: 20,
  messageBytes: 8 * 1024 * 1024,
  viewerBufferBytes: 256 * 1024,
  viewerStallMs: 30_000,
  sources: 16,
  sourceTimeoutMs: 10_000,
  photoBytesPerGame: 256 * 1024 * 1024,
  photoBytesTotal: 4 * 1024 * 1024 * 1024,
  idleMs: 10 * 60_000,
  liveGames: 200,
};

/** The store's caps on photos, from the limits. */
export function photoCaps(limits: Limits): PhotoCaps {
  return { perGame: limits.photoBytesPerGame, total: limits.photoBytesTotal };
}

/** `NAME=VALUE` settings over the defaults; a name or value that is not a limit's is an error naming it. */
export function parseLimits(settings: readonly string[], base: Limits = defaultLimits): Limits {
  const limits: Record<string, number> = { ...base };
  for (const setting of settings) {
    const m = /^([A-Za-z]+)=(\d{1,12})$/.exec(setting);
    if (!m) throw new Error(`--limit takes NAME=NUMBER, got '${setting}'`);
    const [, name, value] = m as unknown as [string, string, string];
    if (!Object.hasOwn(base, name))
      throw new Error(`unknown limit '${name}': one of ${Object.keys(base).join(', ')}`);
    const n = Number(value);
    if (n < 1) throw new Error(`--limit ${name} must be at least 1`);
    limits[name] = n;
  }
  return limits as unknown as Limits;
}
