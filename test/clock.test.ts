/**
 * The turn clock on the scoreboard and the game clock on the start page, in headless Chromium (Debian's, driven by
 * playwright-core), the page's own clock driven by the test (Playwright's fake clock): each player's time beside the
 * score, the running turn counting every second (up: the time used; down, with a game clock: the time left), past
 * zero the overtime in red with its cost, `−0:16 · −10`; the clock moves to the next player with a move and stops
 * when the game is over; legible on a TV, within a phone's width with a 40-character name. The start page sends
 * the game clock's minutes, none when the field is empty, and has no such field for Scrabble Me.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import {
  chromiumPresent,
  closeWatched,
  demoBoard,
  startWithBrowser,
  stopWithBrowser,
  watchedPage,
} from './browser.ts';

const LONG = 'Bartholomew Fitzgerald-Montgomery Junior';

/** `m:ss` (or `h:mm:ss`) as seconds. */
const seconds = (text: string) => text.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);

/** Each player's clock on the scoreboard: its text, whether it runs, whether it is overtime. */
function clocks(page: Page) {
  return page.locator('.scores .player').evaluateAll((players) =>
    players.map((p) => {
      const time = p.querySelector<HTMLElement>('.clock .time');
      return {
        text: time?.textContent ?? '',
        running: time?.classList.contains('running') ?? false,
        overtime: time?.classList.contains('overtime') ?? false,
      };
    }),
  );
}

describe.skipIf(!chromiumPresent)('the turn clock in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('clock'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  const actor = (id: string, token: string) => async (action: object) => {
    const res = await fetch(`${base}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(action),
    });
    expect(res.status).toBe(200);
  };
  it('counts the time left down on a TV, shows the overtime in red with its cost, and stops at the end', async () => {
    const { id, token } = await server.service.create(
      parseGameConfig({ players: ['Ann', 'Ben'], clockMinutes: 1 }),
    );
    const act = actor(id, token);
    const page = await watchedPage(browser, 1920, 1080);
    await page.clock.install();
    await page.goto(`${base}/board.html?game=${id}`);
    await page.waitForSelector('#status.live');
    await page.waitForSelector('.scores .clock .time');

    // A minute each; Ann to play, her minute running.
    let c = await clocks(page);
    expect(c.map((x) => x.running)).toEqual([true, false]);
    expect(c[1]!.text).toBe('1:00');
    expect(seconds(c[0]!.text)).toBeGreaterThanOrEqual(50);
    const start = seconds(c[0]!.text);
    await page.clock.runFor(5000);
    c = await clocks(page);
    expect(start - seconds(c[0]!.text)).toBeGreaterThanOrEqual(4);
    expect(start - seconds(c[0]!.text)).toBeLessThanOrEqual(6);
    expect(c[1]!.text).toBe('1:00');

    // Past the minute: the overtime, in red, with what it costs (10 points a minute or part of one).
    await page.clock.runFor(70_000);
    c = await clocks(page);
    expect(c[0]!.text).toMatch(/^−0:[0-5]\d · −10$/);
    expect(c[0]!.overtime).toBe(true);
    expect(c[1]!.overtime).toBe(false);
    const look = await page.locator('.player[data-player="0"] .clock').evaluate((e) => {
      const time = e.querySelector('.time')!;
      const r = e.getBoundingClientRect();
      return {
        font: Number.parseFloat(getComputedStyle(e).fontSize),
        colour: getComputedStyle(time).color,
        right: r.right,
        bottom: r.bottom,
        label: e.textContent ?? '',
      };
    });
    // Legible across the room: at least 3% of the screen's height, on the screen.
    expect(look.font).toBeGreaterThanOrEqual(0.03 * 1080);
    expect(look.right).toBeLessThanOrEqual(1920);
    expect(look.bottom).toBeLessThanOrEqual(1080);
    const [r, g, b] = look.colour.match(/\d+/g)!.map(Number) as [number, number, number];
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(150);
    expect(b).toBeLessThan(150);
    // Said for a screen reader, too.
    expect(look.label).toContain('time left on the game clock');

    // Ann plays: Ben's clock runs, Ann's stands still.
    await act({ type: 'confirm', board: demoBoard(1) });
    await page.waitForSelector('.player[data-player="1"] .time.running');
    const before = await clocks(page);
    await page.clock.runFor(3000);
    c = await clocks(page);
    expect(c[0]!.text).toBe(before[0]!.text);
    expect(c[1]!.text).not.toBe(before[1]!.text);

    // The game over: no clock runs any more.
    await act({ type: 'end', racks: ['', ''] });
    await page.waitForSelector('.scores .ended');
    const ended = await clocks(page);
    expect(ended.map((x) => x.running)).toEqual([false, false]);
    await page.clock.runFor(5000);
    expect(await clocks(page)).toEqual(ended);
    await closeWatched(page);
  }, 60_000);

  it('counts the time used up on a phone, with a long name and an overtime, within the screen', async () => {
    // No game clock: the time used, counting up.
    const plain = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const page = await watchedPage(browser, 390, 844);
    await page.clock.install();
    await page.goto(`${base}/board.html?game=${plain.id}`);
    await page.waitForSelector('.scores .clock .time');
    let c = await clocks(page);
    expect(c[1]!.text).toBe('0:00');
    const used = seconds(c[0]!.text);
    await page.clock.runFor(3000);
    c = await clocks(page);
    expect(seconds(c[0]!.text) - used).toBeGreaterThanOrEqual(2);
    expect(seconds(c[0]!.text) - used).toBeLessThanOrEqual(4);
    expect(c[1]!.text).toBe('0:00');
    expect(await page.locator('.player[data-player="0"] .clock').textContent()).toContain('time used');

    // A game clock, a 40-character name to play, three moves, and the overtime: nothing wider than the phone.
    const timed = await server.service.create(parseGameConfig({ players: ['Ann', LONG], clockMinutes: 1 }));
    const act = actor(timed.id, timed.token);
    for (const n of [1, 2, 3]) await act({ type: 'confirm', board: demoBoard(n) });
    await page.goto(`${base}/board.html?game=${timed.id}`);
    await page.waitForSelector('.player[data-player="1"] .time.running');
    await page.clock.runFor(125_000);
    c = await clocks(page);
    expect(c[1]!.text).toMatch(/^−1:\d\d · −20$/);
    const fit = await page.evaluate(() => {
      const doc = document.scrollingElement!;
      const inside = [...document.querySelectorAll('.scores .player')].every((p) => {
        const card = p.getBoundingClientRect();
        return [...p.querySelectorAll('.name, .score, .clock, .mark')].every((e) => {
          const r = e.getBoundingClientRect();
          return r.left >= card.left - 0.5 && r.right <= card.right + 0.5;
        });
      });
      return { overflow: doc.scrollWidth > doc.clientWidth, inside };
    });
    expect(fit).toEqual({ overflow: false, inside: true });
    await closeWatched(page);
  }, 60_000);

  it("sends the start page's game clock, none when empty, and has none for Scrabble Me", async () => {
    const page = await watchedPage(browser, 390, 844);
    await page.goto(base);
    const field = page.getByLabel('Game clock (minutes per player)');
    expect(await field.isVisible()).toBe(true);
    expect(await field.getAttribute('type')).toBe('number');
    /** Presses Start and answers what was sent and the game made. */
    const start = async () => {
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().endsWith('/api/games') && r.method() === 'POST'),
        page.click('#new-game button[type=submit]'),
      ]);
      const response = (await request.response())!;
      expect(response.status()).toBe(201);
      const { id } = (await response.json()) as { id: string };
      return {
        sent: JSON.parse(request.postData() ?? '{}') as Record<string, unknown>,
        game: (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot,
      };
    };

    await field.fill('25');
    let made = await start();
    expect(made.sent.clockMinutes).toBe(25);
    expect(made.game.clock.limit).toEqual({ minutes: 25, pointsPerMinute: 10 });

    await field.fill('');
    made = await start();
    expect('clockMinutes' in made.sent).toBe(false);
    expect(made.game.clock.limit).toBeUndefined();

    // Scrabble Me builds its rounds at the same time: no game clock, even with minutes typed before.
    await field.fill('30');
    // The podium's tiles are asked for only in Scrabble Me.
    const podium = page.locator('input[name=podium]');
    expect(await podium.isVisible()).toBe(false);
    await page.selectOption('select[name=variant]', 'scrabble-me');
    expect(await podium.isVisible()).toBe(true);
    const input = page.locator('input[name=clockMinutes]');
    expect(await input.isVisible()).toBe(false);
    expect(await input.isDisabled()).toBe(true);
    await page.fill('input[name=podium]', 'EAIRST');
    made = await start();
    expect(made.sent.variant).toBe('scrabble-me');
    expect('clockMinutes' in made.sent).toBe(false);
    // Back to a classic game: the field again.
    await page.selectOption('select[name=variant]', 'classic');
    expect(await input.isVisible()).toBe(true);
    expect(await input.isDisabled()).toBe(false);
    expect(await podium.isVisible()).toBe(false);
    await closeWatched(page);
  }, 60_000);
});
