/**
 * Accessibility, checked by axe-core in headless Chromium (Debian's, driven by playwright-core): the start page (with
 * a game's Share panel), the scoreboard (dark and light), the scorekeeper's page, the overlay builder and the camera
 * page (its no-camera message shown), on a laptop and a phone, have no violation of serious or critical impact.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import {
  axeViolations,
  chromiumPresent,
  closeWatched,
  confirmDemoMoves,
  startWithBrowser,
  stopWithBrowser,
  watchedPage,
} from './browser.ts';

describe.skipIf(!chromiumPresent)('accessibility of the pages (axe-core)', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  let game: { id: string; token: string };
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('a11y'));
    game = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await confirmDemoMoves(base, game, [1, 2]);
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('finds no serious or critical violation on the scoreboard, the scorekeeper, the builder, the camera and the start page', async () => {
    const pages: [name: string, path: string, ready: string][] = [
      ['scoreboard', `/board.html?game=${game.id}`, '.moves li'],
      ['scoreboard, light', `/board.html?game=${game.id}&theme=light`, '.moves li'],
      ['scorekeeper', `/board.html?game=${game.id}#token=${game.token}`, '.controls [data-action=end-turn]'],
      ['overlay builder', `/overlay-builder?game=${game.id}`, '#overlay-url:not([value=""])'],
      ['camera', `/camera.html?game=${game.id}#token=${game.token}`, '#no-camera:not([hidden])'],
      ['start', '/', '#games li'],
      [
        'post-game analysis',
        `/analysis.html?game=${game.id}#token=${game.token}`,
        '#analysis-turns:not([hidden])',
      ],
    ];
    const found: string[] = [];
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      for (const [name, path, ready] of pages) {
        const page = await watchedPage(browser, width, height);
        await page.goto(base + path);
        await page.waitForSelector(ready, { state: 'attached' });
        // The scorekeeper's Share panel open, with its links and QR codes drawn.
        if (name === 'scorekeeper') {
          await page.click('.share-details > summary');
          await page.waitForSelector('.share-panel[data-ready=true]');
        }
        found.push(...(await axeViolations(page)).map((v) => `${name} ${width}×${height}: ${v}`));
        await closeWatched(page);
      }
    }
    // The start page after Start: the new game's Share panel.
    const page = await watchedPage(browser, 390, 844);
    await page.goto(base);
    await page.click('button[type=submit]');
    await page.waitForSelector('#links .share-panel[data-ready=true]');
    found.push(...(await axeViolations(page)).map((v) => `start, a game started: ${v}`));
    await closeWatched(page);
    expect(found).toEqual([]);
  }, 120_000);
});
