/**
 * The games list as `GET /api/games` answers it (the start page's "Games", the hall's live games of an event), and
 * how a listed game's scores read: "Ann 120 – Ben 98".
 */
import * as api from '../api.ts';

/** A game as the server lists it. */
export interface ListedGame {
  id: string;
  players: string[];
  variant: string;
  /** The event (tournament, club night) it belongs to. */
  event?: string;
  createdAt: string;
  ended: boolean;
  /** The totals in seat order after the last event; null before the first. */
  scores: number[] | null;
  lastEventAt: string | null;
  /** Live, but no move for a week. */
  abandoned: boolean;
  archived: boolean;
}

export interface GamesPage {
  games: ListedGame[];
  next: string | null;
}

export interface ListQuery {
  status?: 'live' | 'ended' | 'archived';
  event?: string;
  limit?: number;
  after?: string;
}

/** Why a listing failed, for the page to say. */
export class ListError extends Error {}

/** One page of games, newest first. */
export async function listGames(query: ListQuery = {}): Promise<GamesPage> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const answer = await api.listGames<Partial<GamesPage>>(params);
  if (!answer.ok || !Array.isArray(answer.body.games)) throw new ListError(api.failure(answer));
  return { games: answer.body.games, next: answer.body.next ?? null };
}

/** Every game the query lists, following `next` page after page (at most `maxPages` of 100). */
export async function listAllGames(query: Omit<ListQuery, 'after' | 'limit'>, maxPages = 20) {
  const games: ListedGame[] = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await listGames({ ...query, limit: 100, ...(after ? { after } : {}) });
    games.push(...page.games);
    if (!page.next) break;
    after = page.next;
  }
  return games;
}

/** The players with their totals, "Ann 120 – Ben 98"; the names alone before the first move. */
export function playersWithScores(g: Pick<ListedGame, 'players' | 'scores'>): string {
  return g.players.map((p, i) => (g.scores ? `${p} ${g.scores[i] ?? 0}` : p)).join(' – ');
}

/** The address of an event's hall. */
export function hallHref(event: string): string {
  return `/hall?event=${encodeURIComponent(event)}`;
}
