/**
 * A camera stream that stopped, on the scoreboard in headless Chromium: the scorekeeper's page (the token after `#`)
 * says why (asked of the server with the token), and again for the next stop; the snapshot every viewer gets says
 * only that it stopped. The page's Content-Security-Policy lets it ask.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { chromiumPresent, closeWatched, startWithBrowser, stopWithBrowser, watchedPage } from './browser.ts';

describe.skipIf(!chromiumPresent)('a camera stream that stopped, on the scoreboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('source'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('shows the scorekeeper why it stopped, and every viewer only that it did', async () => {
    const created = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'] }),
    });
    const { id, token } = (await created.json()) as { id: string; token: string };
    const startSource = (url: string) =>
      fetch(`${base}/api/games/${id}/source`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    const page = await watchedPage(browser, 1280, 800);
    await page.goto(`${base}/board.html?game=${id}#token=${token}`);
    await page.locator('#status.live').waitFor();
    // The server's default policy (lan) refuses loopback, found only once the name is looked up.
    expect((await startSource('http://localhost:9/video')).status).toBe(202);
    const stopped = page.locator('.source.stopped');
    await expect
      .poll(() => stopped.textContent(), { timeout: 10_000 })
      .toMatch(/^Camera stream from localhost:9 stopped: the camera URL reaches (127\.0\.0\.1|::1)/);
    const snapshot = (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;
    expect(snapshot.sources).toEqual([
      { camera: 0, host: 'localhost:9', state: 'stopped', error: 'the camera stream stopped' },
    ]);
    // Started again and stopped again, for another reason: the page asks again.
    expect((await startSource('http://no-such-camera.invalid/video')).status).toBe(202);
    await expect
      .poll(() => stopped.textContent(), { timeout: 10_000 })
      .toMatch(/^Camera stream from no-such-camera\.invalid stopped: .*(ENOTFOUND|EAI_AGAIN)/);
    await closeWatched(page);
  }, 40_000);
});
