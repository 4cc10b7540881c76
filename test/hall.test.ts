/**
 * The hall (`/hall?event=NAME`) in headless Chromium (Debian's, driven by playwright-core) at a projector's
 * 1920×1080: an event of five live games (moves entered with `confirm`, one with a reading held — a second Z — and
 * one with a 40-character name), beside a game of another event and an ended game of the same event, neither of
 * which shows. A card per live game, all in view; the held game outlined and saying it waits for the scorekeeper;
 * each card's scores, whose turn and last move as the game's snapshot has them; a move made while the page is open
 * shows within seconds; the 30-second listing picks up a new game and drops one that ended; nothing overflows; no
 * serious or critical axe violation; each card opens its scoreboard. Without an event, a form (and the events with
 * games being played). Saves web/screenshots/hall-1920x1080.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import {
  axeViolations,
  chromiumPresent,
  closeWatched,
  demoBoard,
  startWithBrowser,
  stopWithBrowser,
  watchedPage,
} from './browser.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const shots = join(root, 'web/screenshots');
const EVENT = 'Club night';
const LONG = 'Bartholomew Fitzgerald-Montgomery Junior';

/** What a card shows, read from the page. */
interface CardSeen {
  id: string;
  held: string | undefined;
  heldNote: string | null;
  outline: string;
  names: string[];
  scores: string[];
  toMove: (string | null)[];
  word: string | null;
  points: string | null;
  href: string | null;
  box: { left: number; right: number; top: number; bottom: number };
  /** Elements of the card that stick out of it sideways. */
  outside: string[];
}

function cardsSeen(page: Page): Promise<CardSeen[]> {
  return page.$$eval('.hall-card', (cards) =>
    cards.map((c) => {
      const card = c as HTMLElement;
      const r = card.getBoundingClientRect();
      const text = (s: string) => card.querySelector(s)?.textContent ?? null;
      return {
        id: card.dataset.game ?? '',
        held: card.dataset.held,
        heldNote: text('.hall-held'),
        outline: getComputedStyle(card).outlineStyle,
        names: [...card.querySelectorAll('.scores .name')].map((e) => e.textContent ?? ''),
        scores: [...card.querySelectorAll('.scores .score')].map((e) => e.textContent ?? ''),
        toMove: [...card.querySelectorAll('.scores .player.to-move')].map((e) =>
          e.getAttribute('data-player'),
        ),
        word: text('.headline .head-word'),
        points: text('.headline .head-points'),
        href: card.querySelector('a.hall-link')?.getAttribute('href') ?? null,
        box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
        outside: [...card.querySelectorAll('*')]
          .filter((e) => {
            const b = e.getBoundingClientRect();
            return b.width > 0 && (b.left < r.left - 0.5 || b.right > r.right + 0.5);
          })
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
          .slice(0, 5),
      };
    }),
  );
}

describe.skipIf(!chromiumPresent)('the hall of an event in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  /** The event's live games, in the order they were started. */
  const games: { id: string; token: string }[] = [];
  let held: { id: string; token: string };
  let ended: { id: string; token: string };
  let other: { id: string; token: string };
  const act = async (g: { id: string; token: string }, action: object) => {
    const res = await fetch(`${base}/api/games/${g.id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(action),
    });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  };
  const snapshot = async (id: string) =>
    (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;
  const create = (players: string[], event: string) =>
    server.service.create(parseGameConfig({ players, event }));

  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('hall'));
    // Five live games of the event: three, one, two and no moves, and one whose reading is held.
    const players = [
      ['Ann', LONG],
      ['Cy', 'Dee', 'Eve'],
      ['Fay', 'Gus'],
      ['Hal', 'Ivy'],
      ['Jo', 'Kit', 'Lou', 'Max'],
    ];
    for (const p of players) {
      games.push(await create(p, EVENT));
      // Started a few milliseconds apart, as tables are: the hall shows them in that order.
      await new Promise((done) => setTimeout(done, 5));
    }
    for (const n of [1, 2, 3]) await act(games[0]!, { type: 'confirm', board: demoBoard(n) });
    await act(games[1]!, { type: 'confirm', board: demoBoard(1) });
    for (const n of [1, 2]) await act(games[3]!, { type: 'confirm', board: demoBoard(n) });
    // ZA on row 8; the camera then sees ADZ down through the A: a second Z in an English set, held for a click.
    held = games[2]!;
    const za = Array.from({ length: 15 }, (_, r) => (r === 7 ? '......ZA.......' : '.'.repeat(15)));
    await act(held, { type: 'confirm', board: za });
    const res = await fetch(`${base}/api/games/${held.id}/frames?endTurn=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${held.token}`, 'content-type': 'image/jpeg' },
      body: readFileSync(join(root, 'fixtures/photos/a_second_z_tile.jpg')),
    });
    expect(((await res.json()) as { status: string }).status).toBe('needs-confirmation');
    // Not on the wall: a game of another event, and one of this event that has ended.
    other = await create(['Ned', 'Olga'], 'Tuesday league');
    await act(other, { type: 'confirm', board: demoBoard(1) });
    ended = await create(['Pat', 'Quin'], EVENT);
    await act(ended, { type: 'confirm', board: demoBoard(1) });
    await act(ended, { type: 'end', racks: ['', ''] });
  }, 90_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('shows every live game of the event on a 1080p projector, the held one standing out, live', async () => {
    const page = await watchedPage(browser, 1920, 1080);
    // The page's timers under the test's hand: the 30-second listing is run on at will.
    await page.clock.install();
    await page.goto(`${base}/hall?event=${encodeURIComponent(EVENT)}`);
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('.hall-card').length === n &&
        document.querySelectorAll('.hall-card .hall-body').length === n,
      games.length,
    );
    expect(await page.title()).toBe(`${EVENT} · the hall · tilecam`);
    expect(await page.locator('#hall-title').textContent()).toBe(EVENT);
    expect(await page.locator('#hall-count').textContent()).toBe('5 live games');
    expect(await page.locator('#hall-waiting').textContent()).toBe('1 waiting for the scorekeeper');

    const seen = await cardsSeen(page);
    // The event's live games, in the order they were started: not the other event's, not the ended one.
    expect(seen.map((c) => c.id)).toEqual(games.map((g) => g.id));
    expect(seen.map((c) => c.id)).not.toContain(ended.id);
    for (const [i, card] of seen.entries()) {
      const s = await snapshot(games[i]!.id);
      const where = `card ${i + 1}`;
      expect(card.href, where).toBe(`/board.html?game=${s.id}`);
      expect(card.names, where).toEqual(s.players.map((p) => p.name));
      expect(card.scores, where).toEqual(s.players.map((p) => String(p.score)));
      expect(card.toMove, where).toEqual([String(s.toMove)]);
      const last = s.turns.findLast((t) => t.kind === 'play');
      expect(card.word, where).toBe(last?.words?.[0]?.word ?? null);
      expect(card.points, where).toBe(last ? `${last.points} pts` : null);
      // The held game stands out: outlined, and saying why; the others do not.
      const isHeld = games[i]!.id === held.id;
      expect(s.pending !== null, where).toBe(isHeld);
      expect(card.held, where).toBe(String(isHeld));
      expect(card.heldNote, where).toBe(isHeld ? 'waiting for the scorekeeper' : null);
      expect(card.outline, where).toBe(isHeld ? 'solid' : 'none');
      // Inside the card and inside the screen: every game in view at once, on a projector.
      expect(card.outside, where).toEqual([]);
      expect(card.box.left, where).toBeGreaterThanOrEqual(0);
      expect(card.box.right, where).toBeLessThanOrEqual(1920);
      expect(card.box.bottom, where).toBeLessThanOrEqual(1080);
    }
    // The last moves as the scores say: Ann's JOEY, Cy's WINDY, ZA (the held reading is not counted), AN.
    expect(seen.map((c) => c.word)).toEqual(['JOEY', 'WINDY', 'ZA', 'AN', null]);
    // The long name is cut with an ellipsis in its box, not spilled.
    expect(
      await page
        .locator(`.hall-card[data-game="${games[0]!.id}"] .scores .name`)
        .nth(1)
        .evaluate((e) => getComputedStyle(e).textOverflow),
    ).toBe('ellipsis');
    // Readable from the back of the room: names, scores and the last move large on a 1080-pixel screen.
    const fonts = await page.evaluate(() => {
      const size = (s: string) =>
        Math.min(
          ...[...document.querySelectorAll(s)].map((e) => Number.parseFloat(getComputedStyle(e).fontSize)),
        );
      return {
        name: size('.hall-card .scores .name'),
        score: size('.hall-card .scores .score'),
        word: size('.hall-card .head-word'),
      };
    });
    expect(fonts.name).toBeGreaterThanOrEqual(20);
    expect(fonts.score).toBeGreaterThanOrEqual(32);
    expect(fonts.word).toBeGreaterThanOrEqual(20);
    const doc = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(doc.scrollWidth).toBeLessThanOrEqual(doc.clientWidth);
    expect(await axeViolations(page)).toEqual([]);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'hall-1920x1080.png') });

    // A move made while the page is open: Dee plays AN in the second game, seen within seconds.
    const second = page.locator(`.hall-card[data-game="${games[1]!.id}"]`);
    const before = Date.now();
    await act(games[1]!, { type: 'confirm', board: demoBoard(2) });
    await second.locator('.head-word', { hasText: /^AN$/ }).waitFor({ timeout: 5000 });
    expect(Date.now() - before).toBeLessThan(5000);
    const s2 = await snapshot(games[1]!.id);
    expect(await second.locator('.scores .score').allTextContents()).toEqual(
      s2.players.map((p) => String(p.score)),
    );
    expect(await second.locator('.scores .player.to-move').getAttribute('data-player')).toBe(
      String(s2.toMove),
    );
    // The scorekeeper settles the held reading (the board as it is, TA down through the A): it no longer stands out.
    const ta = Array.from({ length: 15 }, (_, r) =>
      r === 7 ? '......ZA.......' : r === 6 ? '.......T.......' : '.'.repeat(15),
    );
    await act(held, { type: 'confirm', board: ta });
    const heldCard = page.locator(`.hall-card[data-game="${held.id}"]`);
    await page.waitForFunction(
      (id) => document.querySelector(`.hall-card[data-game="${id}"]`)?.getAttribute('data-held') === 'false',
      held.id,
      { timeout: 5000 },
    );
    expect(await heldCard.locator('.hall-held').count()).toBe(0);
    await expect(page.locator('#hall-waiting').isHidden()).resolves.toBe(true);

    // Thirty seconds on, the event is listed again: a new game joins, one that ended leaves.
    const late = await create(['Rex', 'Sue'], EVENT);
    await act(games[4]!, { type: 'end', racks: ['', '', '', ''] });
    // Its card says the game is over until then.
    await page.locator(`.hall-card[data-game="${games[4]!.id}"].ended .ended`).waitFor({ timeout: 5000 });
    await page.clock.runFor(30_000);
    const expected = [...games.slice(0, 4), late].map((g) => g.id);
    await page.waitForFunction(
      (ids) =>
        [...document.querySelectorAll<HTMLElement>('.hall-card')].map((c) => c.dataset.game).join() ===
        ids.join(),
      expected,
      { timeout: 10_000 },
    );
    await page.locator(`.hall-card[data-game="${late.id}"] .hall-body`).waitFor({ timeout: 5000 });
    expect(await page.locator('#hall-count').textContent()).toBe('5 live games');

    // A card opens its game's scoreboard (a click anywhere on it).
    const board = await page.locator(`.hall-card[data-game="${games[0]!.id}"] .board`).boundingBox();
    await page.mouse.click(board!.x + board!.width / 2, board!.y + board!.height / 2);
    await page.waitForURL(`${base}/board.html?game=${games[0]!.id}`);
    await closeWatched(page);
  }, 90_000);

  it('keeps to a phone’s width', async () => {
    const page = await watchedPage(browser, 390, 844);
    await page.goto(`${base}/hall?event=${encodeURIComponent(EVENT)}`);
    await page.waitForFunction(() => document.querySelectorAll('.hall-card .hall-body').length >= 5);
    const doc = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(doc.scrollWidth).toBeLessThanOrEqual(doc.clientWidth);
    expect((await cardsSeen(page)).flatMap((c) => c.outside)).toEqual([]);
    await closeWatched(page);
  }, 30_000);

  it('asks for the event without one, offering those with games being played', async () => {
    const page = await watchedPage(browser, 1280, 800);
    await page.goto(`${base}/hall`);
    await page.waitForSelector('.hall-events a');
    expect(await page.locator('.hall-events a').allTextContents()).toEqual([EVENT, 'Tuesday league']);
    expect(await page.locator('.hall-events a').first().getAttribute('href')).toBe(
      `/hall?event=${encodeURIComponent(EVENT)}`,
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.fill('input[name=event]', 'Tuesday league');
    await page.press('input[name=event]', 'Enter');
    await page.waitForURL(/\/hall\?event=Tuesday\+league$/);
    await page.waitForFunction(() => document.querySelectorAll('.hall-card .hall-body').length === 1);
    expect(await page.locator('.hall-card').getAttribute('data-game')).toBe(other.id);
    await closeWatched(page);
  }, 30_000);
});
