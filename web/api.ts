/**
 * The pages' one client of the server's HTTP API: each request it makes, typed by the protocol's views, and one
 * way of reading an answer. An answer is a value, never a throw: the server's body, or why there is none (the server
 * not reached, or its error envelope `{ error: { code, message } }`, or only its status). Each page says it in its
 * own words.
 */
import type {
  ActionInput,
  AnalysisView,
  CheckView,
  CreatedGame,
  GameAnalysis,
  GameConfigInput,
  GameList,
  GcgCheck,
  MeActionInput,
  Snapshot,
  SourceView,
  TurnCheck,
} from '../server/protocol/index.ts';

export type Answer<T> =
  | { readonly ok: true; readonly status: number; readonly body: T }
  | {
      readonly ok: false;
      /** 0 when the server was not reached. */
      readonly status: number;
      /** The error envelope's code, when the server sent one (`stale`, `unknown`, …). */
      readonly code?: string;
      /** The error envelope's message, when the server sent one. */
      readonly message?: string;
    };

/** The server's answer to one request: a body that is not JSON is a failure with its status alone. */
export async function request<T>(url: string, init?: RequestInit): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    return { ok: false, status: 0 };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, status: res.status };
  }
  if (res.ok && body !== null && body !== undefined) return { ok: true, status: res.status, body: body as T };
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return {
    ok: false,
    status: res.status,
    ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    ...(typeof error?.message === 'string' ? { message: error.message } : {}),
  };
}

/** Why it failed, in a few words: the server's message, "the server could not be reached", or `fallback`. */
export function failure(answer: Answer<unknown>, fallback = `the server answered ${answer.status}`): string {
  if (answer.ok) return '';
  if (answer.status === 0) return 'the server could not be reached';
  return answer.message ?? fallback;
}

const game = (id: string) => `/api/games/${encodeURIComponent(id)}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { 'content-type': 'application/json' };

/** `POST /api/games`: a new game. */
export const createGame = (config: GameConfigInput) =>
  request<CreatedGame>('/api/games', { method: 'POST', headers: json, body: JSON.stringify(config) });

/** `GET /api/games?…`: a page of games, newest first (listing.ts reads more of each game than GameList says). */
export const listGames = <T = GameList>(query?: URLSearchParams) => {
  const q = query?.toString() ?? '';
  return request<T>(`/api/games${q ? `?${q}` : ''}`);
};

/** `GET /api/games/ID`: the game as the server has it now. */
export const getGame = (id: string) => request<Snapshot>(game(id));

/** `POST /api/games/ID/actions`: a scorekeeper's action; the answer carries the game as it is after it. */
export const sendAction = (
  id: string,
  token: string,
  action: (ActionInput | MeActionInput) & { version?: number },
) =>
  request<{ snapshot: Snapshot }>(`${game(id)}/actions`, {
    method: 'POST',
    headers: { ...json, ...bearer(token) },
    body: JSON.stringify(action),
  });

/** `POST` (archive) or `DELETE` (restore) `/api/games/ID/archive`. */
export const setArchived = (id: string, token: string, archived: boolean) =>
  request<{ archived: boolean }>(`${game(id)}/archive`, {
    method: archived ? 'POST' : 'DELETE',
    headers: bearer(token),
  });

/** `GET /api/games/ID/source`: the camera streams the server pulls for the game, and why one stopped. */
export const getSources = (id: string, token: string) =>
  request<{ sources: SourceView[] }>(`${game(id)}/source`, { headers: bearer(token) });

/** `POST /api/games/ID/analysis`: move `turn` against the best plays of `rack` (the scorekeeper's). */
export const postAnalysis = (id: string, token: string, turn: number, rack?: string) =>
  request<AnalysisView>(`${game(id)}/analysis`, {
    method: 'POST',
    headers: { ...json, ...bearer(token) },
    body: JSON.stringify(rack === undefined ? { turn } : { turn, rack }),
  });

/** `GET /api/games/ID/gcg` with the scorekeeper's token: the game as a GCG file, with the racks kept (a file, not
 *  JSON); undefined when refused or unreachable. */
export async function getGcgFile(id: string, token: string): Promise<Blob | undefined> {
  try {
    const res = await fetch(`${game(id)}/gcg`, { headers: bearer(token) });
    return res.ok ? await res.blob() : undefined;
  } catch {
    return undefined;
  }
}

/** `GET /api/games/ID/rack-keys` with the scorekeeper's token: the key of each player's rack camera, in seat order. */
export const getRackKeys = (id: string, token: string) =>
  request<{ keys: string[] }>(`${game(id)}/rack-keys`, { headers: bearer(token) });

/** `GET /api/games/ID/racks`: each player's rack left, from the racks kept with the last moves (null: not known). */
export const getRacksLeft = (id: string, token: string) =>
  request<{ left: (string | null)[] }>(`${game(id)}/racks`, { headers: bearer(token) });

/** `GET /api/games/ID/analysis`: every move against the best plays of the rack kept with it (the scorekeeper's). */
export const getGameAnalysis = (id: string, token: string) =>
  request<GameAnalysis>(`${game(id)}/analysis`, { headers: bearer(token) });

/** `GET /api/health`: the server's addresses on its networks, among others. */
export const getHealth = () => request<{ lan?: unknown }>('/api/health');

/** `POST /api/checks`: a score checked from photos (the form's data). */
export const postCheck = (data: FormData) =>
  request<CheckView>('/api/checks', { method: 'POST', body: data });

/** `POST /api/checks/gcg`: a game record rescored. */
export const postGcgCheck = (text: string, lang: string) =>
  request<GcgCheck>(`/api/checks/gcg${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: text,
  });

/** `GET /api/checks/ID`: a check made before. */
export const getCheck = (id: string) => request<CheckView>(`/api/checks/${encodeURIComponent(id)}`);

/** `GET /api/games/ID/turns/N/check`: a recorded move checked. */
export const getTurnCheck = (id: string, turn: string) =>
  request<TurnCheck>(`${game(id)}/turns/${turn}/check`);
