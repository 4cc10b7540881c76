/**
 * End to end in headless Chromium (Debian's, driven by playwright-core): a game is played by posting the rendered
 * demo game's photos; the scoreboard shows the scores, the last move and the move list; the scorekeeper fixes a
 * misread square on the page and the totals re-derive. Saves a screenshot to test/output/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, launch } from './browser.ts';
import { playMeGame } from './me-game.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser test is skipped (.ci/run installs it).\n`);
const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'fixtures/demo_game');

/** A two-player game with the default settings, created straight in the service. */
const newGame = (server: RunningServer) =>
  server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));

/**
 * A server on a fresh database and a browser, for the tests of one `describe`; `flags` gives extra Chromium flags
 * (prepared before launch). The returned object is filled in before the tests run.
 */
function serverAndBrowser(flags: () => Promise<string[]> = async () => []) {
  const ctx = {} as { server: RunningServer; browser: Browser; base: string };
  beforeAll(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'tilecam-e2e-')), 'games.db');
    ctx.server = await startServer({ port: 0, host: '127.0.0.1', db });
    ctx.base = `http://127.0.0.1:${ctx.server.port}`;
    ctx.browser = await launch(await flags());
  }, 60_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  return ctx;
}

describe.skipIf(!chromiumPresent)('the scoreboard in a browser', () => {
  const ctx = serverAndBrowser();

  it('shows a game played from photos, and re-derives the totals after the scorekeeper fixes a square', async () => {
    const { id, token } = await newGame(ctx.server);
    const page = await ctx.browser.newPage({ viewport: { width: 1200, height: 760 } });
    await page.goto(`${ctx.base}/board.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    const auth = { authorization: `Bearer ${token}` };
    for (const n of [1, 2, 3]) {
      const res = await fetch(`${ctx.base}/api/games/${id}/frames?endTurn=1`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'image/jpeg' },
        body: readFileSync(join(demo, `${n}.jpg`)),
      });
      const { status } = (await res.json()) as { status: string };
      if (status === 'needs-confirmation') {
        // The page shows the held reading; the scorekeeper confirms what was really played.
        await page.waitForSelector('.pending');
        const board = readFileSync(join(demo, `${n}.txt`), 'utf8')
          .trimEnd()
          .split('\n');
        await fetch(`${ctx.base}/api/games/${id}/actions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'confirm', board }),
        });
      } else expect(status).toBe('committed');
    }
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 3);
    expect(await page.locator('.scores .score').allTextContents()).toEqual(['46', '9']);
    expect(await page.locator('.sq.last').count()).toBe(3);
    const moves = await page.locator('.moves li .what').allTextContents();
    expect(moves[0]).toContain('8D WINDY 32');
    expect(moves[1]).toContain('AN 2 + WA* 5 + IN 2'); // WA is not in the default list: flagged, not rejected
    expect(await page.locator('.player.to-move .name').textContent()).toBe('Ben');
    mkdirSync(join(root, 'test/output'), { recursive: true });
    await page.screenshot({ path: join(root, 'test/output/scoreboard.png') });

    // The W on 8D was an M: the scorekeeper clicks the square and types the letter in the page's dialog.
    await page.click('.board [data-square="8D"]');
    await page.fill('dialog.ask[open] input[name=tile]', 'M');
    await page.click('dialog.ask[open] [data-choice=submit]');
    await page.waitForFunction(() => document.querySelector('.scores .score')?.textContent === '42');
    expect(await page.locator('.scores .score').allTextContents()).toEqual(['42', '8']);
    expect(await page.locator('.board [data-square="8D"]').first().textContent()).toBe('M');
    await page.close();
  }, 60_000);

  it('shows the overlay with a transparent background and the chosen fields', async () => {
    const { id } = await ctx.server.service.create(parseGameConfig({ players: ['Cy', 'Di'] }));
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.base}/overlay.html?game=${id}&fields=names&colour=%23ff0`);
    await page.waitForSelector('.player');
    expect(await page.locator('.player .name').allTextContents()).toEqual(['Cy', 'Di']);
    expect(await page.locator('.player .score').count()).toBe(0);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgba(0, 0, 0, 0)',
    );
    await page.goto(`${ctx.base}/overlay.html`);
    expect(await page.locator('.placeholder').textContent()).toBe('tilecam');
    await page.close();
  }, 30_000);
});

describe.skipIf(!chromiumPresent)('Scrabble Me in a browser', () => {
  const ctx = serverAndBrowser();

  it('shows three boards side by side and the totals of a game played from photos with a blank swap', async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 760 } });
    const overlay = await ctx.browser.newPage();
    const client = await playMeGame(ctx.base, async (g) => {
      await page.goto(`${ctx.base}/board.html?game=${g.id}#token=${g.token}`);
      await page.waitForSelector('#status.live');
      await overlay.goto(`${ctx.base}/overlay.html?game=${g.id}&fields=scores,last,board`);
      await overlay.waitForSelector('.player');
    });
    // The page follows the game over the WebSocket: the last round's words and the totals arrive.
    await page.waitForFunction(() => document.querySelectorAll('.rounds .round').length === 2);
    expect(await page.locator('.scores .score').allTextContents()).toEqual(['21', '16', '14']);
    expect(await page.locator('.me-board').count()).toBe(3);
    // After the swap Cy holds board 1 and Ann board 3.
    expect(await page.locator('.me-board figcaption').allTextContents()).toEqual([
      'Board 1 · Cy',
      'Board 2 · Ben',
      'Board 3 · Ann',
    ]);
    expect(await page.locator('.rounds .round').nth(1).textContent()).toContain('Ann HUT 11');
    expect(await page.locator('.first-pick').textContent()).toBe('Picks first: Ben');
    expect(await page.locator('.podium').textContent()).toContain('A I R S T N L O U');
    expect(await page.locator('.me-status').textContent()).toContain('Refill: Ben picks first');
    mkdirSync(join(root, 'test/output'), { recursive: true });
    await page.screenshot({ path: join(root, 'test/output/scrabble-me.png') });
    // The overlay shows the same totals, the round's words and the three boards.
    await overlay.waitForFunction(() =>
      document.querySelector('[data-field=last]')?.textContent?.startsWith('Round 2'),
    );
    expect(await overlay.locator('.player .score').allTextContents()).toEqual(['21', '16', '14']);
    expect(await overlay.locator('.me-boards .board').count()).toBe(3);
    expect((await client.snapshot()).players.map((p) => p.score)).toEqual([21, 16, 14]);
    // The X of Cy's TAX was a Z: the scorekeeper clicks it on board 1 and types the letter in the page's dialog.
    await page.click('.me-board[data-board="0"] > .board [data-square="9H"]');
    await page.fill('dialog.ask[open] input[name=tile]', 'Z');
    await page.click('dialog.ask[open] [data-choice=submit]');
    await page.waitForFunction(() => document.querySelectorAll('.scores .score')[2]?.textContent === '16');
    expect(await page.locator('.scores .score').allTextContents()).toEqual(['21', '16', '16']);
    expect(await page.locator('.rounds .round').nth(1).textContent()).toContain('Cy TAZ 12');
    await page.close();
    await overlay.close();
  }, 60_000);
});

describe.skipIf(!chromiumPresent)('the camera page in a browser', () => {
  // Chromium's fake camera plays an MJPEG file: here, the photo of the board after the first move.
  const ctx = serverAndBrowser(async () => {
    const video = join(mkdtempSync(join(tmpdir(), 'tilecam-video-')), 'board.mjpeg');
    const frame = await sharp(join(demo, '1.jpg')).resize(960, 960).jpeg().toBuffer();
    writeFileSync(video, Buffer.concat(Array.from({ length: 10 }, () => frame)));
    return [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ];
  });

  it('sends the camera picture, draws the grid found, and ends the turn on the button', async () => {
    const { id, token } = await newGame(ctx.server);
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.base}/camera.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    // The page sends its first frame at once; the server answers with the grid it found, which the page draws.
    await page.waitForFunction(
      () => {
        const c = document.getElementById('grid') as HTMLCanvasElement;
        return (
          c.width > 0 &&
          c
            .getContext('2d')!
            .getImageData(0, 0, c.width, c.height)
            .data.some((v, i) => i % 4 === 3 && v > 0)
        );
      },
      undefined,
      { timeout: 20_000 },
    );
    await page.click('#end-turn');
    // The end-of-turn frame is read and committed, or held for the scorekeeper if a square is in doubt.
    type Snap = { turns: unknown[]; pending: { board: string[] } | null; players: { score: number }[] };
    let snap: Snap | undefined;
    for (let i = 0; i < 100 && !(snap && (snap.turns.length > 0 || snap.pending)); i++) {
      await new Promise((r) => setTimeout(r, 200));
      snap = (await (await fetch(`${ctx.base}/api/games/${id}`)).json()) as Snap;
    }
    if (snap?.pending) expect(snap.pending.board[7]!.replace(/[^A-Z]/g, '').length).toBe(5);
    else expect(snap?.players[0]?.score).toBe(32);
    await page.close();
  }, 60_000);
});
