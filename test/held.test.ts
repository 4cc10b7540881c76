/**
 * The reading held for the scorekeeper, in headless Chromium (Debian's, driven by playwright-core), on a phone: a
 * panel at the top of the page with an alert and the reasons, the page's title marked, each square in doubt zoomed
 * from the held photo, and its likeliest readings as buttons; pressing one fixes the square (the squares in doubt
 * shrink in the next snapshot). No native dialog. What a held play would score if confirmed, word by word; the alert
 * when a new reading is held (the panel pulses once, not with reduced motion; a chime, only once the page has been
 * used, and not when muted, which the page remembers). Scrabble Me's held boards in the same panel, one per board,
 * their buttons acting on their board. Saves web/screenshots/held-phone.png and held-me-phone.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import type { GameSnapshot, MeSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, closeWatched, startWithBrowser, stopWithBrowser, watchedPage } from './browser.ts';
import { meClient, mePhoto, mePhotoNamed } from './me-game.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser test is skipped (.ci/run installs it).\n`);
const root = fileURLToPath(new URL('..', import.meta.url));
const shots = join(root, 'web/screenshots');

const name = (q: { row: number; col: number }) => `${q.row + 1}${'ABCDEFGHIJKLMNO'[q.col]}`;

/** Counts the chimes the page plays (each is a WebAudio oscillator started), in `window.chimes`. */
async function countChimes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { chimes: number };
    w.chimes = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: [number?]) {
      w.chimes++;
      return start.apply(this, args);
    };
  });
}
const chimes = (page: Page) => page.evaluate(() => (window as unknown as { chimes: number }).chimes);

/** Whether every zoomed crop under `scope` has been drawn from the photo (not one flat colour). */
const cropsDrawn = (scope: string) =>
  [...document.querySelectorAll<HTMLCanvasElement>(`${scope} .held-crop`)].every((c) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4 * 97)
      if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return true;
    return false;
  });

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
  it('shows what a held play would score, and alerts when a new reading is held: a pulse, a chime, a mute', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const snap = async () => (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;
    const act = (action: object) =>
      fetch(`${base}/api/games/${id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(action),
      });
    const frame = async (photo: string) => {
      const res = await fetch(`${base}/api/games/${id}/frames?endTurn=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: readFileSync(join(root, 'fixtures/photos', photo)),
      });
      expect(((await res.json()) as { status: string }).status).toBe('needs-confirmation');
    };
    // ZA on row 8; the camera then sees ADZ down through the A: a second Z, held, one legal play all the same.
    const za = Array.from({ length: 15 }, (_, r) => (r === 7 ? '......ZA.......' : '.'.repeat(15)));
    expect((await act({ type: 'confirm', board: za })).status).toBe(200);

    // The scorekeeper's page, used (a click: browsers allow a page's sound only after that).
    const page = await watchedPage(browser, 1280, 800);
    await countChimes(page);
    await page.goto(`${base}/board.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    expect(await page.locator('#sound-toggle').getAttribute('aria-pressed')).toBe('true');
    await page.click('#status');
    // A second page, never used, that asks for reduced motion.
    const quiet = await watchedPage(browser, 1280, 800);
    await countChimes(quiet);
    await quiet.emulateMedia({ reducedMotion: 'reduce' });
    await quiet.goto(`${base}/board.html?game=${id}#token=${token}`);
    await quiet.waitForSelector('#status.live');

    await frame('a_second_z_tile.jpg');
    const held = (await snap()).pending!;
    const preview = held.preview!;
    expect(preview).toBeDefined();
    const panel = page.locator('main > .pending.held');
    await panel.waitFor();
    // The preview: the main word, where, and the points; then each word's sentence.
    expect(await panel.locator('.preview-line').textContent()).toBe(
      `If confirmed: ADZ ${preview.position} — ${preview.points} points`,
    );
    expect(await panel.locator('.preview-words li').allTextContents()).toEqual(preview.words);
    expect(preview.words[0]).toMatch(/^ADZ: /);
    // The alert: the panel pulses once, the title is marked, one chime.
    expect(await panel.getAttribute('class')).toContain('pulse');
    expect(await panel.evaluate((e) => getComputedStyle(e).animationName)).toBe('held-pulse');
    expect(await page.title()).toMatch(/^● /);
    await page.waitForFunction(() => (window as unknown as { chimes: number }).chimes > 0);
    expect(await chimes(page)).toBe(1);
    // The page that was never used stays silent; with reduced motion its panel does not move.
    const quietPanel = quiet.locator('main > .pending.held');
    await quietPanel.waitFor();
    expect(await quietPanel.getAttribute('class')).toContain('pulse');
    expect(await quietPanel.evaluate((e) => getComputedStyle(e).animationName)).toBe('none');
    expect(await quiet.title()).toMatch(/^● /);
    expect(await chimes(quiet)).toBe(0);
    // A fix of a square is no new reading: no second alert.
    await panel.locator('.held-other').click();
    await page.fill('dialog.ask[open] input[name=tile]', 'Z');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.held-square').length === 0);
    expect(await page.locator('main > .pending.held').getAttribute('class')).not.toContain('pulse');
    expect(await chimes(page)).toBe(1);

    // Muted by the header's toggle, remembered by this browser: the next reading pulses without a sound.
    await page.click('#sound-toggle');
    expect(await page.locator('#sound-toggle').getAttribute('aria-pressed')).toBe('false');
    expect((await act({ type: 'confirm' })).status).toBe(200);
    await page.waitForSelector('main > .pending.held', { state: 'detached' });
    expect(await page.title()).not.toMatch(/●/);
    await frame('hand_over_row_8.jpg');
    await page.locator('main > .pending.held.pulse').waitFor();
    await page.waitForTimeout(300);
    expect(await chimes(page)).toBe(0 + 1);
    await page.reload();
    await page.waitForSelector('#status.live');
    expect(await page.locator('#sound-toggle').getAttribute('aria-pressed')).toBe('false');
    // On load, a reading already held is no news: no pulse.
    expect(await page.locator('main > .pending.held').getAttribute('class')).not.toContain('pulse');
    await closeWatched(page);
    await closeWatched(quiet);
  }, 90_000);

  it('shows each held board of a Scrabble Me game in the same panel, whose buttons act on that board', async () => {
    const g = meClient(base);
    await g.create();
    const page = await watchedPage(browser, 390, 844);
    await page.goto(`${base}/board.html?game=${g.id}#token=${g.token}`);
    await page.waitForSelector('#status.live');
    const viewer = await watchedPage(browser, 1280, 800);
    await viewer.goto(`${base}/board.html?game=${g.id}`);
    await viewer.waitForSelector('#status.live');
    // Round 1: a hand over board 1, board 2 read, board 3 with stray tiles: boards 1 and 3 held.
    expect(
      (await g.frame(0, readFileSync(join(root, 'fixtures/photos/hand_over_row_8.jpg')))).body.status,
    ).toBe('needs-confirmation');
    expect((await g.frame(1, mePhoto(1, 1))).body.status).toBe('ended-turn');
    await page.waitForSelector('main > .pending.held[data-board="0"]');
    expect((await g.frame(2, mePhotoNamed('2-2-stray'))).body.status).toBe('needs-confirmation');
    const s = await g.snapshot();
    const held = [0, 2].map((b) => s.boards[b]!.pending!);
    await page.waitForFunction(() => document.querySelectorAll('main > .pending.held').length === 2);

    // At the top of the page, one panel per held board, in order, titled with the board and its holder.
    expect(
      await page.evaluate(() =>
        [...document.querySelector('main')!.children]
          .slice(0, 2)
          .map((e) => (e as HTMLElement).dataset.board),
      ),
    ).toEqual(['0', '2']);
    const panels = page.locator('main > .pending.held');
    expect(await panels.locator('h2').allTextContents()).toEqual([
      'Board 1 (Ann): a reading waits for you',
      'Board 3 (Cy): a reading waits for you',
    ]);
    expect(await page.title()).toMatch(/^● /);
    // The second arrived while the page was open: it pulses.
    expect(await panels.nth(1).getAttribute('class')).toContain('pulse');
    for (const [i, p] of held.entries()) {
      const panel = panels.nth(i);
      expect(await panel.locator('[role=alert]').textContent()).toBe(`Held: ${p.reasons.join('; ')}.`);
      expect(
        await panel
          .locator('.held-square')
          .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.held)),
      ).toEqual(p.squares.map(name));
      expect(await panel.locator('canvas.held-crop').count()).toBe(p.squares.length);
    }
    await page.waitForFunction(cropsDrawn, 'main > .pending.held');
    // On the phone: the first crop in view without scrolling, nothing wider than the screen.
    const crop = (await panels.first().locator('canvas.held-crop').first().boundingBox())!;
    expect(crop.y + crop.height).toBeLessThanOrEqual(844);
    expect(
      await page.evaluate(
        () => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth,
      ),
    ).toBe(true);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'held-me-phone.png') });

    // A reading picked on board 3's panel fixes board 3's square.
    // A reading picked on board 1's panel (the hand's: the camera has readings there) fixes board 1's square.
    const first = held[0]!;
    const square = first.squares.find((q) =>
      first.look!.squares.some(
        (l) => l.row === q.row && l.col === q.col && l.options.some((o) => o.tile !== '#'),
      ),
    )!;
    const option = panels
      .first()
      .locator(`.held-square[data-held="${name(square)}"] button.held-option`)
      .first();
    const tile = (await option.getAttribute('data-tile'))!;
    const [fixed] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/actions') && r.method() === 'POST'),
      option.click(),
    ]);
    expect(JSON.parse(fixed.postData() ?? '{}')).toMatchObject({
      type: 'correct',
      board: 0,
      row: square.row,
      col: square.col,
      tile,
    });
    await page.waitForFunction(
      (n) => document.querySelectorAll('main > .pending.held[data-board="0"] .held-square').length === n,
      first.squares.length - 1,
    );
    const after = await g.snapshot();
    expect(after.boards[0]!.pending!.board[square.row]![square.col]).toBe(tile);
    expect(after.boards[2]!.pending!.squares).toEqual(held[1]!.squares);
    // "Confirm this board" on board 3's panel confirms board 3's reading, as it stands (here refused, and said so).
    const [confirmed] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/actions') && r.method() === 'POST'),
      panels.nth(1).locator('[data-action=confirm-2]').click(),
    ]);
    const body = JSON.parse(confirmed.postData() ?? '{}');
    expect(body).toMatchObject({ type: 'confirm', board: 2 });
    expect(body.reading).toBeUndefined();
    await page.waitForSelector('#action-message:not([hidden])');
    expect(await page.locator('#action-message').textContent()).toContain('not in one row or column');

    // The room's screen shows the held boards below, without buttons.
    await viewer.waitForFunction(() => document.querySelectorAll('main > .pending.held').length >= 1);
    expect(await viewer.locator('main > .pending.held button').count()).toBe(0);
    expect(await viewer.evaluate(() => document.querySelector('main')!.firstElementChild!.className)).toBe(
      'me-boards',
    );
    expect(((await (await fetch(`${base}/api/games/${g.id}`)).json()) as MeSnapshot).variant).toBe(
      'scrabble-me',
    );
    await closeWatched(page);
    await closeWatched(viewer);
  }, 90_000);
});
