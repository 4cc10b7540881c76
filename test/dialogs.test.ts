/**
 * The scorekeeper's decisions in headless Chromium (Debian's, driven by playwright-core) go through the pages' own
 * dialogs, never the browser's prompt/confirm/alert: Escape records nothing (a cancelled challenge used to record a
 * phony), answers are checked inline, the buttons are reached with the keyboard, the end of the game asks every
 * rack at once, and the action buttons go once the game has ended. On a phone-sized page.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, closeWatched, startWithBrowser, stopWithBrowser, watchedPage } from './browser.ts';
import { playMeGame } from './me-game.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser test is skipped (.ci/run installs it).\n`);
const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'fixtures/demo_game');

interface Snap {
  version: number;
  board: string[];
  turns: { kind: string; player: number; points: number }[];
  players: { name: string; score: number }[];
  ended: { reason: string } | null;
}

/** A phone-sized page at `url` (the dialogs must fit 390 px) that fails the test on a native dialog or script error. */
async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await watchedPage(browser, 390, 844);
  await page.goto(url);
  return page;
}

const closePage = closeWatched;

const open = 'dialog.ask[open]';
const output = join(root, 'test/output');
/** Waits for the open dialog titled `title` (the next step of a question opens a moment after the last closes). */
const titled = (page: Page, title: string) => page.locator(`${open} h2`, { hasText: title }).waitFor();

describe.skipIf(!chromiumPresent)("the scorekeeper's dialogs in a browser", () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('dialogs'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('records nothing on Escape, checks answers inline, and ends the game through the racks dialog', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const snap = async () => (await (await fetch(`${base}/api/games/${id}`)).json()) as Snap;
    const page = await openPage(browser, `${base}/board.html?game=${id}#token=${token}`);
    await page.waitForSelector('#status.live');
    const message = page.locator('#action-message');

    // An action the server refuses (no play to challenge yet): said inline, by the controls, not in an alert.
    await page.click('[data-action=challenge]');
    await page.click(`${open} [data-choice=player-1]`);
    await titled(page, 'Is the play acceptable?');
    await page.click(`${open} [data-choice=acceptable]`);
    await page.waitForSelector('#action-message:not([hidden])');
    expect(await message.getAttribute('role')).toBe('alert');
    expect(await message.textContent()).toContain('no play');
    expect((await snap()).turns).toEqual([]);

    // Ann plays WINDY on 8D (the scorekeeper confirms the board through the API).
    const res = await fetch(`${base}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'confirm',
        board: readFileSync(join(demo, '1.txt'), 'utf8').trimEnd().split('\n'),
      }),
    });
    expect(res.status).toBe(200);
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 1);
    const played = await snap();
    expect(played.players[0]!.score).toBeGreaterThan(0);

    // Exchange: a count the rack cannot hold is refused inline and the dialog stays; Escape records nothing.
    await page.click('[data-action=exchange]');
    await page.fill(`${open} input[name=count]`, '8');
    await page.click(`${open} [data-choice=submit]`);
    expect(await page.locator(`${open} .dialog-error:not([hidden])`).textContent()).toContain('1 to 7');
    expect(await page.locator(`${open} input[name=count]`).getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Escape');
    await page.waitForSelector(open, { state: 'detached' });

    // The W on 8D was a blank: fixed through the square's dialog, then named through the blank's own.
    await page.click('.board [data-square="8D"]');
    await page.fill(`${open} input[name=tile]`, '?');
    await page.click(`${open} [data-choice=submit]`);
    await page.waitForSelector('.board [data-square="8D"].blank');
    // The next action that succeeds clears the error.
    expect(await message.isHidden()).toBe(true);
    await page.click('.board [data-square="8D"]');
    expect(await page.locator(open).getAttribute('aria-labelledby')).toBeTruthy();
    expect(await page.locator(`${open} h2`).textContent()).toBe('Name the blank on 8D');
    await page.fill(`${open} input[name=letter]`, '3');
    await page.click(`${open} [data-choice=submit]`);
    expect(await page.locator(`${open} .dialog-error`).textContent()).toContain('one letter');
    await page.fill(`${open} input[name=letter]`, 'w');
    await page.click(`${open} [data-choice=submit]`);
    await page.waitForFunction(
      () => document.querySelector('.board [data-square="8D"]')?.textContent === 'W',
    );
    expect((await snap()).board[7]).toContain('wINDY');
    const before = await snap();

    // Challenge, then Escape at the first question: nothing recorded.
    await page.click('[data-action=challenge]');
    expect(await page.locator(`${open} h2`).textContent()).toBe('Who challenged?');
    // Focus starts on the first choice (Ben: Ann made the play); Tab reaches the dialog's other buttons.
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.choice)).toBe(
      'player-1',
    );
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        return a.tagName === 'BUTTON' && a.closest('dialog[open]') !== null ? a.dataset.choice : null;
      }),
    ).toBe('cancel');
    await page.keyboard.press('Escape');
    await page.waitForSelector(open, { state: 'detached' });
    // Escape at the verdict (where Cancel used to record a phony): nothing recorded either.
    await page.click('[data-action=challenge]');
    await page.keyboard.press('Enter'); // Ben, focused
    await titled(page, 'Is the play acceptable?');
    expect(await page.locator(`${open} h2`).textContent()).toBe('Is the play acceptable?');
    expect(await page.locator(`${open} button`).allTextContents()).toEqual([
      'The play is acceptable',
      'The play is a phony',
      'Cancel',
    ]);
    await page.keyboard.press('Escape');
    await page.waitForSelector(open, { state: 'detached' });
    await new Promise((r) => setTimeout(r, 300));
    const after = await snap();
    expect(after.version).toBe(before.version);
    expect(after.turns).toEqual(before.turns);

    // The challenge made properly, with the keyboard: Ben challenged, the play is acceptable: Ben loses his turn.
    await page.click('[data-action=challenge]');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${open} [data-choice=acceptable]:focus`);
    await page.keyboard.press('Enter'); // the play is acceptable, focused first
    await page.waitForSelector('.moves li.lost-turn');
    const challenged = await snap();
    expect(challenged.turns.map((t) => t.kind)).toEqual(['play', 'lost-turn']);
    expect(challenged.turns[1]!.player).toBe(1);
    expect(challenged.players[0]!.score).toBe(before.players[0]!.score);

    // End of game: every rack in one dialog, with what the rule does with them; a wrong tile is refused inline.
    await page.click('[data-action=end-game]');
    const box = await page.locator(open).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.locator(`${open} label`).allTextContents()).toEqual(["Ann's rack", "Ben's rack"]);
    expect(await page.locator(`${open} .dialog-note`).textContent()).toContain('rack');
    await page.fill(`${open} input[name=rack-1]`, 'Q1');
    await page.click(`${open} [data-choice=submit]`);
    expect(await page.locator(`${open} input[name=rack-1]`).getAttribute('aria-invalid')).toBe('true');
    mkdirSync(output, { recursive: true });
    await page.screenshot({ path: join(output, 'dialog-racks-phone.png') });
    expect((await snap()).ended).toBeNull();
    await page.fill(`${open} input[name=rack-1]`, 'qu');
    await page.click(`${open} [data-choice=submit]`);
    await page.waitForSelector('.scores .ended');
    expect((await snap()).ended).not.toBeNull();
    // Only what still makes sense after the end: Undo, and the GCG download.
    expect(
      await page
        .locator('.controls [data-action]')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action'))),
    ).toEqual(['undo']);
    expect(await page.locator('a.gcg').count()).toBe(1);

    // Undo asks first, with explicit verbs: "Keep it" keeps the end; "Undo the last move" takes it back.
    await page.click('[data-action=undo]');
    expect(await page.locator(`${open} button`).allTextContents()).toEqual(['Undo the last move', 'Keep it']);
    await page.click(`${open} [data-choice=cancel]`);
    await page.waitForSelector(open, { state: 'detached' });
    expect((await snap()).ended).not.toBeNull();
    await page.click('[data-action=undo]');
    await page.click(`${open} [data-choice=yes]`);
    await page.waitForSelector('[data-action=end-game]');
    expect((await snap()).ended).toBeNull();
    await closePage(page);
  }, 60_000);

  it('shows Scrabble Me the actions of its phase, and its refill and challenge dialogs record nothing on Escape', async () => {
    let page: Page | undefined;
    const client = await playMeGame(base, async (g) => {
      page = await openPage(browser, `${base}/board.html?game=${g.id}#token=${g.token}`);
      await page.waitForSelector('#status.live');
    });
    const p = page!;
    // The game stops at the refill after round 2: challenges, the refill and Undo; no End turn, swap or podium.
    await p.waitForFunction(() => document.querySelectorAll('.rounds .round').length === 2);
    expect(
      await p
        .locator('.controls [data-action]')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action'))),
    ).toEqual(['challenge', 'refill', 'undo']);
    const before = await client.snapshot();

    // Refill: a letter not on the podium is refused inline; Escape records nothing.
    await p.click('[data-action=refill]');
    await p.fill(`${open} input[name=picks]`, 'bag, Q');
    await p.click(`${open} [data-choice=submit]`);
    expect(await p.locator(`${open} .dialog-error`).textContent()).toContain('Q is not on the podium');
    await p.keyboard.press('Escape');
    await p.waitForSelector(open, { state: 'detached' });

    // Challenge: whose word (with the word), who challenged (not that player), the verdict; Escape at the verdict.
    await p.click('[data-action=challenge]');
    expect(await p.locator(`${open} .dialog-choices button`).allTextContents()).toEqual([
      'Ann: HUT',
      'Ben: DOT',
      'Cy: TAX',
    ]);
    await p.click(`${open} [data-choice=player-2]`);
    await titled(p, 'Who challenged?');
    expect(await p.locator(`${open} .dialog-choices button`).allTextContents()).toEqual(['Ann', 'Ben']);
    await p.click(`${open} [data-choice=player-0]`);
    await titled(p, 'Is the word acceptable?');
    expect(await p.locator(`${open} .dialog-choices button`).allTextContents()).toEqual([
      'The word is acceptable',
      'The word is not acceptable',
    ]);
    await p.screenshot({ path: join(output, 'dialog-challenge-phone.png') });
    await p.keyboard.press('Escape');
    await p.waitForSelector(open, { state: 'detached' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await client.snapshot()).version).toBe(before.version);

    // Undo: "Keep it" keeps everything.
    await p.click('[data-action=undo]');
    await p.click(`${open} [data-choice=cancel]`);
    await p.waitForSelector(open, { state: 'detached' });
    expect((await client.snapshot()).version).toBe(before.version);
    await closePage(p);
  }, 60_000);

  it('says under the form why a game was not created', async () => {
    const page = await openPage(browser, `${base}/`);
    await page.fill('textarea[name=players]', 'Solo');
    await page.click('#new-game button[type=submit]');
    await page.waitForSelector('#create-error:not([hidden])');
    expect(await page.locator('#create-error').textContent()).toContain('not created');
    expect(await page.locator('#create-error').getAttribute('role')).toBe('alert');
    await closePage(page);
  }, 30_000);
});
