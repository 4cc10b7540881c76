/**
 * The camera page on a phone (390×844), in headless Chromium (Debian's, driven by playwright-core). With a camera
 * (Chromium's fake one, playing the photo of the demo game's first move): the status bar says the board is found,
 * nothing in doubt, whose turn, and after End turn the move just scored, all without scrolling, End turn in view.
 * Without one (no `navigator.mediaDevices`, as on a phone that opened the laptop's address over plain http; or the
 * permission refused): a lasting message that says why and what to do, and a photo taken instead ends the turn.
 * Saves web/screenshots/camera-phone.png.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, closeWatched, launch, watchedPage } from './browser.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const firstMove = join(root, 'fixtures/demo_game/1.jpg');
const shots = join(root, 'web/screenshots');

/** The status bar's items, by id, and whether the page and End turn fit the screen. */
async function look(page: Page) {
  return page.evaluate(() => {
    const doc = document.scrollingElement!;
    const inView = (e: Element | null) => {
      const r = e?.getBoundingClientRect();
      return Boolean(
        r && r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
      );
    };
    const items = [...document.querySelectorAll<HTMLElement>('.cam-item')];
    return {
      items: Object.fromEntries(items.map((i) => [i.id, i.querySelector('.cam-v')?.textContent ?? ''])),
      states: Object.fromEntries(items.map((i) => [i.id, i.dataset.state ?? ''])),
      itemsInView: items.every(inView),
      endTurnInView: inView(document.getElementById('end-turn')),
      endTurn: document.getElementById('end-turn')!.textContent ?? '',
      endTurnDisabled: (document.getElementById('end-turn') as HTMLButtonElement).disabled,
      scrolls: doc.scrollHeight > doc.clientHeight || doc.scrollWidth > doc.clientWidth,
      problem: document.getElementById('no-camera')!.hidden
        ? ''
        : (document.getElementById('no-camera')!.textContent ?? ''),
      problemInView: inView(document.getElementById('no-camera')),
      /** The items whose words are cut off (an ellipsis: "no came…"). */
      clipped: items
        .filter((i) => {
          const v = i.querySelector<HTMLElement>('.cam-v');
          return v !== null && (v.scrollWidth > v.clientWidth + 1 || v.scrollHeight > v.clientHeight + 1);
        })
        .map((i) => i.id),
    };
  });
}

/** The turn was scored (the last move shown) or held for the scorekeeper (squares in doubt). */
const turnRecorded = () =>
  document.querySelector('#cam-last .cam-v')?.textContent !== 'none yet' ||
  document.querySelector('#cam-doubt')?.getAttribute('data-state') === 'warn';

describe.skipIf(!chromiumPresent)('the camera page on a phone', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  const snapshot = async (id: string) =>
    (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;

  /** The frames the server is handed for game `id` from now on, and when; `restore` stops recording. */
  const recordFrames = (id: string) => {
    const frames: { at: number; endTurn: boolean; bytes: Uint8Array }[] = [];
    const submit = server.service.submitFrame.bind(server.service);
    server.service.submitFrame = (game, bytes, endTurn, options) => {
      if (game === id) frames.push({ at: performance.now(), endTurn, bytes });
      return submit(game, bytes, endTurn, options);
    };
    const restore = () => {
      server.service.submitFrame = submit;
    };
    return { frames, restore };
  };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-camera-'));
    server = await startServer({ port: 0, host: '127.0.0.1', db: join(dir, 'games.db') });
    base = `http://127.0.0.1:${server.port}`;
    // Chromium's fake camera plays an MJPEG file: the photo of the board after the demo game's first move, in a
    // picture larger than the page sends (2560×1920).
    const video = join(dir, 'board.mjpeg');
    const frame = await sharp(firstMove)
      .resize(2560, 1920, { fit: 'contain', background: '#000' })
      .jpeg()
      .toBuffer();
    writeFileSync(video, Buffer.concat(Array.from({ length: 10 }, () => frame)));
    browser = await launch([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the board found, whose turn and the last move, with End turn in view and no scrolling', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const page = await watchedPage(browser, 390, 844);
    await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    // The page sends its first frame at once (and more while the picture changes); the server answers where it
    // found the grid.
    await page.waitForSelector('#cam-board[data-state=ok]', { timeout: 20_000 });
    let m = await look(page);
    expect(m.items).toEqual({
      'cam-board': 'found',
      'cam-doubt': 'none',
      'cam-turn': 'Ann',
      'cam-last': 'none yet',
    });
    expect(m.problem).toBe('');
    expect(m.itemsInView).toBe(true);
    expect(m.endTurnInView).toBe(true);
    expect(m.scrolls).toBe(false);

    await page.click('#end-turn');
    await page.waitForFunction(turnRecorded, null, { timeout: 20_000 });
    const snap = await snapshot(id);
    m = await look(page);
    if (snap.pending) {
      // A square in doubt: held for the scorekeeper, and said so.
      expect(m.items['cam-doubt']).toMatch(/square/);
      expect(m.states['cam-doubt']).toBe('warn');
    } else {
      expect(snap.players[0]!.score).toBe(32);
      expect(m.items['cam-last']).toBe('WINDY 8D 32 · Ann');
      expect(m.items['cam-turn']).toBe('Ben');
    }
    expect(m.endTurnInView).toBe(true);
    expect(m.scrolls).toBe(false);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'camera-phone.png') });
    await closeWatched(page);
  }, 60_000);

  it('sends a board that stays the same only every 5 s, not every second, and End turn at once', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const { frames, restore } = recordFrames(id);
    try {
      const page = await watchedPage(browser, 390, 844);
      await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
      await page.waitForSelector('#cam-board[data-state=ok]', { timeout: 20_000 });
      // Frames as large as the page sends (1920 px a side: far letters seen from a seat are a few pixels tall;
      // 1280 before), the camera's shape kept.
      const first = await sharp(frames[0]!.bytes).metadata();
      expect([first.width, first.height]).toEqual([1920, 1440]);
      // The fake camera shows the same board all along: after the first frame and the five that follow it, one
      // every 5 s.
      await page.waitForTimeout(6000);
      const from = performance.now();
      await page.waitForTimeout(11_000);
      const between = frames.filter((f) => f.at >= from && !f.endTurn);
      expect(between.length).toBeGreaterThanOrEqual(2);
      expect(between.length).toBeLessThanOrEqual(3);
      for (const [k, f] of between.entries())
        if (k > 0) expect(f.at - between[k - 1]!.at).toBeGreaterThan(4500);
      // End turn goes at once, whatever the picture.
      const pressed = performance.now();
      await page.click('#end-turn');
      await expect.poll(() => frames.some((f) => f.endTurn && f.at >= pressed)).toBe(true);
      expect(frames.find((f) => f.endTurn)!.at - pressed).toBeLessThan(1000);
      await closeWatched(page);
    } finally {
      restore();
    }
  }, 60_000);

  it('says End turn was not sent while the connection is down, and sends again once back', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    let page: Page | undefined;
    const { frames, restore } = recordFrames(id);
    try {
      page = await watchedPage(browser, 390, 844);
      // The page's connections, and a switch that sends its next ones to an address the server refuses (as when
      // the server is gone): the page keeps trying, once a second.
      await page.addInitScript(() => {
        const Native = window.WebSocket;
        const w = window as unknown as { sockets: WebSocket[]; offline: boolean };
        w.sockets = [];
        w.offline = false;
        window.WebSocket = class extends Native {
          constructor(url: string | URL, protocols?: string | string[]) {
            super(w.offline ? String(url).replace('/ws?', '/gone?') : url, protocols);
            w.sockets.push(this);
          }
        };
      });
      await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
      await page.waitForSelector('#cam-board[data-state=ok]', { timeout: 20_000 });
      await page.evaluate(() => {
        const w = window as unknown as { sockets: WebSocket[]; offline: boolean };
        w.offline = true;
        for (const s of w.sockets) s.close();
      });
      await page.waitForSelector('#status.stale');
      const down = performance.now();
      // Down for longer than the page's 5 s between frames of a still board: End turn says it was not sent. (Nothing
      // can reach the server meanwhile: that the frames seen are none only shows the outage is real.)
      await page.waitForTimeout(5500);
      await page.click('#end-turn');
      expect(await page.textContent('#result')).toMatch(/not sent/);
      expect(frames.filter((f) => f.at >= down)).toEqual([]);
      await page.evaluate(() => {
        (window as unknown as { offline: boolean }).offline = false;
      });
      await page.waitForSelector('#status.live', { timeout: 10_000 });
      const back = performance.now();
      // Connected again: frames go again, and End turn. (Each frame the page could not send reset its gate already:
      // the reset on reconnecting, after an outage with no frame due, is web/ui/frame-gate.test.ts's.)
      await expect.poll(() => frames.some((f) => f.at >= back), { timeout: 10_000 }).toBe(true);
      await page.click('#end-turn');
      await expect.poll(() => frames.some((f) => f.endTurn && f.at >= back), { timeout: 10_000 }).toBe(true);
      // It says so ("End turn sent", or already what became of the turn), no longer that it was not sent.
      expect(await page.textContent('#result')).not.toMatch(/not sent/);
      await closeWatched(page);
      page = undefined;
    } finally {
      await page?.close();
      restore();
    }
  }, 60_000);

  it('says, lastingly, that a camera needs https or localhost when the browser gives none, and takes a photo instead', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const page = await watchedPage(browser, 390, 844);
    // As on a phone that opened the laptop's address over plain http: no navigator.mediaDevices at all.
    await page.addInitScript(() => Object.defineProperty(navigator, 'mediaDevices', { value: undefined }));
    await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    let m = await look(page);
    expect(m.problem).toContain('cannot use a camera');
    expect(m.problem).toContain('https');
    expect(m.problem).toContain('localhost');
    expect(m.problemInView).toBe(true);
    expect(m.items['cam-board']).toBe('no camera');
    expect(m.clipped, 'every item said whole').toEqual([]);
    expect(m.endTurn).toContain('Take a photo');
    expect(m.endTurnDisabled).toBe(false);
    expect(m.endTurnInView).toBe(true);
    expect(m.scrolls).toBe(false);
    expect(await page.locator('#video').isVisible()).toBe(false);

    // A photo of the board ends the turn; the message stays after the game has moved on.
    await page.setInputFiles('#photo', {
      name: 'board.jpg',
      mimeType: 'image/jpeg',
      buffer: readFileSync(firstMove),
    });
    await page.waitForFunction(turnRecorded, null, { timeout: 20_000 });
    const snap = await snapshot(id);
    expect(snap.turns.length > 0 || snap.pending !== null).toBe(true);
    m = await look(page);
    expect(m.problem).toContain('https');
    expect(m.problemInView).toBe(true);
    await closeWatched(page);
  }, 60_000);

  it('says at once that a photo sent is held for the scorekeeper, not that it is still being read', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const page = await watchedPage(browser, 390, 844);
    await page.addInitScript(() => Object.defineProperty(navigator, 'mediaDevices', { value: undefined }));
    await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    // The demo game's third move on an empty board: three moves' tiles at once, held.
    await page.setInputFiles('#photo', {
      name: 'board.jpg',
      mimeType: 'image/jpeg',
      buffer: readFileSync(join(root, 'fixtures/demo_game/3.jpg')),
    });
    await page.waitForFunction(
      () => document.querySelector('#cam-doubt')?.getAttribute('data-state') === 'warn',
      null,
      {
        timeout: 20_000,
      },
    );
    expect((await snapshot(id)).pending).not.toBeNull();
    // Within the 15 s a "sent" message would otherwise stay: the line says what became of the photo.
    await page.waitForFunction(
      () => /^Held for the scorekeeper: /.test(document.getElementById('result')?.textContent ?? ''),
      null,
      {
        timeout: 3000,
      },
    );
    const m = await look(page);
    expect(m.items['cam-doubt']).toMatch(/held$/);
    expect(m.clipped, 'every item said whole').toEqual([]);
    await closeWatched(page);
  }, 60_000);

  it('as a rack camera, sends its frames as that player’s rack frames, with no End turn and no board read', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const racks: number[] = [];
    const boards: number[] = [];
    const submitRack = server.service.submitRackFrame.bind(server.service);
    const submit = server.service.submitFrame.bind(server.service);
    server.service.submitRackFrame = (game, bytes, player, now) => {
      if (game === id) racks.push(player);
      return submitRack(game, bytes, player, now);
    };
    server.service.submitFrame = (game, bytes, endTurn, options) => {
      if (game === id) boards.push(0);
      return submit(game, bytes, endTurn, options);
    };
    try {
      const page = await watchedPage(browser, 390, 844);
      // The link the Share panel gives: Ben's rack key, not the scorekeeper's token.
      const [, key] = await server.service.rackKeys(id, token);
      await page.goto(`${base}/camera.html?game=${id}&rack=2#token=${encodeURIComponent(key!)}`);
      await page.waitForSelector('#status.live');
      await page.waitForFunction(
        () => document.getElementById('seat-name')?.textContent === "Ben's rack camera",
      );
      await expect.poll(() => racks.length, { timeout: 10_000 }).toBeGreaterThan(0);
      // Space, which ends the turn on a board camera, does nothing here.
      await page.keyboard.press('Space');
      await page.waitForTimeout(1500);
      const m = await look(page);
      expect(m.endTurnInView).toBe(false);
      expect(m.items['cam-board']).toBe('sending to the server');
      expect(await page.locator('#result').textContent()).toMatch(/^Keep Ben's rack and the board in view/);
      expect(new Set(racks)).toEqual(new Set([1]));
      // Refused nothing: no error line (a request the key does not open, as the camera pictures, would be one).
      expect(await page.locator('#result').textContent()).not.toMatch(/needed|unauthorized/);
      expect(boards).toEqual([]);
      expect((await snapshot(id)).version).toBe(0);
      await closeWatched(page);
    } finally {
      server.service.submitRackFrame = submitRack;
      server.service.submitFrame = submit;
    }
  }, 60_000);

  it('says the camera was refused when the permission is denied', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const page = await watchedPage(browser, 390, 844);
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await page.goto(`${base}/camera.html?game=${id}#token=${token}`);
    await page.waitForSelector('#no-camera:not([hidden])');
    const m = await look(page);
    expect(m.problem).toContain('not allowed');
    expect(m.problem).toContain('reload');
    expect(m.endTurnInView).toBe(true);
    await closeWatched(page);
  }, 30_000);
});
