/** The listing of games (`GET /api/games`): newest first, a page at a time, archived games apart. */
import type { GameStore, ListQuery } from '../store/types.ts';
import { ServiceError, storeOutage } from './errors.ts';

/** A game with nothing recorded for this many days (and not ended) is abandoned: it may be archived. */
export const ABANDONED_DAYS = 7;

export function abandoned(lastAt: string, now: number): boolean {
  const t = Date.parse(lastAt);
  return Number.isFinite(t) && now - t >= ABANDONED_DAYS * 24 * 3600 * 1000;
}

/** A game as `GET /api/games` lists it. */
export interface ListedGameView {
  readonly id: string;
  readonly players: readonly string[];
  readonly variant: string;
  /** The event the game belongs to, if any. */
  readonly event?: string;
  readonly createdAt: string;
  readonly ended: boolean;
  /** The totals after the last event, in seat order (null before the first). */
  readonly scores: readonly number[] | null;
  readonly lastEventAt: string | null;
  /** Live, but nothing recorded for ABANDONED_DAYS days. */
  readonly abandoned: boolean;
  readonly archived: boolean;
}

/** What a listing asks for: a page's size, the games' status or event, and where the last page ended. */
export interface ListingQuery {
  readonly limit?: number;
  readonly status?: 'live' | 'ended' | 'archived';
  readonly event?: string;
  readonly after?: string;
}

/** A page of the listing, and the cursor of the next one (null at the end). */
export interface Listing {
  readonly games: ListedGameView[];
  readonly next: string | null;
}

/** Games newest first, a page at a time; `next` continues the listing. Archived games are listed only with
 *  `status: 'archived'`. */
export async function listGames(store: GameStore, query: ListingQuery = {}): Promise<Listing> {
  const limitTo = query.limit ?? 50;
  const after = query.after ? parseCursor(query.after) : undefined;
  const q: ListQuery = {
    limit: limitTo + 1,
    ...(after ? { after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.event !== undefined ? { event: query.event } : {}),
  };
  const rows = await store.listGames(q).catch(storeOutage('try again in a few seconds'));
  const page = rows.slice(0, limitTo);
  const last = page.at(-1);
  const now = Date.now();
  return {
    games: page.map((g) => ({
      id: g.id,
      players: g.config.players,
      variant: g.config.variant,
      ...(g.config.event ? { event: g.config.event } : {}),
      createdAt: g.createdAt,
      ended: g.endedAt !== null,
      scores: g.scores,
      lastEventAt: g.lastEventAt,
      abandoned: g.endedAt === null && abandoned(g.lastEventAt ?? g.createdAt, now),
      archived: g.archivedAt !== null,
    })),
    next:
      rows.length > limitTo && last
        ? Buffer.from(`${last.createdAt} ${last.id}`).toString('base64url')
        : null,
  };
}

function parseCursor(cursor: string): { createdAt: string; id: string } {
  const m = /^(\S{1,40}) ([\w-]{1,40})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new ServiceError('bad-request', 'after must be the next value of a previous page');
  return { createdAt: m[1]!, id: m[2]! };
}
