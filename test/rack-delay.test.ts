/**
 * Racks on a stream: a game created with a rack delay shows the rack the scorekeeper kept with a move, and its best
 * play, on the scoreboard, the overlay and the broadcast field `best.txt`, that many moves after the rack was last
 * used (a pass leaves it the player's), and never before: every message a viewer's WebSocket receives is checked. The game is the opening of Macondo's
 * `doug_v_emely` (8D WINDY from DINNVWY, then 7C GALE from ADEEGIL), as in best-plays.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { emptyBoard, formatBoard, place, placementsFromNotation } from '../server/engine/index.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';

describe('racks shown after the rack delay', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'tilecam-delay-')), 'games.db');
    server = await startServer({ port: 0, host: '127.0.0.1', db });
    base = `http://127.0.0.1:${server.port}`;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const create = async (config: Record<string, unknown>) =>
    fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(config),
    });
  const act = (game: { id: string; token: string }, body: unknown) =>
    fetch(`${base}/api/games/${game.id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${game.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const snapshot = async (id: string) =>
    (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;
  const field = async (id: string) => (await fetch(`${base}/api/games/${id}/fields/best.txt`)).text();
  let board = emptyBoard();
  const play = async (game: { id: string; token: string }, notation: string) => {
    const placed = placementsFromNotation(board, notation);
    if (!placed.ok) throw new Error(placed.message);
    board = place(board, placed.placements);
    expect((await act(game, { type: 'confirm', board: formatBoard(board) })).status).toBe(200);
  };
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let t = 0; t < 100; t++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`not within 10 s: ${what}`);
  };

  it('never sends a rack to a viewer before its player has moved on; after it, the rack and its best play', async () => {
    // Two players: the rack of a move is shown once its player has had their next turn (2 moves after its last use).
    const created = await create({ players: ['Doug', 'Emely'], rackDelay: 2 });
    expect(created.status).toBe(201);
    const game = (await created.json()) as { id: string; token: string };
    board = emptyBoard();
    // A viewer watching from the start: everything it is sent is kept.
    const seen: string[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?game=${game.id}`);
    ws.on('message', (m) => seen.push(String(m)));
    await new Promise((r) => ws.once('open', r));
    const moment = () => new Promise((r) => setTimeout(r, 500));
    try {
      await play(game, '8D WINDY');
      expect((await act(game, { type: 'rack', turn: 1, rack: 'DINNVWY' })).status).toBe(200);
      await play(game, '7C GALE');
      expect((await act(game, { type: 'rack', turn: 2, rack: 'ADEEGIL' })).status).toBe(200);
      // Doug is on move again: his rack of move 1 is not shown (a moment for anything worked out to arrive).
      await moment();
      expect((await snapshot(game.id)).revealed).toBeNull();
      expect((await field(game.id)).trim()).toBe('');
      expect(seen.filter((m) => m.includes('DINNVWY'))).toEqual([]);

      // Doug passes, keeping his rack (kept with the pass too): move 1's rack is shown, with its best play.
      expect((await act(game, { type: 'pass' })).status).toBe(200);
      expect((await act(game, { type: 'rack', turn: 3, rack: 'NOPQRST' })).status).toBe(200);
      await until('move 1 shown', async () => (await snapshot(game.id)).revealed?.turn === 1);
      const shown = (await snapshot(game.id)).revealed!;
      expect(shown).toMatchObject({ turn: 1, player: 'Doug', rack: 'DINNVWY', equityLost: 0 });
      expect(shown.played).toEqual({ position: '8D', word: 'WINDY', score: 32 });
      expect(shown.best?.word).toBe('WINDY');
      expect(await field(game.id)).toMatch(/^move 1, Doug \(DINNVWY\): 8D WINDY 32 · best 8[DH] WINDY 32$/m);
      await until('the viewer told', async () => seen.some((m) => m.includes('DINNVWY')));

      // Emely and Doug pass: move 2 is shown; Doug's pass left him the rack of move 3, which he still holds (and,
      // passing again at move 5, used again): it is not shown, though move 3 is 3 moves old.
      for (let k = 0; k < 3; k++) expect((await act(game, { type: 'pass' })).status).toBe(200);
      await until('move 2 shown', async () => (await snapshot(game.id)).revealed?.turn === 2);
      await moment();
      expect((await snapshot(game.id)).revealed?.turn).toBe(2);
      expect(seen.filter((m) => m.includes('NOPQRST'))).toEqual([]);
      expect(JSON.stringify(await snapshot(game.id))).not.toContain('NOPQRST');
      expect(await field(game.id)).not.toContain('NOPQRST');
      expect(await (await fetch(`${base}/api/games/${game.id}/gcg`)).text()).not.toContain('NOPQRST');

      // Moves taken back down to move 2: Emely is on move with her rack of move 2 again, and it is hidden at once.
      for (let k = 0; k < 4; k++) expect((await act(game, { type: 'undo' })).status).toBe(200);
      await until('move 2 hidden', async () => (await snapshot(game.id)).revealed?.turn !== 2);
      expect((await snapshot(game.id)).revealed).toBeNull();
    } finally {
      ws.close();
    }
  }, 60_000);

  it('shows no rack at all in a game without a delay, and refuses a delay it cannot keep', async () => {
    const game = (await (await create({ players: ['Doug', 'Emely'] })).json()) as {
      id: string;
      token: string;
    };
    board = emptyBoard();
    await play(game, '8D WINDY');
    await play(game, '7C GALE');
    expect((await act(game, { type: 'rack', turn: 1, rack: 'DINNVWY' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const s = await snapshot(game.id);
    expect('revealed' in s).toBe(false);
    expect(JSON.stringify(s)).not.toContain('DINNVWY');
    expect((await field(game.id)).trim()).toBe('');
    for (const [config, words] of [
      [{ players: ['A', 'B'], rackDelay: 0 }, /rackDelay must be a whole number of moves from 1 to 20/],
      [{ players: ['A', 'B', 'C'], rackDelay: 2 }, /at least the number of players \(3\)/],
      [{ players: ['A', 'B'], variant: 'nine-tile', rackDelay: 2 }, /seven-tile racks/],
      [{ players: ['A', 'B'], rackDelay: 1.5 }, /rackDelay/],
      [{ players: ['A', 'B'], variant: 'scrabble-me', podium: 'EATEAT', rackDelay: 2 }, /not Scrabble Me/],
    ] as const) {
      const res = await create(config);
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(words);
    }
  });
});
