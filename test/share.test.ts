/**
 * Sharing a game's links, in headless Chromium (Debian's, driven by playwright-core) on a phone-sized page: the start
 * page's "Share" panel after "Start" shows each link (scoreboard, overlay, a camera per seat, the scorekeeper) with
 * Copy and a QR code that decodes (jsQR, from a screenshot) to that very link; the server's LAN addresses are offered
 * (a select when there are several), else the page's own with a note; the scorekeeper link is kept under "Your
 * games on this computer" until forgotten; the scorekeeper's page has the panel too; nothing is wider than 390 px.
 * Saves web/screenshots/share-phone.png.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsQRModule from 'jsqr';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import { gameShareLinks } from '../web/ui/share.ts';
import { chromiumPresent, launch } from './browser.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser test is skipped (.ci/run installs it).\n`);
/** jsQR is CommonJS (`exports.default`): the function, however the module loader hands it over. */
const loaded = jsQRModule as unknown as typeof jsQRModule.default | typeof jsQRModule;
const jsQR = typeof loaded === 'function' ? loaded : loaded.default;
const root = fileURLToPath(new URL('..', import.meta.url));
const shots = join(root, 'web/screenshots');

/** What a QR code on the page reads as, decoded from its screenshot. */
async function decodeQr(page: Page, selector: string): Promise<string | undefined> {
  const png = await page.locator(selector).screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)
    ?.data;
}

/** Nothing wider than the page: no sideways scroll on a phone. */
async function expectNoOverflow(page: Page): Promise<void> {
  const { scroll, client, wide } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      .slice(0, 5),
  }));
  expect(wide).toEqual([]);
  expect(scroll).toBeLessThanOrEqual(client);
}

const urlOf = (page: Page, name: string) =>
  page.locator(`.share-link[data-link="${name}"] .share-url`).inputValue();

describe.skipIf(!chromiumPresent)('sharing a game’s links', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let base: string;
  const problems: string[] = [];
  beforeAll(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'tilecam-share-')), 'games.db');
    // Loopback only: the server offers no LAN address, so the pages fall back to their own with a note.
    server = await startServer({ port: 0, host: '127.0.0.1', db });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launch();
    // A phone (a high-density screen: the QR codes' screenshots are sharp enough to decode).
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows each link with Copy and a QR code, keeps the scorekeeper link, and forgets it', async () => {
    const page = await context.newPage();
    page.on('dialog', (d) => {
      problems.push(`a native ${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    page.on('pageerror', (err) => problems.push(`script error: ${err.message}`));
    await page.goto(base);
    await expect(page.locator('#my-games').isHidden()).resolves.toBe(true);

    // A Scrabble Me game: a camera link per seat.
    await page.fill('textarea[name=players]', 'Ann\nBen\nCy');
    await page.selectOption('select[name=variant]', 'scrabble-me');
    await page.fill('input[name=podium]', 'EAIRSTNLO');
    await page.click('button[type=submit]');
    const panel = page.locator('#links .share-panel[data-ready="true"]');
    await panel.waitFor();
    const names = await panel
      .locator('.share-link')
      .evaluateAll((ls) => ls.map((l) => l.getAttribute('data-link')));
    expect(names).toEqual(['scoreboard', 'overlay', 'camera-1', 'camera-2', 'camera-3', 'scorekeeper']);
    // Every link has its QR code, drawn for the address shown.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#links .share-link')].every((l) => {
        const qr = l.querySelector<HTMLElement>('.share-qr');
        return qr?.querySelector('svg') && qr.dataset.drawn === l.querySelector('input')?.value;
      }),
    );
    // The server listens on loopback only: this address, and why a phone cannot use it.
    await expect(panel.locator('.share-note').textContent()).resolves.toBe(
      'Phones cannot reach this address; start tilecam with --host 0.0.0.0',
    );
    await expect(panel.locator('.share-address').isHidden()).resolves.toBe(true);
    const scorekeeper = await urlOf(page, 'scorekeeper');
    const match = /^http:\/\/127\.0\.0\.1:\d+\/board\.html\?game=([^&#]+)#token=(.+)$/.exec(scorekeeper);
    expect(match, scorekeeper).not.toBeNull();
    const [, id, token] = match!;
    expect(await urlOf(page, 'scoreboard')).toBe(`${base}/board.html?game=${id}`);
    expect(await urlOf(page, 'overlay')).toBe(`${base}/overlay.html?game=${id}&fields=scores,last`);
    const camera = await urlOf(page, 'camera-2');
    expect(camera).toBe(`${base}/camera.html?game=${id}&seat=2#token=${token}`);
    // The links with the token say so; the others do not.
    const keyed = await panel
      .locator('.share-link')
      .evaluateAll((ls) => ls.map((l) => l.querySelector('.share-key')?.textContent ?? ''));
    const note = "with the scorekeeper's key — only for the table";
    expect(keyed).toEqual(['', '', note, note, note, note]);

    // The QR code of a camera link reads as that link (a phone at the table opens it in one scan).
    expect(await decodeQr(page, '.share-link[data-link="camera-2"] .share-qr')).toBe(camera);
    expect(await decodeQr(page, '.share-link[data-link="scorekeeper"] .share-qr')).toBe(scorekeeper);

    // Copy: to the clipboard where the page may…
    await panel.locator('.share-link[data-link="camera-2"] .share-copy').click();
    await panel.locator('.share-link[data-link="camera-2"] .share-said', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(camera);
    // …else the link is selected, for the person to copy (no alert).
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await panel.locator('.share-link[data-link="overlay"] .share-copy').click();
    await panel.locator('.share-link[data-link="overlay"] .share-said', { hasText: 'Selected' }).waitFor();
    const selected = await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement;
      return input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0);
    });
    expect(selected).toBe(`${base}/overlay.html?game=${id}&fields=scores,last`);

    // "Your games on this computer" keeps the scorekeeper link.
    const kept = page.locator(`#my-games-list .kept[data-game="${id}"]`);
    await expect(kept.locator('.share-url').inputValue()).resolves.toBe(scorekeeper);
    await expectNoOverflow(page);
    await page.screenshot({ path: join(shots, 'share-phone.png'), fullPage: true });

    // Opened again, on a server that a phone reaches at two addresses: the first, and a select for the other.
    await page.route('**/api/health', (route) =>
      route.fulfill({
        json: {
          ok: true,
          name: 'tilecam',
          tileSets: ['en'],
          lan: ['http://192.168.1.20:3000', 'http://10.0.0.5:3000'],
        },
      }),
    );
    await page.reload();
    await expect(page.locator('#links .share-panel').count()).resolves.toBe(0);
    await expect(kept.locator('.share-url').inputValue()).resolves.toBe(scorekeeper);
    await expect(kept.locator('.kept-open').getAttribute('href')).resolves.toBe(scorekeeper);
    await kept.locator('.kept-share').click();
    await panel.waitFor();
    await expect(panel.locator('.share-note').isHidden()).resolves.toBe(true);
    await expect(panel.locator('.share-address select option').allTextContents()).resolves.toEqual([
      '192.168.1.20:3000',
      '10.0.0.5:3000',
    ]);
    expect(await urlOf(page, 'camera-1')).toBe(
      `http://192.168.1.20:3000/camera.html?game=${id}&seat=1#token=${token}`,
    );
    await panel.locator('.share-address select').selectOption('http://10.0.0.5:3000');
    const other = `http://10.0.0.5:3000/camera.html?game=${id}&seat=1#token=${token}`;
    expect(await urlOf(page, 'camera-1')).toBe(other);
    await page.waitForFunction(
      (url) =>
        document.querySelector<HTMLElement>('.share-link[data-link="camera-1"] .share-qr')?.dataset.drawn ===
        url,
      other,
    );
    expect(await decodeQr(page, '.share-link[data-link="camera-1"] .share-qr')).toBe(other);
    await expectNoOverflow(page);

    // Forget: gone from this computer (the game itself stays on the server's list).
    await kept.locator('.kept-forget').click();
    await expect(kept.count()).resolves.toBe(0);
    await expect(page.locator('#my-games').isHidden()).resolves.toBe(true);
    await page.reload();
    await expect(page.locator('#my-games').isHidden()).resolves.toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('tilecam.games'))).toBe('[]');
    await page.unroute('**/api/health');

    // The scorekeeper's page: the same links, folded away under the controls.
    await page.goto(scorekeeper);
    const details = page.locator('details.share-details');
    await details.locator('summary').click();
    await page.locator('details.share-details .share-panel[data-ready="true"]').waitFor();
    const onBoard = await details
      .locator('.share-link')
      .evaluateAll((ls) => ls.map((l) => l.getAttribute('data-link')));
    expect(onBoard).toEqual(names);
    expect(await urlOf(page, 'camera-2')).toBe(camera);
    await page.waitForFunction(
      (url) =>
        document.querySelector<HTMLElement>('.share-link[data-link="camera-2"] .share-qr')?.dataset.drawn ===
        url,
      camera,
    );
    expect(await decodeQr(page, '.share-link[data-link="camera-2"] .share-qr')).toBe(camera);
    await expectNoOverflow(page);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('shares a classic game: one camera over the board, a rack camera per player', async () => {
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`script error: ${err.message}`));
    await page.goto(base);
    await page.click('button[type=submit]');
    const panel = page.locator('#links .share-panel[data-ready="true"]');
    await panel.waitFor();
    const names = await panel
      .locator('.share-link')
      .evaluateAll((ls) => ls.map((l) => l.getAttribute('data-link')));
    expect(names).toEqual(['scoreboard', 'overlay', 'camera', 'rack-1', 'rack-2', 'scorekeeper']);
    expect(await urlOf(page, 'camera')).toMatch(/\/camera\.html\?game=[^&#]+#token=.+$/);
    // The rack camera's link carries its own key, not the scorekeeper's token.
    const rack2 = await urlOf(page, 'rack-2');
    expect(rack2).toMatch(/\/camera\.html\?game=[^&#]+&rack=2#token=.+$/);
    const scorekeeperToken = /#token=(.+)$/.exec(await urlOf(page, 'scorekeeper'))![1];
    expect(/#token=(.+)$/.exec(rack2)![1]).not.toBe(scorekeeperToken);
    await expectNoOverflow(page);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});

describe("a game's links", () => {
  it('give a classic game a camera over the board and a rack camera per player, Scrabble Me a camera per seat', () => {
    const keys = ['r0', 'r1', 'r2'];
    const names = (variant?: string, rackKeys?: string[]) =>
      gameShareLinks({ id: 'g1', players: ['Ann', 'Ben', 'Cy'], variant }, 'k', rackKeys).map((l) => l.name);
    expect(names('classic', keys)).toEqual([
      'scoreboard',
      'overlay',
      'camera',
      'rack-1',
      'rack-2',
      'rack-3',
      'scorekeeper',
    ]);
    // Without the rack keys (not had from the server), no rack camera link: never one with the scorekeeper's token.
    expect(names('classic')).toEqual(['scoreboard', 'overlay', 'camera', 'scorekeeper']);
    expect(names('scrabble-me', keys)).toEqual([
      'scoreboard',
      'overlay',
      'camera-1',
      'camera-2',
      'camera-3',
      'scorekeeper',
    ]);
    // Best plays are worked out for seven-tile racks only.
    expect(names('nine-tile', keys)).toEqual(['scoreboard', 'overlay', 'camera', 'scorekeeper']);
    const rack = gameShareLinks({ id: 'g 1', players: ['Ann', 'Ben'] }, 't/1', ['a', 'b/2']).find(
      (l) => l.name === 'rack-2',
    );
    expect(rack).toMatchObject({ path: '/camera.html?game=g%201&rack=2#token=b%2F2', keyed: true });
    expect(rack?.label).toBe("Ben's rack camera (a phone at their place)");
  });
});
