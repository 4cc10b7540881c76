/**
 * The best plays of a move, for the scorekeeper: `POST /api/games/ID/analysis` with the token (the rack typed, kept
 * nowhere), and the scorekeeper page's "Best plays" panel in headless Chromium. The game is the opening of Macondo's
 * `doug_v_emely` record: 8D WINDY from DINNVWY (the best play), then 7C GALE from ADEEGIL (not the best: D8 WEDGIE
 * scores 22 and keeps a better leave).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyBoard, formatBoard, place, placementsFromNotation } from '../server/engine/index.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { AnalysisView } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/index.ts';
import { chromiumPresent, launch } from './browser.ts';

const MOVES = ['8D WINDY', '7C GALE'];

describe('best plays of a move', () => {
  let server: RunningServer;
  let base: string;
  let game: { id: string; token: string };
  const ask = (body: unknown, token = game.token) =>
    fetch(`${base}/api/games/${game.id}/analysis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'tilecam-best-')), 'games.db');
    server = await startServer({ port: 0, host: '127.0.0.1', db });
    base = `http://127.0.0.1:${server.port}`;
    game = await server.service.create(parseGameConfig({ players: ['Doug', 'Emely'] }));
    let board = emptyBoard();
    for (const play of MOVES) {
      const placed = placementsFromNotation(board, play);
      if (!placed.ok) throw new Error(placed.message);
      board = place(board, placed.placements);
      const res = await fetch(`${base}/api/games/${game.id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${game.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'confirm', board: formatBoard(board) }),
      });
      expect(res.status).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('ranks the move among its rack’s plays, for the scorekeeper only', async () => {
    const first = (await (await ask({ turn: 1, rack: 'dinnvwy' })).json()) as AnalysisView;
    expect(first.rack).toBe('DINNVWY');
    expect(first.played).toMatchObject({ position: '8D', score: 32, valid: true, rank: 1 });
    expect(first.equityLost).toBe(0);
    // The move played is marked among the best (WINDY scores as much from 8H: a tie), and only it.
    expect(first.best.filter((b) => b.played)).toEqual([
      expect.objectContaining({ position: '8D', word: 'WINDY' }),
    ]);
    expect(first.lexicon).toBe('an-array-of-english-words');

    const second = (await (await ask({ turn: 2, rack: 'ADEEGIL' })).json()) as AnalysisView;
    expect(second.played).toMatchObject({ position: '7C', score: 16, valid: true });
    expect(second.played.rank).toBeGreaterThan(1);
    expect(second.equityLost).toBeGreaterThan(0);
    expect(second.best).toHaveLength(5);
    expect(second.best[0]).toMatchObject({ position: 'D8', word: '(W)EDGIE', score: 22 });
    for (let k = 1; k < 5; k++)
      expect(second.best[k]!.equity).toBeLessThanOrEqual(second.best[k - 1]!.equity);

    // Without the token, or with another's, nothing is worked out.
    expect((await ask({ turn: 2, rack: 'ADEEGIL' }, '')).status).toBe(401);
    expect((await ask({ turn: 2, rack: 'ADEEGIL' }, 'not-the-token')).status).toBe(401);
    // The rack is kept nowhere: the game as anyone sees it never shows it.
    const seen = await (await fetch(`${base}/api/games/${game.id}`)).text();
    const gcg = await (await fetch(`${base}/api/games/${game.id}/gcg`)).text();
    expect(seen).not.toContain('ADEEGIL');
    expect(gcg).not.toContain('ADEEGIL');
  }, 60_000);

  it('asks for a blank the camera read to be named before working anything out, then works it out', async () => {
    const other = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const post = (path: string, body: unknown) =>
      fetch(`${base}/api/games/${other.id}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // CAT with its A a blank no one has named yet (as the camera reads one).
    const rows = formatBoard(emptyBoard()).map((row, r) => (r === 7 ? '......C?T......' : row));
    expect((await post('actions', { type: 'confirm', board: rows })).status).toBe(200);
    for (const [path, body] of [
      ['analysis', { turn: 1, rack: 'CAT' }],
      ['analysis', { turn: 1, rack: 'C?T' }],
    ] as const) {
      const res = await post(path, body);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
        /the blank on 8H is not named yet/,
      );
    }
    const whole = await fetch(`${base}/api/games/${other.id}/analysis`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(whole.status).toBe(409);
    // Named, the game can be worked out.
    expect((await post('actions', { type: 'name-blank', row: 7, col: 7, letter: 'A' })).status).toBe(200);
    const res = await post('analysis', { turn: 1, rack: 'C?T' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as AnalysisView).played.word).toBe('CaT');
  });

  it('refuses a rack or a move that is not one, saying why', async () => {
    for (const [body, words] of [
      [{ turn: 2, rack: 'AB1' }, /rack must be 1 to 9 tiles/],
      [{ turn: 2, rack: 'ABCDEFGHIJ' }, /rack must be 1 to 9 tiles/],
      [{ turn: 2, rack: 'ÄBC' }, /no tile Ä/],
      [{ turn: 3, rack: 'ABC' }, /the game has 2 moves, not 3/],
      [{ turn: 2, rack: 'ABCDEFGH' }, /a rack holds at most 7 tiles, not 8/],
      [{ turn: 2, rack: '???' }, /more \? than the English set has/],
      [{ turn: 2, rack: 'ZZ' }, /more Z than the English set has/],
      [{ turn: 0, rack: 'ABC' }, /turn/],
      [{ rack: 'ABC' }, /turn/],
    ] as const) {
      const res = await ask(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('bad-request');
      expect(error.message).toMatch(words);
    }
  });

  it('keeps the rack of a move for the scorekeeper: in their GCG and their analysis, never a viewer’s', async () => {
    const act = (body: unknown, token = game.token) =>
      fetch(`${base}/api/games/${game.id}/actions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const gcg = async (token?: string) =>
      (
        await fetch(
          `${base}/api/games/${game.id}/gcg`,
          token ? { headers: { authorization: `Bearer ${token}` } } : {},
        )
      ).text();
    const scores = async () =>
      (
        (await (await fetch(`${base}/api/games/${game.id}`)).json()) as { players: { score: number }[] }
      ).players.map((p) => p.score);
    const before = await scores();
    // No rack kept yet: the analysis asks for one.
    const none = await ask({ turn: 2 });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /no rack is kept with move 2/,
    );

    expect((await act({ type: 'rack', turn: 2, rack: 'adeegil' })).status).toBe(200);
    expect(await scores()).toEqual(before);
    // The scorekeeper's GCG has it; anyone else's, and the game as a viewer sees it, do not.
    expect(await gcg(game.token)).toMatch(/^>Emely: ADEEGIL 7C GALE \+16 16$/m);
    expect(await gcg()).toMatch(/^>Emely: GALE 7C GALE \+16 16$/m);
    expect(await (await fetch(`${base}/api/games/${game.id}`)).text()).not.toContain('ADEEGIL');
    // …and a wrong token gets nothing.
    expect(
      (await fetch(`${base}/api/games/${game.id}/gcg`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    // The analysis takes the kept rack when none is sent.
    const kept = (await (await ask({ turn: 2 })).json()) as AnalysisView;
    expect(kept.rack).toBe('ADEEGIL');
    expect(kept.best[0]).toMatchObject({ position: 'D8', word: '(W)EDGIE' });

    // A rack no player can hold, a move the game does not have, a viewer: refused, nothing kept.
    for (const [body, status, words] of [
      [{ type: 'rack', turn: 2, rack: 'ÄBC' }, 400, /no tile Ä/],
      [{ type: 'rack', turn: 2, rack: 'ABCDEFGH' }, 400, /at most 7 tiles/],
      [{ type: 'rack', turn: 2, rack: 'ZZ' }, 400, /fewer Z/],
      [{ type: 'rack', turn: 3, rack: 'ABC' }, 400, /the game has 2 moves, not 3/],
    ] as const) {
      const res = await act(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(words);
    }
    expect((await act({ type: 'rack', turn: 2, rack: 'ABC' }, '')).status).toBe(401);
    expect(await gcg(game.token)).toContain('ADEEGIL');

    // The racks left at the end: not known while the bag holds tiles (test/racks-left.test.ts works them out), and
    // the scorekeeper's only.
    const left = await fetch(`${base}/api/games/${game.id}/racks`, {
      headers: { authorization: `Bearer ${game.token}` },
    });
    expect(await left.json()).toEqual({ left: [null, null] });
    expect((await fetch(`${base}/api/games/${game.id}/racks`)).status).toBe(401);

    // Taken away again: the game is as before.
    expect((await act({ type: 'rack', turn: 2, rack: '' })).status).toBe(200);
    expect(await gcg(game.token)).not.toContain('ADEEGIL');
    expect(await scores()).toEqual(before);
  });

  describe.skipIf(!chromiumPresent || !existsSync('/usr/bin/chromium'))('on the scorekeeper page', () => {
    it('shows the five best plays of the newest move for the rack typed, and where the move ranked', async () => {
      const browser = await launch();
      try {
        await bestPlaysOnThePage(browser);
      } finally {
        await browser.close();
      }
    }, 60_000);
  });

  async function bestPlaysOnThePage(browser: Browser): Promise<void> {
    {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/board.html?game=${game.id}#token=${game.token}`);
      const panel = page.locator('details.best-details');
      await panel.locator('summary').click();
      // The newest move is the one asked about.
      await expect.poll(() => panel.locator('input[name=turn]').inputValue()).toBe('2');
      await panel.locator('input[name=rack]').fill('adeegil');
      await panel.getByRole('button', { name: 'Show best plays' }).click();
      await expect
        .poll(() => panel.locator('.best-verdict').textContent())
        .toMatch(/7C GALE \(16\) ranked \d+ of \d+/);
      expect(await panel.locator('.best-table tr').count()).toBe(6);
      expect(await panel.locator('.best-table tr').nth(1).textContent()).toContain('D8 (W)EDGIE');
      // Kept with the move (the box is ticked by default): the scorekeeper's GCG download has it.
      await expect.poll(() => panel.locator('.kept').textContent()).toBe('Rack kept with move 2.');
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download the game as GCG' }).click();
      const saved = await (await download).createReadStream();
      let text = '';
      for await (const chunk of saved) text += chunk;
      expect(text).toMatch(/^>Emely: ADEEGIL 7C GALE/m);

      // A rack the page can tell is wrong is said so without asking the server.
      await panel.locator('input[name=rack]').fill('AB1');
      await panel.getByRole('button', { name: 'Show best plays' }).click();
      await expect.poll(() => panel.locator('.error').textContent()).toMatch(/1 to 9 letters/);
      // The game against the best plays: move 1's rack kept too, through the API; the scorekeeper's link opens it.
      const kept = await fetch(`${base}/api/games/${game.id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${game.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'rack', turn: 1, rack: 'DINNVWY' }),
      });
      expect(kept.status).toBe(200);
      // Nothing typed: the rack kept with the move (typed before, or seen by a camera at the player's place).
      await panel.locator('input[name=turn]').fill('1');
      await panel.locator('input[name=rack]').fill('');
      await panel.getByRole('button', { name: 'Show best plays' }).click();
      await expect
        .poll(() => panel.locator('.best-verdict').textContent())
        .toMatch(/8D WINDY \(32\) was the best play/);
      expect(await panel.locator('.best-result .hint').textContent()).toMatch(/^Rack DINNVWY\. Lexicon/);
      expect(await panel.locator('.kept').count()).toBe(0);
      expect((await fetch(`${base}/api/games/${game.id}/analysis`)).status).toBe(401);
      await page.getByRole('link', { name: 'The game against the best plays' }).click();
      const rows = page.locator('#analysis-turns tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).textContent()).toMatch(/^1DougDINNVWY8D WINDY 321 of \d+8[DH] WINDY 320\.0$/);
      expect(await rows.nth(1).textContent()).toMatch(
        /^2EmelyADEEGIL7C GALE 16\d+ of \d+D8 \(W\)EDGIE 22\d+\.\d$/,
      );
      const players = page.locator('#analysis-players tbody tr');
      expect(await players.nth(0).textContent()).toBe('Doug110.0');
      expect(await players.nth(1).textContent()).toMatch(/^Emely11\d+\.\d$/);
      expect(await players.nth(1).textContent()).not.toBe('Emely110.0');

      // The scoreboard anyone may open has no such panel.
      const viewer = await browser.newPage();
      await viewer.goto(`${base}/board.html?game=${game.id}`);
      await viewer.locator('.board').first().waitFor();
      expect(await viewer.locator('details.best-details').count()).toBe(0);
    }
  }
});
