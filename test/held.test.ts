/**
 * The reading held for the scorekeeper, in headless Chromium (Debian's, driven by playwright-core), on a phone: a
 * panel at the top of the page with an alert and the reasons, the page's title marked, each square in doubt zoomed
 * from the held photo, and its likeliest readings as buttons; pressing one fixes the square (the squares in doubt
 * shrink in the next snapshot). No native dialog. Saves web/screenshots/held-phone.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, startWithBrowser, stopWithBrowser } from './browser.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser test is skipped (.ci/run installs it).\n`);
const root = fileURLToPath(new URL('..', import.meta.url));
const shots = join(root, 'web/screenshots');

const name = (q: { row: number; col: number }) => `${q.row + 1}${'ABCDEFGHIJKLMNO'[q.col]}`;

describe.skipIf(!chromiumPresent)("the scorekeeper's held reading in a browser", () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('held'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('shows the held reading at the top with each doubtful square zoomed, and fixes a square from its readings', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const snap = async () => (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;
    // A hand over the board at the end of a turn: held, with squares the camera is unsure of.
    const posted = await fetch(`${base}/api/games/${id}/frames?endTurn=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
      body: readFileSync(join(root, 'fixtures/photos/hand_over_row_8.jpg')),
    });
    expect(((await posted.json()) as { status: string }).status).toBe('needs-confirmation');
    const held = (await snap()).pending!;
    expect(held.look?.corners).toHaveLength(4);
    const doubt = held.squares.map(name);
    expect(doubt.length).toBeGreaterThan(0);

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const problems: string[] = [];
    page.on('dialog', (dialog) => {
      problems.push(`a native ${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (err) => problems.push(`script error: ${err.message}`));
    await page.goto(`${base}/board.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    const panel = page.locator('main > .pending.held');
    await panel.waitFor();

    // At the top of the page, above the board, in view without scrolling; an alert with the reasons; the title marked.
    expect(await page.evaluate(() => document.querySelector('main')!.firstElementChild!.className)).toContain(
      'pending',
    );
    const box = (await panel.boundingBox())!;
    const boardBox = (await page.locator('main .board-area').boundingBox())!;
    expect(box.y).toBeLessThan(120);
    expect(box.y).toBeLessThan(boardBox.y);
    expect(await panel.locator('h2').isVisible()).toBe(true);
    expect(await panel.locator('[role=alert]').textContent()).toContain('hand in view');
    expect(await page.title()).toMatch(/^● /);

    // One zoomed crop per square in doubt, drawn from the photo (not blank), named as the board names it.
    const items = panel.locator('.held-square');
    expect(await items.count()).toBe(doubt.length);
    expect(await items.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.held))).toEqual(doubt);
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll<HTMLCanvasElement>('.held-crop')].filter((c) => {
          const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          const first = [d[0], d[1], d[2]];
          for (let i = 0; i < d.length; i += 4 * 97)
            if (d[i] !== first[0] || d[i + 1] !== first[1] || d[i + 2] !== first[2]) return true;
          return false;
        }).length === n,
      doubt.length,
    );
    const first = panel.locator('.held-square').first();
    expect((await first.locator('canvas').boundingBox())!.y).toBeLessThan(844);

    // The readings where the camera had some (a hand is never one); pressing one fixes that square.
    const withOptions = held.squares.find((q) =>
      held.look!.squares.some(
        (l) => l.row === q.row && l.col === q.col && l.options.some((o) => o.tile !== '#'),
      ),
    )!;
    expect(withOptions).toBeDefined();
    const item = panel.locator(`.held-square[data-held="${name(withOptions)}"]`);
    const options = item.locator('button.held-option');
    expect(await options.count()).toBeGreaterThan(0);
    expect(await item.locator('[data-tile="#"]').count()).toBe(0);
    expect(await item.locator('.held-other').textContent()).toBe('other letter…');
    expect(await options.first().textContent()).toMatch(/%$/);

    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'held-phone.png') });
    // On a laptop too: the panel leads the page, in view.
    await page.setViewportSize({ width: 1280, height: 800 });
    const wide = (await panel.boundingBox())!;
    expect(wide.y).toBeLessThan(120);
    expect(wide.y).toBeLessThan((await page.locator('main .board-area').boundingBox())!.y);
    await page.setViewportSize({ width: 390, height: 844 });

    const tile = (await options.first().getAttribute('data-tile'))!;
    await options.first().click();
    await page.waitForFunction((n) => document.querySelectorAll('.held-square').length < n, doubt.length);
    const after = await snap();
    if (after.pending) {
      expect(after.pending.squares.map(name)).not.toContain(name(withOptions));
      expect(after.pending.squares.length).toBeLessThan(doubt.length);
      expect(after.pending.board[withOptions.row]![withOptions.col]).toBe(tile);
    }
    // "other letter…" asks through the page's own dialog, and Escape records nothing.
    if (after.pending && after.pending.squares.length > 0) {
      const version = after.version;
      await page.locator('.held-other').first().click();
      await page.waitForSelector('dialog.ask[open] input[name=tile]');
      await page.keyboard.press('Escape');
      await page.waitForSelector('dialog.ask[open]', { state: 'detached' });
      expect((await snap()).version).toBe(version);
    }
    // "Confirm this board" sends the reading as it stands. With the hand's squares read empty it is no legal move:
    // the reading stays held, and the panel now says why (not the hand any more).
    expect(after.pending).not.toBeNull();
    const [reply] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/actions') && r.request().method() === 'POST'),
      page.locator('[data-action=confirm]').click(),
    ]);
    expect(JSON.parse(reply.request().postData() ?? '{}').type).toBe('confirm');
    expect(await reply.json()).toMatchObject({ status: 'needs-confirmation' });
    expect((await snap()).pending?.reasons).toEqual(['the tiles placed are not in one row or column']);
    await page.locator('.pending [role=alert]', { hasText: 'not in one row or column' }).waitFor();
    expect(await page.title()).toMatch(/^● /);
    await page.close();
    expect(problems).toEqual([]);
  }, 90_000);
});
