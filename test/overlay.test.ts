/**
 * The OBS overlay and its builder. Its settings from the URL (every bad value ignored, never put in the page); then,
 * in headless Chromium (Debian's, driven by playwright-core), the overlay of a classic game of three moves and of a
 * four-player Scrabble Me game with `fields=scores,last,board,tracker` on 1920×1080 and 1280×720 sources: nothing
 * overflows, every panel lies inside the source, the text stays legible, the background is transparent; the layout,
 * background and size follow the URL; the builder, driven by its labels and the keyboard, makes an address that,
 * opened, shows exactly the fields chosen. Saves web/screenshots/overlay-1080.png, overlay-720.png,
 * overlay-me-1080.png and overlay-builder.png (the overlays over a stand-in for the stream's picture).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import type { GameSnapshot, MeSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { defaultOverlay, type OverlayOptions, overlayPath, parseOverlay } from '../web/ui/overlay-options.ts';
import {
  chromiumPresent,
  closeWatched,
  confirmDemoMoves,
  startWithBrowser,
  stopWithBrowser,
  watchedPage,
} from './browser.ts';
import { mePhoto } from './me-game.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'fixtures/demo_game');
const shots = join(root, 'web/screenshots');
const LONG = 'Bartholomew Fitzgerald-Montgomery Junior';
const FIELDS = ['scores', 'last', 'board', 'tracker'];

const parse = (query: string) => parseOverlay(new URLSearchParams(query));

describe("the overlay's settings from its URL", () => {
  it('reads the fields in their order, the layout, the background and the size', () => {
    expect(parse('game=ab12&fields=board,scores,tracker,clock&layout=row&bg=panel&size=l')).toEqual({
      ...defaultOverlay,
      game: 'ab12',
      fields: ['board', 'scores', 'tracker', 'clock'],
      layout: 'row',
      bg: 'panel',
      size: 'l',
    });
    expect(parse('game=x&bg=%23102030cc&colour=rgb(255,%20200,%200)&size=small').bg).toBe('#102030cc');
    expect(parse('game=x&colour=rgb(255,%20200,%200)').colour).toBe('rgb(255, 200, 0)');
    expect(parse('game=x&size=small').size).toBe('s');
  });

  it('ignores every bad value and keeps its default', () => {
    const o = parse(
      'game=<b>&fields=<img src=x onerror=alert(1)>,,BOARD,board&layout=diagonal&bg=red;background:url(x)' +
        '&size=constructor&colour=expression(alert(1))&font=</style><script>',
    );
    expect(o).toEqual({ ...defaultOverlay, fields: ['board'] });
    expect(parse('fields=nothing,known').fields).toEqual(['scores', 'last']);
    expect(parse('bg=transparent').bg).toBe('');
    expect(parse('size=__proto__').size).toBe('m');
  });

  it('writes an address it reads back the same', () => {
    const o: OverlayOptions = {
      game: 'g-1',
      fields: ['tracker', 'scores'],
      layout: 'row',
      bg: '#1f5f3a',
      size: 's',
      colour: 'gold',
      font: 'Georgia, serif',
    };
    const path = overlayPath(o);
    expect(path).toBe(
      '/overlay.html?game=g-1&fields=tracker,scores&layout=row&bg=%231f5f3a&size=s&colour=gold&font=Georgia%2C%20serif',
    );
    expect(parseOverlay(new URL(path, 'http://tilecam').searchParams)).toEqual(o);
    expect(overlayPath({ game: 'g' })).toBe('/overlay.html?game=g&fields=scores,last');
  });
});

interface Box {
  field: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  background: string;
}

/** What the test measures on an overlay, in CSS pixels. */
interface Measure {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  panels: Box[];
  /** Elements of the overlay that lie partly outside the source. */
  outside: string[];
  bodyBackground: string;
  htmlBackground: string;
  scores: string[];
  scoreFont: number;
  boards: number;
  boardWidth: number;
  squares: number;
  played: number;
  text: Record<string, string>;
}

function measure(page: Page): Promise<Measure> {
  return page.evaluate(() => {
    const doc = document.scrollingElement!;
    const panels = [...document.querySelectorAll<HTMLElement>('#overlay .ov-panel')];
    const fonts = [...document.querySelectorAll('#overlay .scores .score')].map((e) =>
      Number.parseFloat(getComputedStyle(e).fontSize),
    );
    const boards = [...document.querySelectorAll('#overlay .board')];
    return {
      scrollWidth: doc.scrollWidth,
      clientWidth: doc.clientWidth,
      scrollHeight: doc.scrollHeight,
      clientHeight: doc.clientHeight,
      panels: panels.map((p) => {
        const r = p.getBoundingClientRect();
        return {
          field: p.dataset.field ?? '',
          left: r.left,
          top: r.top,
          right: r.right,
          bottom: r.bottom,
          background: getComputedStyle(p).backgroundColor,
        };
      }),
      outside: [...document.querySelectorAll('#overlay *')]
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return (
            r.width > 0 &&
            (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
          );
        })
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
        .slice(0, 5),
      bodyBackground: getComputedStyle(document.body).backgroundColor,
      htmlBackground: getComputedStyle(document.documentElement).backgroundColor,
      scores: [...document.querySelectorAll('#overlay .scores .score')].map((e) => e.textContent ?? ''),
      scoreFont: fonts.length ? Math.min(...fonts) : 0,
      boards: boards.length,
      boardWidth: boards.length ? Math.min(...boards.map((b) => b.getBoundingClientRect().width)) : 0,
      squares: document.querySelectorAll('#overlay .board .sq').length,
      played: document.querySelectorAll('#overlay .unseen .tt.played').length,
      text: Object.fromEntries(panels.map((p) => [p.dataset.field ?? '', p.textContent ?? ''])),
    };
  });
}

/** Opens an overlay and waits for its panels. */
async function openOverlay(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('#overlay[data-ready] .ov-panel');
}

/** The overlay as a stream shows it: over a stand-in for the camera's picture (the page itself stays transparent). */
async function screenshotOverStream(page: Page, name: string): Promise<void> {
  const style = await page.addStyleTag({
    content: 'html { background: radial-gradient(circle at 70% 40%, #5d7a8c, #1d2a33 55%, #0b1014) fixed }',
  });
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, name) });
  await style.evaluate((e) => (e as HTMLElement).remove());
}

const TRANSPARENT = 'rgba(0, 0, 0, 0)';

describe.skipIf(!chromiumPresent)('the OBS overlay in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  let classic: { id: string; token: string };
  let me: { id: string; token: string };
  const snapshot = async <T>(id: string) => (await (await fetch(`${base}/api/games/${id}`)).json()) as T;

  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('overlay'));
    // A classic game: Ann plays WINDY, the long-named player AN, Ann JOEY (the demo game's boards, confirmed).
    classic = await server.service.create(parseGameConfig({ players: ['Ann', LONG] }));
    await confirmDemoMoves(base, classic, [1, 2, 3]);
    // Scrabble Me for four: a board each, round 1 read from photos (Dee's board is the demo game's WINDY).
    me = await server.service.create(
      parseGameConfig({
        players: ['Ann', 'Ben', 'Cy', 'Dee'],
        variant: 'scrabble-me',
        podium: 'EAIRSTNLODGC',
      }),
    );
    const photos = [mePhoto(1, 0), mePhoto(1, 1), mePhoto(1, 2), readFileSync(join(demo, '1.jpg'))];
    for (const [camera, photo] of photos.entries()) {
      const res = await fetch(`${base}/api/games/${me.id}/frames?camera=${camera}&endTurn=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${me.token}`, 'content-type': 'image/jpeg' },
        body: photo,
      });
      expect(res.status).toBe(200);
    }
    expect((await snapshot<MeSnapshot>(me.id)).rounds).toHaveLength(1);
  }, 90_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('fits 1920×1080 and 1280×720 sources for a classic game and a four-player Scrabble Me game, transparent', async () => {
    const game = await snapshot<GameSnapshot>(classic.id);
    const meGame = await snapshot<MeSnapshot>(me.id);
    const onBoard = game.board.join('').replace(/\./g, '').length;
    expect(onBoard).toBe(10);
    for (const [kind, id] of [
      ['classic', classic.id],
      ['me', me.id],
    ] as const) {
      for (const [width, height] of [
        [1920, 1080],
        [1280, 720],
      ] as const) {
        const where = `${kind} ${width}×${height}`;
        const page = await watchedPage(browser, width, height);
        await openOverlay(page, `${base}/overlay.html?game=${id}&fields=${FIELDS.join(',')}`);
        const m = await measure(page);

        // Nothing overflows the source, either way, and every panel lies inside it.
        expect(m.scrollWidth, `${where}: no horizontal overflow`).toBeLessThanOrEqual(m.clientWidth);
        expect(m.scrollHeight, `${where}: no vertical overflow`).toBeLessThanOrEqual(m.clientHeight);
        expect(m.outside, `${where}: nothing outside the source`).toEqual([]);
        expect(m.panels.map((p) => p.field)).toEqual(FIELDS);
        for (const p of m.panels) {
          expect(p.right, `${where}: ${p.field} inside`).toBeLessThanOrEqual(width);
          expect(p.bottom, `${where}: ${p.field} inside`).toBeLessThanOrEqual(height);
          // Transparent by default: no card under the panels.
          expect(p.background).toBe(TRANSPARENT);
        }
        expect(m.bodyBackground, `${where}: transparent`).toBe(TRANSPARENT);
        expect(m.htmlBackground).toBe(TRANSPARENT);
        // Legible on the stream: the totals at least 2% of the source's height.
        expect(m.scoreFont, `${where}: score size`).toBeGreaterThanOrEqual(0.02 * height);

        if (kind === 'classic') {
          expect(m.scores).toEqual(game.players.map((p) => String(p.score)));
          expect(m.boards).toBe(1);
          expect(m.squares).toBe(225);
          expect(m.boardWidth, `${where}: the board's size`).toBeGreaterThanOrEqual(0.3 * height);
          // The last move as the scoreboard's headline: the word, its points, and the breakdown word by word.
          expect(m.text.last).toContain('JOEY');
          expect(m.text.last).toMatch(/\d+ pts/);
          expect(await page.locator('#overlay .ov-last .breakdown li').count()).toBeGreaterThan(0);
          // The tile tracker strikes through every tile on the board.
          expect(m.played).toBe(onBoard);
          expect(m.text.tracker).toContain(`${game.unseen.total} unseen`);
        } else {
          expect(m.scores).toEqual(meGame.players.map((p) => String(p.score)));
          expect(m.scores).toEqual(['10', '12', '4', '32']);
          expect(m.boards).toBe(4);
          expect(m.squares).toBe(4 * 225);
          expect(m.boardWidth, `${where}: each board's size`).toBeGreaterThanOrEqual(0.15 * height);
          expect(m.text.last).toContain('Round 1');
          expect(m.text.last).toContain('Dee WINDY 32');
          expect(m.text.tracker).toContain(`bag ${meGame.bag}`);
        }
        if (kind === 'classic' && width === 1920) await screenshotOverStream(page, 'overlay-1080.png');
        if (kind === 'classic' && width === 1280) await screenshotOverStream(page, 'overlay-720.png');
        if (kind === 'me' && width === 1920) await screenshotOverStream(page, 'overlay-me-1080.png');
        await closeWatched(page);
      }
    }
  }, 90_000);

  it('takes its layout, background and size from the URL, and ignores bad values', async () => {
    const page = await watchedPage(browser, 1280, 720);
    // A row of dark cards, large: side by side, each on its card, all inside the source (shrunk to fit).
    for (const id of [classic.id, me.id]) {
      await openOverlay(
        page,
        `${base}/overlay.html?game=${id}&fields=${FIELDS.join(',')}&layout=row&bg=panel&size=l`,
      );
      const row = await measure(page);
      expect(row.panels.map((p) => p.field)).toEqual(FIELDS);
      for (const [i, p] of row.panels.entries()) {
        expect(p.background).not.toBe(TRANSPARENT);
        expect(Math.abs(p.top - row.panels[0]!.top)).toBeLessThanOrEqual(1);
        if (i > 0) expect(p.left).toBeGreaterThanOrEqual(row.panels[i - 1]!.right);
      }
      expect(row.bodyBackground).toBe(TRANSPARENT);
      expect(row.scrollWidth).toBeLessThanOrEqual(row.clientWidth);
      expect(row.outside).toEqual([]);
    }
    // Small is smaller than large.
    const font = async (size: string) => {
      await openOverlay(page, `${base}/overlay.html?game=${classic.id}&fields=scores&size=${size}`);
      return (await measure(page)).scoreFont;
    };
    expect(await font('s')).toBeLessThan(await font('l'));
    // A colour for the cards.
    await openOverlay(page, `${base}/overlay.html?game=${classic.id}&fields=scores&bg=%23336699`);
    expect((await measure(page)).panels[0]!.background).toBe('rgb(51, 102, 153)');
    // The turn clock: each player's time used, the turn of the player to move running.
    await openOverlay(page, `${base}/overlay.html?game=${classic.id}&fields=scores,clock`);
    expect((await measure(page)).panels.map((p) => p.field)).toEqual(['scores', 'clock']);
    const times = await page.locator('#overlay .clock-player .time').allTextContents();
    expect(times).toHaveLength(2);
    for (const t of times) expect(t).toMatch(/^\d+:\d\d$/);
    expect(await page.locator('#overlay .clock-player.running .who').allTextContents()).toEqual([LONG]);
    // With a game clock (a minute each), the time left: the player not to move has used none of it.
    const timed = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'], clockMinutes: 1 }));
    await openOverlay(page, `${base}/overlay.html?game=${timed.id}&fields=clock`);
    expect(await page.locator('#overlay .clock-player:not(.running) .time').allTextContents()).toEqual([
      '1:00',
    ]);
    expect(await page.locator('#overlay .clock-player.running .time').textContent()).toMatch(
      /^0:[0-5]\d$|^1:00$/,
    );
    // Names only: no totals.
    await openOverlay(page, `${base}/overlay.html?game=${classic.id}&fields=names`);
    expect((await measure(page)).scores).toEqual([]);
    expect(await page.locator('#overlay .scores .name').allTextContents()).toEqual(['Ann', LONG]);
    // Bad values are ignored, never put into the page.
    await openOverlay(
      page,
      `${base}/overlay.html?game=${classic.id}&fields=${encodeURIComponent('<img src=x onerror=alert(1)>')},board` +
        `&layout=diagonal&bg=${encodeURIComponent('<script>')}&size=huge&colour=${encodeURIComponent('red;x:y')}`,
    );
    const bad = await measure(page);
    expect(bad.panels.map((p) => p.field)).toEqual(['board']);
    expect(bad.panels[0]!.background).toBe(TRANSPARENT);
    expect(await page.locator('img, script:not([src])').count()).toBe(0);
    expect(await page.evaluate(() => document.getElementById('overlay')!.className)).toBe(
      'room overlay column',
    );
    await closeWatched(page);
  }, 60_000);

  it('builds an address that, opened, shows exactly the fields chosen, with a live preview', async () => {
    const page = await watchedPage(browser, 1280, 900);
    await page.goto(`${base}/overlay-builder?game=${me.id}`);
    // The games from the list; the one in the address chosen.
    await page.waitForFunction(() => document.querySelectorAll('#game option').length >= 2);
    expect(await page.getByLabel('Game', { exact: true }).inputValue()).toBe(me.id);
    await page.getByLabel('Game', { exact: true }).selectOption(classic.id);
    // Every control is a real one with its label; the Board box is reached and ticked by the keyboard alone.
    await page.getByLabel('Last move, word by word').uncheck();
    await page.getByLabel('Scores (names and totals)').focus();
    for (let i = 0; i < 10; i++) {
      if (await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value === 'board'))
        break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Space');
    expect(await page.getByLabel('Board', { exact: true }).isChecked()).toBe(true);
    await page.getByLabel('Tile tracker').check();
    await page.getByLabel('Row (side by side)').check();
    await page.getByLabel('Card colour').fill('#123456');
    expect(await page.getByLabel('Cards of a colour').isChecked()).toBe(true);
    expect(await page.getByLabel("The overlay's address").inputValue()).toContain('bg=%23123456');
    await page.getByLabel('Dark cards').check();
    await page.getByLabel('Small', { exact: true }).check();
    await page.getByLabel('1280 × 720').check();

    const url = await page.getByLabel("The overlay's address").inputValue();
    expect(url).toBe(
      `${base}/overlay.html?game=${classic.id}&fields=scores,board,tracker&layout=row&bg=panel&size=s`,
    );
    // The preview is that very overlay, at the source's size, scaled into the page.
    await page.waitForFunction((u) => document.querySelector<HTMLIFrameElement>('#preview')?.src === u, url);
    const frame = page.frameLocator('#preview');
    await frame.locator('#overlay[data-ready] .ov-panel').first().waitFor();
    expect(
      await frame
        .locator('#overlay .ov-panel')
        .evaluateAll((ps) => ps.map((p) => (p as HTMLElement).dataset.field)),
    ).toEqual(['scores', 'board', 'tracker']);
    expect(await page.locator('#preview').getAttribute('width')).toBe('1280');
    const box = (await page.locator('#preview-box').boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.02);
    mkdirSync(shots, { recursive: true });
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: join(shots, 'overlay-builder.png') });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.waitForFunction(() => document.getElementById('copied')?.textContent !== '');
    expect(await page.locator('#copied').textContent()).toMatch(/^(Copied|Selected)/);

    // Opened as OBS opens it: exactly those fields, in a row of dark cards.
    const opened = await watchedPage(browser, 1280, 720);
    await openOverlay(opened, url);
    const m = await measure(opened);
    expect(m.panels.map((p) => p.field)).toEqual(['scores', 'board', 'tracker']);
    expect(await opened.locator('#overlay .headline').count()).toBe(0);
    expect(m.panels.every((p) => p.background !== TRANSPARENT)).toBe(true);
    expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
    await closeWatched(opened);

    // The scorekeeper's Share panel leads to the builder, beside the overlay's link.
    await page.goto(`${base}/board.html?game=${classic.id}#token=${classic.token}`);
    const more = page.locator('.share-link[data-link=overlay] .share-more');
    await more.waitFor({ state: 'attached' });
    expect(await more.getAttribute('href')).toBe(`/overlay-builder?game=${classic.id}`);
    await closeWatched(page);
  }, 60_000);
});
