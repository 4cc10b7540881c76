/**
 * The scoreboard as a page for a room, in headless Chromium (Debian's, driven by playwright-core): a game of three
 * moves, one player with a 40-character name, opened without the scorekeeper's token on a phone (390×844), a laptop
 * (1280×800), a 1080p TV and a 4K one. Nothing overflows sideways, the scores and the last move are large on the TV, the board
 * fills the height (the width on the phone), the header marks whose turn it is, the move list's columns stay apart,
 * and the game-over banner names the winner and the spread. Saves web/screenshots/scoreboard-{tv,phone}.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, startWithBrowser, stopWithBrowser } from './browser.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser test is skipped (.ci/run installs it).\n`);
const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'fixtures/demo_game');
const shots = join(root, 'web/screenshots');

const LONG = 'Bartholomew Fitzgerald-Montgomery Junior'; // 40 characters

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

/** What the test measures on the page, in CSS pixels. */
interface Measure {
  scrollWidth: number;
  clientWidth: number;
  board: Box;
  scoreFont: number[];
  headFont: number;
  toMove: string[];
  headline: string;
  /** Each move row's columns, left to right. */
  rows: Box[][];
  /** The player column's text fits its box or is cut with an ellipsis. */
  whoClipped: boolean[];
  values: (string | null)[];
  coords: number;
  legend: number;
}

function measure(page: Page): Promise<Measure> {
  return page.evaluate(() => {
    const box = (e: Element): Box => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
    };
    const font = (e: Element | null) => (e ? Number.parseFloat(getComputedStyle(e).fontSize) : 0);
    const doc = document.scrollingElement!;
    return {
      scrollWidth: doc.scrollWidth,
      clientWidth: doc.clientWidth,
      board: box(document.querySelector('.board')!),
      scoreFont: [...document.querySelectorAll('.scores .score')].map(font),
      headFont: font(document.querySelector('.headline .head-word')),
      toMove: [...document.querySelectorAll('.player.to-move .name')].map((e) => e.textContent ?? ''),
      headline: document.querySelector('.headline')?.textContent ?? '',
      rows: [...document.querySelectorAll('.moves li')].map((li) => [...li.children].map(box)),
      whoClipped: [...document.querySelectorAll<HTMLElement>('.moves .who')].map(
        (e) => e.scrollWidth <= e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis',
      ),
      values: ['8D', '8H', '5H'].map(
        (sq) => document.querySelector(`.board [data-square="${sq}"]`)?.getAttribute('data-value') ?? null,
      ),
      coords: document.querySelectorAll('.coords span').length,
      legend: document.querySelectorAll('.premium-legend li').length,
    };
  });
}

describe.skipIf(!chromiumPresent)('the scoreboard for a room in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('room'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('fills a phone, a laptop and a TV without overflow, and shows the game over', async () => {
    expect(LONG).toHaveLength(40);
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', LONG] }));
    const act = async (action: object) => {
      const res = await fetch(`${base}/api/games/${id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(action),
      });
      expect(res.status).toBe(200);
    };
    // Ann plays WINDY, the long-named player AN (with WA and IN), Ann JOE: the demo game's boards, confirmed.
    for (const n of [1, 2, 3])
      await act({
        type: 'confirm',
        board: readFileSync(join(demo, `${n}.txt`), 'utf8')
          .trimEnd()
          .split('\n'),
      });

    mkdirSync(shots, { recursive: true });
    const errors: string[] = [];
    for (const [name, width, height] of [
      ['phone', 390, 844],
      ['laptop', 1280, 800],
      ['tv', 1920, 1080],
      ['4k', 3840, 2160],
    ] as const) {
      const page = await browser.newPage({ viewport: { width, height } });
      page.on('pageerror', (err) => errors.push(`${name}: ${err.message}`));
      await page.goto(`${base}/board.html?game=${id}`);
      await page.waitForSelector('#status.live');
      await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 3);
      const m = await measure(page);
      const where = `${name} ${width}×${height}`;

      expect(m.scrollWidth, `${where}: no horizontal overflow`).toBeLessThanOrEqual(m.clientWidth);
      expect(m.board.right, `${where}: the board within the screen`).toBeLessThanOrEqual(width);
      expect(m.board.left).toBeGreaterThanOrEqual(0);
      if (width > height) {
        expect(m.board.height, `${where}: the board fills the height`).toBeGreaterThanOrEqual(0.8 * height);
        expect(m.board.bottom, `${where}: the board above the fold`).toBeLessThanOrEqual(height);
      } else expect(m.board.width, `${where}: the board fills the width`).toBeGreaterThanOrEqual(0.8 * width);
      if (name === 'tv' || name === '4k') {
        for (const f of m.scoreFont) expect(f, `${where}: score size`).toBeGreaterThanOrEqual(0.04 * height);
        expect(m.headFont, `${where}: last move size`).toBeGreaterThanOrEqual(0.04 * height);
      }
      // Whose turn, and the last move as a headline with its points and every word.
      expect(m.toMove).toEqual([LONG]);
      expect(m.headline).toContain('JOE');
      expect(m.headline).toMatch(/\d+ pts/);
      // Tile values in the corners (W 4, Y 4, J 8), coordinates around the board, the premium legend.
      expect(m.values).toEqual(['4', '4', '8']);
      expect(m.coords).toBe(60);
      expect(m.legend).toBeGreaterThanOrEqual(4);
      // The move list's columns (number, player, move, points, total) side by side, none over the next.
      expect(m.rows).toHaveLength(3);
      for (const row of m.rows) {
        expect(row).toHaveLength(5);
        for (let i = 1; i < row.length; i++)
          expect(row[i]!.left, `${where}: column ${i} after column ${i - 1}`).toBeGreaterThanOrEqual(
            row[i - 1]!.right - 0.5,
          );
        expect(row[4]!.right).toBeLessThanOrEqual(width);
      }
      expect(m.whoClipped.every(Boolean)).toBe(true);
      if (name === 'tv') await page.screenshot({ path: join(shots, 'scoreboard-tv.png') });
      if (name === 'phone') await page.screenshot({ path: join(shots, 'scoreboard-phone.png') });
      await page.close();
    }

    // The scorekeeper's page shares the board and fits a phone too.
    const keeper = await browser.newPage({ viewport: { width: 390, height: 844 } });
    keeper.on('pageerror', (err) => errors.push(`keeper: ${err.message}`));
    await keeper.goto(`${base}/board.html?game=${id}#token=${token}`);
    await keeper.waitForSelector('.controls [data-action=end-game]');
    const k = await measure(keeper);
    expect(k.scrollWidth, 'the scorekeeper on a phone: no horizontal overflow').toBeLessThanOrEqual(
      k.clientWidth,
    );
    expect(k.board.width).toBeGreaterThanOrEqual(0.8 * 390);
    await keeper.close();

    // The end of the game: a banner with the winner and the spread, on the TV.
    const tv = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    tv.on('pageerror', (err) => errors.push(`tv: ${err.message}`));
    await tv.goto(`${base}/board.html?game=${id}&theme=light`);
    await tv.waitForSelector('#status.live');
    expect(await tv.evaluate(() => document.body.classList.contains('light'))).toBe(true);
    await act({ type: 'end', racks: ['', 'Q'] });
    await tv.waitForSelector('.scores .ended');
    const snap = (await (await fetch(`${base}/api/games/${id}`)).json()) as {
      players: { name: string; score: number }[];
      ended: { winners: number[] };
    };
    const [a, b] = snap.players.map((p) => p.score) as [number, number];
    const winner = snap.players[snap.ended.winners[0]!]!.name;
    const banner = (await tv.locator('.scores .ended').textContent()) ?? '';
    expect(banner).toContain(`${winner} wins`);
    expect(banner).toContain(`by ${Math.abs(a - b)}`);
    expect(await tv.locator('.player.to-move').count()).toBe(0);
    const after = await measure(tv);
    expect(after.scrollWidth).toBeLessThanOrEqual(after.clientWidth);
    expect(after.board.bottom).toBeLessThanOrEqual(1080);
    mkdirSync(join(root, 'test/output'), { recursive: true });
    await tv.screenshot({ path: join(root, 'test/output/scoreboard-ended-light.png') });
    await tv.close();
    expect(errors).toEqual([]);
  }, 90_000);
});
