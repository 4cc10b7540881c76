/**
 * Every page of a game at the three sizes of issue 19 — a phone (390×844), a laptop (1280×800) and a 1080p TV
 * (1920×1080) — in headless Chromium (Debian's, driven by playwright-core): the scoreboard, the scorekeeper's page
 * with a reading held, the OBS overlay and the camera page (Chromium's fake camera). Nothing is wider than the
 * screen (the overlay and the camera page not taller either); on the TV the scores and the last move are at least 4%
 * of its height; the held reading's zoomed squares are in view without scrolling; the dialogs are reached, used
 * and left with the keyboard alone. Saves web/screenshots/PAGE-WIDTHxHEIGHT.png for each page and size (the pages'
 * clocks stopped at a set time, so that a screenshot changes only when the page does).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyBoard, formatBoard, place, placementsFromNotation } from '../server/engine/index.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, closeWatched, confirmDemoMoves, launch, watchedPage } from './browser.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'fixtures/demo_game');
const shots = join(root, 'web/screenshots');
const LONG = 'Bartholomew Fitzgerald-Montgomery Junior';
const SIZES = [
  [390, 844],
  [1280, 800],
  [1920, 1080],
] as const;

/**
 * A long game, 27 turns: the plays of a published game (Macondo's `doug_v_emely`, its withdrawn phony left out)
 * with two passes among them, after the 5th and the 12th play.
 */
const LONG_GAME = [
  '8D WINDY',
  '7C GALE',
  'E3 JAVE..N',
  'F2 VOX',
  '10B DONATES',
  '9G EAU',
  '4D Z..',
  'A5 LATINO',
  'B2 TEIID',
  'A1 WEB',
  '11E SAT',
  '6D R.D',
  'C1 CAN',
  'B8 FU.',
  '7H RILL',
  'K5 RE.IgION',
  'L11 MURK',
  '15H ARIOSE',
  '14F COY',
  'L4 GET',
  '2F .ERB',
  '1G PEA',
  'M2 QUOTH',
  'N1 HIM',
  '14L .aFS',
];

/** Where an element is, or null when the page has none. */
function rect(page: Page, selector: string) {
  return page.evaluate((s) => {
    const r = document.querySelector(s)?.getBoundingClientRect();
    return r ? { top: r.top, left: r.left, bottom: r.bottom, right: r.right } : null;
  }, selector);
}

type Box = { top: number; left: number; bottom: number; right: number };
const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Whether the page is wider (or taller) than the screen. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const doc = document.scrollingElement!;
    return {
      scrollWidth: doc.scrollWidth,
      clientWidth: doc.clientWidth,
      scrollHeight: doc.scrollHeight,
      clientHeight: doc.clientHeight,
    };
  });
}

/** Presses Tab until `selector` has the focus (at most `max` times); false if it never does. */
async function tabTo(page: Page, selector: string, max = 80): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
    await page.keyboard.press('Tab');
  }
  return false;
}

/** The focused element is in the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('dialog.ask[open]') !== null);

describe.skipIf(!chromiumPresent)('the pages at a phone, a laptop and a TV size', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  /** A classic game of three moves with a 25-minute game clock, a 40-character name to play. */
  let game: { id: string; token: string };
  /** A game whose first move is held: a smudge over the board (a hand’s shape with no arm: no hand), 5 squares in
   *  doubt. */
  let held: { id: string; token: string };
  /** A game of 27 turns (LONG_GAME). */
  let long: { id: string; token: string };
  /** The page's clock, stopped a little after the last event: the running turn shows 1:23 used. */
  let frozen: number;
  const snapshot = async (id: string) =>
    (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-pages-'));
    server = await startServer({ port: 0, host: '127.0.0.1', db: join(dir, 'games.db') });
    base = `http://127.0.0.1:${server.port}`;
    // Chromium's fake camera plays an MJPEG file: the photo of the board after the demo game's first move. The
    // camera's name on the page is the file's path: the same on every run, for the screenshots.
    const video = join(tmpdir(), 'tilecam-pages-camera.mjpeg');
    const frame = await sharp(join(demo, '1.jpg')).resize(960, 960).jpeg().toBuffer();
    writeFileSync(video, Buffer.concat(Array.from({ length: 10 }, () => frame)));
    browser = await launch([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);

    game = await server.service.create(parseGameConfig({ players: ['Ann', LONG], clockMinutes: 25 }));
    await confirmDemoMoves(base, game, [1, 2, 3]);
    frozen = Date.parse((await snapshot(game.id)).clock.since) + 83_000;

    held = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const res = await fetch(`${base}/api/games/${held.id}/frames?endTurn=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${held.token}`, 'content-type': 'image/jpeg' },
      body: readFileSync(join(root, 'fixtures/photos/smudge_over_row_8.jpg')),
    });
    expect(((await res.json()) as { status: string }).status).toBe('needs-confirmation');

    long = await server.service.create(parseGameConfig({ players: ['Doug', 'Emely'] }));
    let board = emptyBoard();
    const act = async (body: unknown) => {
      const res = await fetch(`${base}/api/games/${long.id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${long.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    };
    for (const [i, play] of LONG_GAME.entries()) {
      const placed = placementsFromNotation(board, play);
      if (!placed.ok) throw new Error(`${play}: ${placed.message}`);
      board = place(board, placed.placements);
      await act({ type: 'confirm', board: formatBoard(board) });
      if (i === 4 || i === 11) await act({ type: 'pass' });
    }
    expect((await snapshot(long.id)).turns).toHaveLength(27);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the scoreboard within each screen, the scores and the last move large on the TV', async () => {
    mkdirSync(shots, { recursive: true });
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.clock.setFixedTime(frozen);
      await page.goto(`${base}/board.html?game=${game.id}`);
      await page.waitForSelector('#status.live');
      await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 3);
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(o.clientWidth);
      // The running turn's clock, beside the score of the player to move: 25:00 less 1:23.
      expect(await page.locator('.player.to-move .clock .time').textContent()).toMatch(/^23:3[67]$/);
      if (width === 1920) {
        const fonts = await page.evaluate(() => {
          const size = (e: Element) => Number.parseFloat(getComputedStyle(e).fontSize);
          return {
            scores: [...document.querySelectorAll('.scores .score')].map(size),
            last: [...document.querySelectorAll('.headline .head-word, .headline .head-points')].map(size),
          };
        });
        expect(fonts.scores).toHaveLength(2);
        expect(fonts.last).toHaveLength(2);
        for (const f of [...fonts.scores, ...fonts.last])
          expect(f, `${where}: the scores' and the last move's text`).toBeGreaterThanOrEqual(0.04 * height);
      }
      await page.screenshot({ path: join(shots, `scoreboard-${width}x${height}.png`) });
      await closeWatched(page);
    }
  }, 60_000);

  it("shows the scorekeeper's held reading with its zoomed squares in view, and its dialogs reached by keyboard", async () => {
    // The smudge's squares in doubt: 8F, 8H, 9G, 9H and 9I, under it (8 before a lone square read mostly as a hand,
    // and empty among the rest, was taken as empty; 6 before 7F, read mostly as a hand but showing its own square's
    // colour, was taken as empty in session 42: it is, by the photo's label).
    const pending = (await snapshot(held.id)).pending!.squares.map((q) => `${q.row},${q.col}`);
    expect(pending).toEqual(['7,5', '7,7', '8,6', '8,7', '8,8']);
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.clock.setFixedTime(frozen);
      await page.goto(`${base}/board.html?game=${held.id}#token=${held.token}`);
      await page.waitForSelector('#status.live');
      await page.waitForSelector('main > .pending.held .held-crop');
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(o.clientWidth);
      // The zoomed squares in view without scrolling: all of them on a laptop and a TV, the first row on a phone.
      const crops = await page.locator('.held-crop').evaluateAll((cs) =>
        cs.map((c) => {
          const r = c.getBoundingClientRect();
          return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
        }),
      );
      expect(crops).toHaveLength(pending.length);
      if (width === 390)
        expect(crops.slice(0, 2), `${where}: the first row of squares`).toEqual([true, true]);
      else expect(crops, `${where}: every square in doubt`).toEqual(crops.map(() => true));
      await page.screenshot({ path: join(shots, `scorekeeper-${width}x${height}.png`) });

      // The keyboard alone: Tab to a square's "other letter…", Enter opens the page's dialog with the focus in it,
      // Escape closes it, recording nothing, and the focus is back where it was.
      const version = (await snapshot(held.id)).version;
      expect(await tabTo(page, '.held-other'), `${where}: "other letter…" reached by Tab`).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForSelector('dialog.ask[open] input[name=tile]');
      expect(await focusInDialog(page)).toBe(true);
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page), `${where}: Tab stays in the dialog`).toBe(true);
      await page.keyboard.press('Escape');
      await page.waitForSelector('dialog.ask[open]', { state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.classList.contains('held-other'))).toBe(true);
      expect((await snapshot(held.id)).version).toBe(version);
      await closeWatched(page);
    }

    // The controls' dialogs too, on the game without a held reading: Exchange reached by Tab, opened by Enter.
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.goto(`${base}/board.html?game=${game.id}#token=${game.token}`);
      await page.waitForSelector('.controls [data-action=exchange]');
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(o.clientWidth);
      const version = (await snapshot(game.id)).version;
      expect(await tabTo(page, '[data-action=exchange]', 200), `${where}: Exchange reached by Tab`).toBe(
        true,
      );
      await page.keyboard.press('Enter');
      await page.waitForSelector('dialog.ask[open] input[name=count]');
      expect(await focusInDialog(page)).toBe(true);
      await page.keyboard.press('Escape');
      await page.waitForSelector('dialog.ask[open]', { state: 'detached' });
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action)).toBe(
        'exchange',
      );
      expect((await snapshot(game.id)).version).toBe(version);
      await closeWatched(page);
    }
  }, 90_000);

  it("shows the room's screen with a reading held clear of the board, the TV's page not scrolling", async () => {
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.clock.setFixedTime(frozen);
      await page.goto(`${base}/board.html?game=${held.id}`);
      await page.waitForSelector('#status.live');
      await page.waitForSelector('main.room > .pending.held .held-crop');
      const panel = (await rect(page, 'main.room > .pending.held'))!;
      const board = (await rect(page, 'main.room .board-frame'))!;
      expect(overlaps(panel, board), `${where}: the panel clear of the board`).toBe(false);
      expect(await page.locator('main.room > .pending.held h2').textContent()).toMatch(
        /waiting for the scorekeeper/i,
      );
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(o.clientWidth);
      if (width > height) {
        expect(o.scrollHeight, `${where}: the page does not scroll`).toBeLessThanOrEqual(o.clientHeight);
        expect(panel.bottom, `${where}: the panel within the screen`).toBeLessThanOrEqual(height);
      }
      await page.screenshot({ path: join(shots, `scoreboard-held-${width}x${height}.png`) });
      await closeWatched(page);
    }
  }, 60_000);

  it("keeps the scorekeeper's controls in view beside a long game, its move list scrolling in its panel", async () => {
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.clock.setFixedTime(frozen);
      await page.goto(`${base}/board.html?game=${long.id}#token=${long.token}`);
      await page.waitForSelector('#status.live');
      await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 27);
      const inView = await page.evaluate(() =>
        ['end-turn', 'pass', 'undo', 'end-game'].map((action) => {
          const r = document.querySelector(`.controls [data-action="${action}"]`)?.getBoundingClientRect();
          return Boolean(r && r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth);
        }),
      );
      expect(inView, `${where}: End turn, Pass, Undo and End game in view`).toEqual([true, true, true, true]);
      const list = await page.locator('.moves-box').evaluate((b) => ({
        scrolls: b.scrollHeight > b.clientHeight + 1,
        overflowY: getComputedStyle(b).overflowY,
        height: b.getBoundingClientRect().height,
      }));
      expect(list.scrolls, `${where}: the move list scrolls in its panel`).toBe(true);
      expect(list.overflowY).toBe('auto');
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(o.clientWidth);
      if (width > height)
        expect(o.scrollHeight, `${where}: the page does not scroll`).toBeLessThanOrEqual(o.clientHeight);
      // The player's column as wide as the longest name, not a fixed share left empty beside it.
      const who = await page.locator('.moves li .who').evaluateAll((ws) => ({
        column: Math.max(...ws.map((w) => w.getBoundingClientRect().width)),
        names: Math.max(...ws.map((w) => w.scrollWidth)),
      }));
      expect(who.column, `${where}: the player's column`).toBeLessThanOrEqual(who.names + 1);
      await page.screenshot({ path: join(shots, `scorekeeper-long-${width}x${height}.png`) });
      await closeWatched(page);
    }
  }, 90_000);

  it("shows the long game's newest moves whole below the list's header, and says what its marks mean", async () => {
    for (const [width, height] of SIZES) {
      for (const keeper of [false, true]) {
        const where = `${width}×${height}${keeper ? ', scorekeeper' : ''}`;
        const page = await watchedPage(browser, width, height);
        await page.clock.setFixedTime(frozen);
        await page.goto(`${base}/board.html?game=${long.id}${keeper ? `#token=${long.token}` : ''}`);
        await page.waitForSelector('#status.live');
        await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 27);
        const rows = await page.evaluate(() => {
          const box = document.querySelector('.moves-box')!.getBoundingClientRect();
          const head = document.querySelector('.moves-head')!.getBoundingClientRect();
          const lis = [...document.querySelectorAll('.moves li')].map((li) => li.getBoundingClientRect());
          // Within a pixel: the rows lie at fractions of a pixel, the list scrolls by whole ones.
          const first = lis.find((r) => r.bottom > head.bottom + 1)!;
          return { head: head.bottom, first: first.top, last: lis.at(-1)!.bottom, box: box.bottom };
        });
        expect(rows.first, `${where}: the first row shown whole below the header`).toBeGreaterThanOrEqual(
          rows.head - 1,
        );
        expect(rows.last, `${where}: the newest move in view`).toBeLessThanOrEqual(rows.box + 0.5);
        // Words not in the word list (WORD*): said under the list, in view.
        const key = page.locator('.moves-key');
        expect(await key.textContent()).toContain("not in the game's word list");
        expect(await key.isVisible()).toBe(true);
        if (width > height) {
          const r = (await rect(page, '.moves-key'))!;
          expect(r.bottom, `${where}: the marks' meaning in view`).toBeLessThanOrEqual(height);
        }
        await closeWatched(page);
      }
    }
  }, 90_000);

  it('fits the overlay into each source, either way', async () => {
    const fields = 'scores,last,board,tracker,clock';
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.clock.setFixedTime(frozen);
      await page.goto(`${base}/overlay.html?game=${game.id}&fields=${fields}`);
      await page.waitForSelector('#overlay[data-ready] .ov-panel');
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the source`).toBeLessThanOrEqual(o.clientWidth);
      expect(o.scrollHeight, `${where}: nothing taller than the source`).toBeLessThanOrEqual(o.clientHeight);
      const panels = await page.locator('#overlay .ov-panel').evaluateAll((ps) =>
        ps.map((p) => {
          const r = p.getBoundingClientRect();
          return {
            field: (p as HTMLElement).dataset.field,
            inside: r.right <= innerWidth && r.bottom <= innerHeight,
          };
        }),
      );
      expect(panels.map((p) => p.field)).toEqual(fields.split(','));
      expect(
        panels.every((p) => p.inside),
        `${where}: every panel inside`,
      ).toBe(true);
      // The last move's points (the accent's yellow) outlined in black all round: read over a light picture too.
      const shadow = await page
        .locator('#overlay .head-points')
        .evaluate((e) => getComputedStyle(e).textShadow);
      const outline = shadow.match(/rgb\(0, 0, 0\) -?[\d.]+px -?[\d.]+px 0px/g) ?? [];
      expect(outline.length, `${where}: the points outlined`).toBeGreaterThanOrEqual(4);
      // Over a stand-in for the stream's picture (the overlay itself is transparent).
      await page.addStyleTag({
        content:
          'html { background: radial-gradient(circle at 70% 40%, #5d7a8c, #1d2a33 55%, #0b1014) fixed }',
      });
      await page.screenshot({ path: join(shots, `overlay-${width}x${height}.png`) });
      await closeWatched(page);
    }
  }, 60_000);

  it('keeps the camera page to the screen, its status and End turn in view', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    for (const [width, height] of SIZES) {
      const where = `${width}×${height}`;
      const page = await watchedPage(browser, width, height);
      await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
      await page.waitForSelector('#status.live');
      await page.waitForSelector('#cam-board[data-state=ok]', { timeout: 20_000 });
      const o = await overflow(page);
      expect(o.scrollWidth, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(o.clientWidth);
      expect(o.scrollHeight, `${where}: nothing taller than the screen`).toBeLessThanOrEqual(o.clientHeight);
      const inView = await page.evaluate(() =>
        ['#cam-board', '#cam-doubt', '#cam-turn', '#cam-last', '#end-turn', '#view'].map((s) => {
          const r = document.querySelector(s)!.getBoundingClientRect();
          return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
        }),
      );
      expect(inView, `${where}: the status, the picture and End turn in view`).toEqual(
        inView.map(() => true),
      );
      expect(await page.locator('#cam-board .cam-v').textContent()).toBe('found');
      await page.screenshot({ path: join(shots, `camera-${width}x${height}.png`) });
      await closeWatched(page);
    }
  }, 90_000);
});
