/**
 * Scrabble Me through the service: a real server and SQLite file, three boards photographed (fixtures/me_game),
 * one camera per seat, a blank swap that moves the boards between seats, the refill and the podium, and a restart
 * that resumes the game exactly.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { MeSnapshot } from '../server/protocol/index.ts';
import { GameService } from '../server/service/service.ts';
import { SqliteStore } from '../server/store/sqlite.ts';
import { ME_PODIUM, meBoard, meClient, mePhoto, mePhotoNamed, playMeGame } from './me-game.ts';

let server: RunningServer;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tilecam-me-'));
  server = await startServer({ port: 0, host: '127.0.0.1', db: join(dir, 'games.db'), heartbeatMs: 200 });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

const totals = (s: { players: readonly { score: number }[] }) => s.players.map((p) => p.score);

/** The game as a restarted server sees it: a new service on the same database file. */
async function reopened(id: string): Promise<MeSnapshot> {
  const store = new SqliteStore(join(dir, 'games.db'));
  try {
    return (await new GameService(store).get(id)).snapshot() as MeSnapshot;
  } finally {
    await store.close();
  }
}

describe('a Scrabble Me game over HTTP', () => {
  it('scores each round once every board has ended its turn, and follows the boards after a blank swap', async () => {
    const g = meClient(base);
    expect((await g.create()).status).toBe(201);
    let s = await g.snapshot();
    expect(s).toMatchObject({ variant: 'scrabble-me', phase: 'build', round: 1, bag: 70 });
    expect(s.podium.join('')).toBe(ME_PODIUM);
    expect(s.boards).toHaveLength(3);

    // Round 1: the first two boards end their turn; nothing is scored until the third has.
    const first = await g.frame(0, mePhoto(1, 0));
    expect(first.body).toMatchObject({ status: 'ended-turn', board: 0 });
    expect((await g.frame(1, mePhoto(1, 1))).body).toMatchObject({ status: 'ended-turn', board: 1 });
    s = await g.snapshot();
    expect(totals(s)).toEqual([0, 0, 0]);
    expect(s.boards.map((b) => b.ended)).toEqual([true, true, false]);
    // A restart now keeps the two turns already ended.
    expect((await reopened(g.id)).boards.map((b) => b.ended)).toEqual([true, true, false]);
    const third = await g.frame(2, mePhoto(1, 2));
    expect(third.body).toMatchObject({ status: 'committed', board: 2 });
    s = await g.snapshot();
    expect(totals(s)).toEqual([10, 12, 4]);
    expect(s.rounds).toEqual([
      {
        round: 1,
        bonus: null,
        words: [
          expect.objectContaining({ player: 0, board: 0, word: 'CAT', score: 10, withdrawn: false }),
          expect.objectContaining({ player: 1, board: 1, word: 'DOGS', score: 12 }),
          expect.objectContaining({ player: 2, board: 2, word: 'SU?', score: 4 }),
        ],
      },
    ]);
    // Cy played the blank: Cy swaps boards before anything else; Cy, the round's lowest, picks first.
    expect(s).toMatchObject({ phase: 'scored', swaps: [2], firstPick: 2 });
    const early = await g.frame(0, mePhoto(2, 2));
    expect(early.status).toBe(409);
    expect(early.body.error?.message).toMatch(/Cy swaps boards/);
    expect((await g.act({ type: 'swap', player: 1, with: 0 })).status).toBe(409);
    expect((await g.act({ type: 'swap', player: 2, with: 0 })).status).toBe(200);
    s = await g.snapshot();
    expect(s.players.map((p) => p.board)).toEqual([2, 1, 0]);
    expect(s.boards.map((b) => b.holder)).toEqual([2, 1, 0]);
    expect(s).toMatchObject({ phase: 'refill', picks: [2, 0, 1, 2, 0, 1, 2, 0, 1, 1] });

    // The refill: Cy takes the E from the podium, everyone else draws; a podium letter not there is refused.
    expect((await g.act({ type: 'refill', picks: ['Z'] })).status).toBe(409);
    expect((await g.act({ type: 'refill', picks: ['E', ...Array(9).fill('bag')] })).status).toBe(200);
    s = await g.snapshot();
    expect(s).toMatchObject({ phase: 'podium', bag: 61 });
    expect(s.podium.join('')).toBe('AIRSTNLO');
    expect((await g.act({ type: 'podium', letters: 'UV' })).status).toBe(409); // only one place is free
    expect((await g.act({ type: 'podium', letters: 'Ä' })).status).toBe(400); // not an English tile
    expect((await g.act({ type: 'podium', letters: 'U' })).status).toBe(200);
    s = await g.snapshot();
    expect(s).toMatchObject({ phase: 'build', round: 2, bag: 60 });

    // Round 2: board 1 seen by the camera at Ben's seat is still known by its tiles (without ending a turn).
    expect((await g.frame(1, mePhoto(2, 0), false)).body).toMatchObject({ status: 'waiting', board: 0 });
    // Ann's camera now sees board 3 (SU? plus her HUT, and an E left lying apart): not a legal word, so the
    // reading waits for the scorekeeper, who clears the stray square and confirms.
    const held = await g.frame(0, mePhotoNamed('2-2-stray'));
    expect(held.body).toMatchObject({ status: 'needs-confirmation', board: 2 });
    s = await g.snapshot();
    expect(s.boards[2]!.pending?.squares).toContainEqual({ row: 12, col: 2 });
    expect(s.boards[2]!.ended).toBe(false);
    expect((await g.act({ type: 'correct', board: 2, row: 12, col: 2, tile: '.' })).status).toBe(200);
    s = await g.snapshot();
    expect(s.boards[2]!.pending?.board).toEqual(meBoard(2, 2));
    const confirmed = await g.act({ type: 'confirm', board: 2 });
    expect(confirmed.body).toMatchObject({ status: 'ended-turn', board: 2 });
    expect((await g.frame(1, mePhoto(2, 1))).body).toMatchObject({ status: 'ended-turn', board: 1 });
    expect((await g.frame(2, mePhoto(2, 0))).body).toMatchObject({ status: 'committed', board: 0 });
    s = await g.snapshot();
    expect(totals(s)).toEqual([21, 16, 14]);
    expect(s.rounds[1]!.words.map((w) => [w.player, w.board, w.word, w.score])).toEqual([
      [0, 2, 'HUT', 11],
      [1, 1, 'DOT', 4],
      [2, 0, 'TAX', 10],
    ]);
    expect(s.boards[2]!.lastWord).toEqual([
      { row: 6, col: 6 },
      { row: 6, col: 8 },
    ]);
    // Ben scored lowest this round; no blank was played, so the refill starts without a swap.
    expect(s).toMatchObject({ phase: 'refill', firstPick: 1, swaps: [] });

    // A restart rebuilds the game from its stored events: the same totals, boards and holders.
    expect(await reopened(g.id)).toEqual(s);
  });

  it('takes an unacceptable word back, and sits a wrong challenger out of the next round', async () => {
    const g = await playMeGame(base);
    expect(totals(await g.snapshot())).toEqual([21, 16, 14]);
    // Ben's DOT is challenged by Ann and is fine: Ann sits out round 3.
    expect((await g.act({ type: 'challenge', player: 1, challenger: 0, acceptable: true })).status).toBe(200);
    // Cy's TAX is challenged by Ben and is not acceptable: 10 points come off.
    expect((await g.act({ type: 'challenge', player: 2, challenger: 1, acceptable: false })).status).toBe(
      200,
    );
    const s = await g.snapshot();
    expect(totals(s)).toEqual([21, 16, 4]);
    expect(s.rounds[1]!.words[2]).toMatchObject({ word: 'TAX', withdrawn: true });
    expect(s.boards[0]!.board[6]![7]).toBe('.');
    // Cy's 0 is now the round's lowest: Cy picks first, but Cy's tiles went back to the rack, so Cy draws none.
    expect(s).toMatchObject({ firstPick: 2, picks: [0, 1, 0, 1] });
    // Everyone draws from the bag: the podium is still full, and round 3 begins without Ann.
    expect((await g.act({ type: 'refill', picks: Array(4).fill('bag') })).status).toBe(200);
    const next = await g.snapshot();
    expect(next).toMatchObject({ phase: 'build', round: 3 });
    expect(next.players.map((p) => p.sittingOut)).toEqual([true, false, false]);
    const out = await g.frame(0, mePhoto(2, 2));
    expect(out.status).toBe(409);
    expect(out.body.error?.message).toMatch(/Ann sits out this round/);
  });

  it('corrects a misread tile of a scored round, refuses a fix that breaks a later word, and undoes', async () => {
    const g = await playMeGame(base);
    // The X of Cy's TAX (board 1, square 9H) was really a Z: TAZ scores 12, not 10.
    const fixed = await g.act({ type: 'correct', board: 0, row: 8, col: 7, tile: 'Z' });
    expect(fixed.status).toBe(200);
    let s = await g.snapshot();
    expect(totals(s)).toEqual([21, 16, 16]);
    expect(s.rounds[1]!.words[2]).toMatchObject({ player: 2, word: 'TAZ', score: 12 });
    expect(s.boards[0]!.board[8]![7]).toBe('Z');
    // Taking the D of Ben's DOGS away would leave his round-2 DOT hanging in the air: refused, nothing changes.
    const broken = await g.act({ type: 'correct', board: 1, row: 7, col: 7, tile: '.' });
    expect(broken.status).toBe(409);
    expect(broken.body.error?.message).toMatch(/no longer fits/);
    s = await g.snapshot();
    expect(totals(s)).toEqual([21, 16, 16]);
    // Undo takes back the last thing recorded: round 2 itself, with its three words; the boards' turns are to be
    // ended again. Undone twice more, the podium and the refill are back to be done.
    expect((await g.act({ type: 'undo' })).status).toBe(200);
    s = await g.snapshot();
    expect(totals(s)).toEqual([10, 12, 4]);
    expect(s).toMatchObject({ phase: 'build', round: 2 });
    expect(s.boards.map((b) => b.ended)).toEqual([false, false, false]);
    expect((await g.act({ type: 'undo' })).status).toBe(200);
    expect(await g.snapshot()).toMatchObject({ phase: 'podium', bag: 61 });
    expect(await reopened(g.id)).toEqual(await g.snapshot());
    // A square no word covered cannot be corrected.
    expect((await g.act({ type: 'correct', board: 1, row: 0, col: 0, tile: 'A' })).status).toBe(409);
  });

  it('goes on to the next round when every word was challenged off, and ends when nobody builds a word', async () => {
    const created = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'EAIRST' }),
    });
    const { id, token } = (await created.json()) as { id: string; token: string };
    const frame = (camera: number, bytes: Uint8Array) =>
      fetch(`${base}/api/games/${id}/frames?camera=${camera}&endTurn=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: bytes as unknown as BodyInit,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string } }));
    const act = (action: object) =>
      fetch(`${base}/api/games/${id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(action),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { snapshot: MeSnapshot } }));
    expect((await frame(0, mePhoto(1, 0))).body.status).toBe('ended-turn');
    expect((await frame(1, mePhoto(1, 1))).body.status).toBe('committed');
    expect((await act({ type: 'challenge', player: 0, challenger: 1, acceptable: false })).status).toBe(200);
    const both = await act({ type: 'challenge', player: 1, challenger: 0, acceptable: false });
    expect(totals(both.body.snapshot)).toEqual([0, 0]);
    // Both racks got their tiles back and the podium is untouched: round 2 starts at once.
    expect(both.body.snapshot).toMatchObject({ phase: 'build', picks: [] });
    const empty = readFileSync(fileURLToPath(new URL('../fixtures/demo_game/0.jpg', import.meta.url)));
    expect((await frame(0, empty)).body.status).toBe('ended-turn');
    expect((await frame(1, empty)).body.status).toBe('committed');
    const over = (await act({ type: 'no-bonus' })).body;
    expect(over).toMatchObject({ error: { code: 'not-allowed' } });
    const res = await fetch(`${base}/api/games/${id}`);
    expect(await res.json()).toMatchObject({
      phase: 'ended',
      ended: { reason: 'no word built', winners: [0, 1] },
    });
  });

  it('holds a board whose reading would put more tiles of a kind on the boards than the bag held', async () => {
    const g = meClient(base);
    expect((await g.create()).status).toBe(201);
    // Board 1 ends its turn with two blanks, as the scorekeeper typed it; board 3's photo shows SU?, a third.
    const twoBlanks = Array.from({ length: 15 }, (_, r) => (r === 7 ? '.......??......' : '.'.repeat(15)));
    expect((await g.act({ type: 'confirm', board: 0, reading: twoBlanks })).body).toMatchObject({
      status: 'ended-turn',
    });
    const held = await g.frame(2, mePhoto(1, 2));
    expect(held.body).toEqual({
      status: 'needs-confirmation',
      board: 2,
      reasons: ['the boards would hold 3 blanks; the English tile set has 2'],
    });
    // The scorekeeper may know better: confirming ends the turn.
    expect((await g.act({ type: 'confirm', board: 2 })).body).toMatchObject({
      status: 'ended-turn',
      board: 2,
    });
  });

  it('refuses what does not fit the game with a clear error', async () => {
    const g = meClient(base);
    const bad = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'ABC' }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /podium must be the 6/,
    );
    const auto = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        players: ['Ann', 'Ben'],
        variant: 'scrabble-me',
        podium: 'ABCDEF',
        capture: 'auto',
      }),
    });
    expect(auto.status).toBe(400);
    await g.create();
    expect((await g.frame(3, mePhoto(1, 0))).status).toBe(400); // no fourth seat
    const source = await fetch(`${base}/api/games/${g.id}/source`, {
      method: 'POST',
      headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/video', camera: 5 }),
    });
    expect(source.status).toBe(400);
    expect((await g.frame(0, new Uint8Array([1, 2, 3]))).status).toBe(422);
    expect((await g.act({ type: 'swap', player: 0, with: 9 })).status).toBe(400);
    expect((await g.act({ type: 'refill', picks: [] })).status).toBe(400);
    expect((await g.act({ type: 'end-turn', camera: 1 })).status).toBe(409); // no frame from that seat yet
    expect((await g.act({ type: 'pass' })).body.error?.message).toMatch(/unknown action/);
    const gcg = await fetch(`${base}/api/games/${g.id}/gcg`);
    expect(gcg.status).toBe(409);
  });
});
