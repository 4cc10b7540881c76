/**
 * The rendered Scrabble Me game (fixtures/me_game, three players, a board and a camera each) played against a
 * running server through its HTTP API, step by step, for the API and browser tests.
 *
 * Round 1: Ann 8G CAT 10, Ben 8H DOGS 12, Cy H6 SU? 4 (a blank) → Cy, lowest, picks first; Cy swaps boards with
 * Ann. Round 2 on the boards they then hold: Ann 7G HUT 11, Ben H8 DOT 4, Cy H7 TAX 10. Totals 21, 16, 14.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MeSnapshot } from '../server/protocol/index.ts';

export const ME_PLAYERS = ['Ann', 'Ben', 'Cy'];
export const ME_PODIUM = 'EAIRSTNLO';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/me_game/${name}`, import.meta.url));
export const mePhotoNamed = (name: string) => readFileSync(fixture(`${name}.jpg`));
export const mePhoto = (round: number, board: number) => mePhotoNamed(`${round}-${board}`);
/** What is really on a board after a round (the board text the photo was rendered from). */
export const meBoard = (round: number, board: number) =>
  readFileSync(fixture(`${round}-${board}.txt`), 'utf8')
    .trimEnd()
    .split('\n');

export interface Reply {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string }; snapshot?: MeSnapshot };
}

export function meClient(base: string) {
  let token = '';
  let id = '';
  const call = async (path: string, init: RequestInit): Promise<Reply> => {
    const res = await fetch(base + path, init);
    return { status: res.status, body: (await res.json()) as Reply['body'] };
  };
  return {
    get id() {
      return id;
    },
    get token() {
      return token;
    },
    async create(): Promise<Reply> {
      const reply = await call('/api/games', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ players: ME_PLAYERS, variant: 'scrabble-me', podium: ME_PODIUM }),
      });
      ({ id, token } = reply.body as { id: string; token: string });
      return reply;
    },
    /** A frame from the camera at `camera`'s seat, ending that board's turn unless `endTurn` is false. */
    frame(camera: number, bytes: Uint8Array, endTurn = true): Promise<Reply> {
      return call(`/api/games/${id}/frames?camera=${camera}${endTurn ? '&endTurn=1' : ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: bytes as unknown as BodyInit,
      });
    },
    act(action: object): Promise<Reply> {
      return call(`/api/games/${id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(action),
      });
    },
    async snapshot(): Promise<MeSnapshot> {
      return (await call(`/api/games/${id}`, {})).body as unknown as MeSnapshot;
    },
  };
}

/**
 * Plays the whole game; every step must succeed. `created` runs once the game exists (to open a page on it).
 * Returns the client for further looks.
 */
export async function playMeGame(
  base: string,
  created: (client: ReturnType<typeof meClient>) => Promise<void> = async () => {},
) {
  const client = meClient(base);
  const must = (reply: Reply, what: string) => {
    if (reply.status >= 300) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply;
  };
  must(await client.create(), 'create');
  await created(client);
  for (const b of [0, 1, 2]) must(await client.frame(b, mePhoto(1, b)), `round 1, board ${b + 1}`);
  must(await client.act({ type: 'swap', player: 2, with: 0 }), 'swap');
  must(await client.act({ type: 'refill', picks: ['E', ...Array(9).fill('bag')] }), 'refill');
  must(await client.act({ type: 'podium', letters: 'U' }), 'podium');
  // After the swap the camera at Ann's seat sees board 3, and the one at Cy's seat board 1.
  for (const [camera, board] of [
    [0, 2],
    [1, 1],
    [2, 0],
  ] as const) {
    const reply = must(await client.frame(camera, mePhoto(2, board)), `round 2, camera ${camera + 1}`);
    // A reading held for a square in doubt: the scorekeeper confirms what is really on the board.
    if (reply.body.status === 'needs-confirmation')
      must(await client.act({ type: 'confirm', board, reading: meBoard(2, board) }), 'confirm');
  }
  return client;
}
