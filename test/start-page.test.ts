/**
 * The start page's games list in headless Chromium (Debian's, driven by playwright-core) on a laptop: each game's
 * players with their scores ("Ann 32 – Ben 0"), whether it is being played or finished, its date, and for an
 * event's game the link to its hall; the form's Event goes with the new game (and is offered for the next). A
 * finished game whose scorekeeper link this browser keeps has Archive: pressed, the game leaves the list (what went
 * wrong is said in its line, never in an alert); "Show archived" lists it with Restore, which brings it back. A game
 * being played, or one this computer does not keep, has no button. The tile sets are named as on the Check page
 * (English, German). No serious or critical axe violation. Saves
 * web/screenshots/start-games.png.
 */
import { mkdirSync } from 'node:fs';
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

describe.skipIf(!chromiumPresent)('the games list on the start page', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('start'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  const act = async (g: { id: string; token: string }, action: object) => {
    const res = await fetch(`${base}/api/games/${g.id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(action),
    });
    expect(res.status).toBe(200);
  };
  const listed = async (query = '') =>
    ((await (await fetch(`${base}/api/games${query}`)).json()) as { games: { id: string }[] }).games.map(
      (g) => g.id,
    );
  /** Starts a game with the page's form; its id and token, from the link this computer keeps. */
  const start = async (page: Page, players: string) => {
    const before = await page.locator('#my-games-list .kept').count();
    await page.fill('textarea[name=players]', players);
    await page.click('button[type=submit]');
    await page.locator('#links .share-panel[data-ready="true"]').waitFor();
    await page.waitForFunction(
      (n) => document.querySelectorAll('#my-games-list .kept').length === n,
      before + 1,
    );
    const link = await page.locator('#my-games-list .kept .share-url').first().inputValue();
    const m = /\/board\.html\?game=([^&#]+)#token=(.+)$/.exec(link);
    expect(m, link).not.toBeNull();
    return { id: decodeURIComponent(m![1]!), token: decodeURIComponent(m![2]!) };
  };

  it('starts on the tile set of the browser’s language', async () => {
    for (const [locale, set] of [
      ['de-AT', 'de'],
      ['en-US', 'en'],
    ] as const) {
      const page = await browser.newPage({ locale, viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/`);
      expect(await page.locator('#new-game select[name=lang]').inputValue(), locale).toBe(set);
      await page.close();
    }
  });

  it('names the tile sets alike on the start page and the Check page', async () => {
    const names = async (path: string) => {
      const page = await watchedPage(browser, 1280, 800);
      await page.goto(`${base}${path}`);
      await page.waitForLoadState('networkidle');
      const texts = await page
        .locator('select[name=lang]')
        .first()
        .evaluate((s) => [...(s as HTMLSelectElement).options].map((o) => `${o.value}=${o.text}`));
      await closeWatched(page);
      return texts;
    };
    const start = await names('/');
    const check = await names('/check');
    expect(start).toEqual(['en=English', 'de=German']);
    expect(check).toEqual(start);
  }, 60_000);

  it('offers the camera at each player’s place, named as typed, and starts the game with it', async () => {
    const page = await watchedPage(browser, 1280, 800);
    await page.goto(`${base}/`);
    await page.fill('textarea[name=players]', 'Cleo\nDan\n');
    const places = () =>
      page
        .locator('select[name=rackCamera]')
        .evaluate((s) => [...(s as HTMLSelectElement).options].map((o) => `${o.value}=${o.text}`));
    expect(await places()).toEqual(["=no player's place", "0=Cleo's place", "1=Dan's place"]);
    await page.selectOption('select[name=rackCamera]', '1');
    const game = await start(page, 'Cleo\nDan');
    const session = await server.service.session(game.id);
    expect(
      (session as unknown as { stored: { config: { rackCamera?: number } } }).stored.config.rackCamera,
    ).toBe(1);
    // A player taken off the list takes their place with them.
    await page.fill('textarea[name=players]', 'Cleo');
    expect(await places()).toEqual(["=no player's place", "0=Cleo's place"]);
    expect(await page.locator('select[name=rackCamera]').inputValue()).toBe('');
    await closeWatched(page);
  }, 60_000);

  it('shows scores, status and date, archives a finished game and restores it', async () => {
    const page = await watchedPage(browser, 1280, 800);
    await page.goto(base);
    // Two games started here, of an event: one finished, one still being played.
    await page.fill('input[name=event]', EVENT);
    const done = await start(page, 'Ann\nBen');
    const live = await start(page, 'Cy\nDee');
    expect((await server.service.list({ event: EVENT })).games.map((g) => g.id).sort()).toEqual(
      [done.id, live.id].sort(),
    );
    await act(done, { type: 'confirm', board: demoBoard(1) });
    await act(done, { type: 'end', racks: ['', ''] });
    await act(live, { type: 'confirm', board: demoBoard(1) });
    // A finished game started elsewhere: its scorekeeper link is not on this computer.
    const elsewhere = await server.service.create(parseGameConfig({ players: ['Eve', 'Fay'] }));
    await act(elsewhere, { type: 'end', racks: ['', ''] });
    // And one with nothing recorded yet: its players without scores.
    const fresh = await server.service.create(parseGameConfig({ players: ['Gil', 'Hana'] }));

    await page.reload();
    // The form offers the event of the last game started here.
    expect(await page.inputValue('input[name=event]')).toBe(EVENT);
    const item = (id: string) => page.locator(`#games li.listed[data-game="${id}"]`);
    await item(done.id).waitFor();
    const s = (await (await fetch(`${base}/api/games/${done.id}`)).json()) as GameSnapshot;
    expect(s.players.map((p) => p.score)).toEqual([32, 0]);
    expect(await item(done.id).locator('.listed-scores').textContent()).toBe('Ann 32 – Ben 0');
    expect(await item(live.id).locator('.listed-scores').textContent()).toBe('Cy 32 – Dee 0');
    expect(await item(elsewhere.id).locator('.listed-scores').textContent()).toBe('Eve 0 – Fay 0');
    expect(await item(fresh.id).locator('.listed-scores').textContent()).toBe('Gil – Hana');
    const meta = (id: string) => item(id).locator('.game-meta').textContent();
    const today = new Date().getFullYear().toString();
    expect(await meta(done.id)).toMatch(new RegExp(`^classic · finished · .*${today}`));
    expect(await meta(live.id)).toMatch(new RegExp(`^classic · being played · .*${today}`));
    // An event's games link to its hall.
    expect(await item(done.id).locator('a.hall-open').getAttribute('href')).toBe(
      `/hall?event=${encodeURIComponent(EVENT)}`,
    );
    expect(await item(done.id).locator('.listed-event').textContent()).toBe(`${EVENT}:`);
    expect(await item(elsewhere.id).locator('a.hall-open').count()).toBe(0);
    // Archive only on the finished game this computer keeps.
    expect(await item(done.id).locator('button.archive').count()).toBe(1);
    expect(await item(live.id).locator('button').count()).toBe(0);
    expect(await item(elsewhere.id).locator('button').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    mkdirSync(shots, { recursive: true });
    await page.locator('#games-section').screenshot({ path: join(shots, 'start-games.png') });

    // Refused by the server: said in the game's line, and the game stays.
    await page.route(`**/api/games/${done.id}/archive`, (route) =>
      route.fulfill({
        status: 409,
        json: { error: { code: 'not-allowed', message: 'the game is still being played' } },
      }),
    );
    await item(done.id).locator('button.archive').click();
    const error = item(done.id).locator('.listed-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Ann v Ben was not archived: the game is still being played.');
    expect(await item(done.id).locator('button.archive').isEnabled()).toBe(true);
    await page.unroute(`**/api/games/${done.id}/archive`);

    // Archived: it leaves the list (the server's too), and the page says where it went.
    await item(done.id).locator('button.archive').click();
    await item(done.id).waitFor({ state: 'detached' });
    expect(await page.locator('#games-said').textContent()).toBe(
      'Ann v Ben archived: it is under "Show archived".',
    );
    expect(await listed()).not.toContain(done.id);
    expect(await listed('?status=archived')).toEqual([done.id]);
    expect(await item(live.id).count()).toBe(1);

    // "Show archived": the archived game, with Restore; restored, it leaves this view and is back in the list.
    await page.click('#show-archived');
    await item(done.id).waitFor();
    expect(await page.locator('#show-archived').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#games-title').textContent()).toBe('Archived games');
    expect(await page.locator('#games li.listed').count()).toBe(1);
    expect(await meta(done.id)).toMatch(/^classic · archived, finished · /);
    expect(await axeViolations(page)).toEqual([]);
    await item(done.id).locator('button.restore').click();
    await item(done.id).waitFor({ state: 'detached' });
    expect(await page.locator('#games-said').textContent()).toBe('Ann v Ben restored to the games.');
    expect(await page.locator('#games .listed-none').textContent()).toBe('No archived games.');
    expect(await listed('?status=archived')).toEqual([]);
    await page.click('#show-archived');
    await item(done.id).locator('button.archive').waitFor();
    expect(await page.locator('#games-title').textContent()).toBe('Games');
    expect(await listed()).toContain(done.id);
    await closeWatched(page);
  }, 60_000);
});
