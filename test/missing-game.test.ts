/**
 * A link to a game the server does not have (mistyped, cut short, or the game deleted): the scoreboard, the overlay
 * and the camera page say there is no such game, with a link to the start page, and stop trying; they do not say
 * "reconnecting" for ever.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import { chromiumPresent, closeWatched, startWithBrowser, stopWithBrowser, watchedPage } from './browser.ts';

describe.skipIf(!chromiumPresent)('a link to a game that does not exist', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('missing'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('says on the scoreboard that there is no such game, with the way to the start page, and stops trying', async () => {
    for (const game of ['doesnotexist', 'deadbeef']) {
      const page = await watchedPage(browser, 390, 844);
      let sockets = 0;
      page.on('websocket', () => sockets++);
      await page.goto(`${base}/board.html?game=${game}`);
      await page.waitForSelector('.no-game', { timeout: 10_000 });
      expect(await page.locator('.no-game h2').textContent()).toBe('No such game');
      expect(await page.locator('.no-game').textContent()).toContain(game);
      expect(await page.locator('.no-game a').getAttribute('href')).toBe('/');
      expect(await page.locator('#status').textContent()).toBe('no such game');
      // Not tried again, and not said to be reconnecting.
      const tried = sockets;
      await page.waitForTimeout(2500);
      expect(sockets).toBe(tried);
      expect(await page.locator('#status').textContent()).toBe('no such game');
      await closeWatched(page);
    }
  }, 60_000);

  it('says so on the overlay and on the camera page too', async () => {
    const overlay = await watchedPage(browser, 1280, 720);
    await overlay.goto(`${base}/overlay.html?game=deadbeef`);
    await overlay.waitForSelector('#overlay .no-game', { timeout: 10_000 });
    expect(await overlay.locator('#overlay .no-game').textContent()).toContain('deadbeef');
    await closeWatched(overlay);

    const camera = await watchedPage(browser, 390, 844);
    // No camera here: what the page says is about the game, not the camera.
    await camera.addInitScript(() => Object.defineProperty(navigator, 'mediaDevices', { value: undefined }));
    await camera.goto(`${base}/camera.html?game=deadbeef#token=sometoken`);
    await camera.waitForSelector('#status.missing', { timeout: 10_000 });
    expect(await camera.locator('#no-camera-title').textContent()).toBe('No such game');
    expect(await camera.locator('#no-camera-text').textContent()).toContain('deadbeef');
    expect(await camera.locator('#no-camera-text a').getAttribute('href')).toBe('/');
    expect(await camera.locator('#end-turn').isDisabled()).toBe(true);
    await closeWatched(camera);
  }, 60_000);
});
