/**
 * The "Check a score" page (/check) in headless Chromium (Debian's, driven by playwright-core), against the real
 * API: the demo game's photos before and after its second move, with a wrong claim and with the right one. The
 * expected move, sentences and slip are the engine's, from the labelled boards (fixtures/demo_game/N.txt), not
 * written here. Also: the permalink shows the same check again, the card is a PNG, the page fits a phone, a GCG
 * record is rescored to its first wrong score, and a play in the scoreboard's move list opens its explanation.
 * Saves web/screenshots/check-desktop.png and check-phone.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boardFromText,
  diagnose,
  explainMove,
  inferMove,
  makeRules,
  squareName,
} from '../server/engine/index.ts';
import type { RunningServer } from '../server/http/app.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { chromiumPresent, closeWatched, startWithBrowser, stopWithBrowser, watchedPage } from './browser.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(
    `\n  NOTICE: ${CHROMIUM} is absent; the check page's browser test is skipped (.ci/run installs it).\n`,
  );
const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'fixtures/demo_game');
const screenshots = join(root, 'web/screenshots');

/** What the engine makes of the labelled boards before and after the demo game's second move. */
const label = (n: number) => boardFromText(readFileSync(join(demo, `${n}.txt`), 'utf8'));
const truth = (() => {
  const inferred = inferMove(label(1), label(2));
  if (!inferred.ok || inferred.kind !== 'play') throw new Error('the demo game has no move 2');
  return explainMove(label(2), inferred.move, makeRules());
})();
/** A claim with a cross-word left out: wrong, by that word's score, and the slip is named. */
const cross = truth.words.find((w) => !w.main)!;
const wrongClaim = truth.points - cross.score;
const slip = diagnose(truth, wrongClaim, makeRules())[0]!;

/** A page that fails the test on a script error or a native dialog (alert, prompt, confirm: the page uses none). */
const openPage = watchedPage;

/**
 * The tiles (`.new`: the new ones only) of the boards that carry a premium's badge, and whether the badge is clear
 * of the letter's glyph (its own box, not its span's).
 */
function tileBadges(page: Page, which = '') {
  return page.evaluate(
    (w) =>
      [...document.querySelectorAll(`.sq.tile${w}`)].flatMap((sq) => {
        const badge = sq.querySelector('.badge')?.getBoundingClientRect();
        if (!badge) return [];
        const range = document.createRange();
        range.selectNodeContents(sq.querySelector('.letter')!);
        const g = range.getBoundingClientRect();
        // A tile's badge is a triangle in its corner (the box's top-left half): clear when the glyph's corner lies
        // beyond its long side; a badge of any other shape is clear only when the boxes do not meet.
        const dogEar = getComputedStyle(sq.querySelector('.badge')!).clipPath.startsWith('polygon');
        const clear = dogEar
          ? (g.left - badge.left) / badge.width + (g.top - badge.top) / badge.height >= 1
          : badge.right <= g.left || badge.bottom <= g.top || badge.left >= g.right || badge.top >= g.bottom;
        return [{ square: (sq as HTMLElement).dataset.square, clear }];
      }),
    which,
  );
}
const closePage = closeWatched;

/** Fills the form with the demo game's photos and `claimed`, checks, and waits for the verdict. */
async function check(page: Page, claimed: number): Promise<void> {
  await page.setInputFiles('input[name=before]', join(demo, '1.jpg'));
  await page.setInputFiles('input[name=after]', join(demo, '2.jpg'));
  expect(await page.locator('.drop .preview:not([hidden])').count()).toBe(2);
  await page.fill('input[name=claimed]', String(claimed));
  await page.click('#check-form button[type=submit]');
  await page.waitForSelector('#result .verdict', { timeout: 30_000 });
}

/** The explanation on the page: verdict, sentences, outlines (grid placement), new tiles, premiums used before. */
async function shown(page: Page) {
  return {
    verdict: await page.getAttribute('#result .verdict', 'data-verdict'),
    title: await page.locator('#result .verdict-title').textContent(),
    sentences: await page.locator('#result .sentences .sentence').allTextContents(),
    total: await page.locator('#result .total-sentence').textContent(),
    outlines: await page
      .locator('#result .after-board .word-outline')
      .evaluateAll((els) =>
        els.map((e) => `${(e as HTMLElement).style.gridRow}|${(e as HTMLElement).style.gridColumn}`),
      ),
    placed: await page
      .locator('#result .after-board .sq.new')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.square)),
    usedBefore: await page
      .locator('#result .after-board .sq.used-before')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.square)),
  };
}

/** What the page must show for the demo move: the engine's words, each outlined over its squares. */
const expected = {
  sentences: truth.words.map((w) => w.sentence),
  outlines: truth.words.map((w) => {
    const n = w.letters.length;
    const across = w.direction === 'across';
    return `${w.start.row + 1} / span ${across ? 1 : n}|${w.start.col + 1} / span ${across ? n : 1}`;
  }),
  placed: truth.move.tiles.map((t) => squareName(t)),
  usedBefore: [
    ...new Set(truth.words.flatMap((w) => w.letters.filter((l) => l.covered).map((l) => squareName(l)))),
  ],
};

describe.skipIf(!chromiumPresent)('the check page in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, base } = await startWithBrowser('check-page'));
  }, 60_000);
  afterAll(() => stopWithBrowser(browser, server));

  it('says a wrong claim is wrong, explains every point, and keeps it at its permalink', async () => {
    expect(expected.usedBefore.length).toBeGreaterThan(0); // the W's double letter, used by WINDY
    const page = await openPage(browser, 1280, 800);
    await page.goto(`${base}/check`);
    await check(page, wrongClaim);
    const first = await shown(page);
    expect(first).toEqual({
      verdict: 'wrong',
      title: `Wrong, by ${cross.score}`,
      ...expected,
      total: `Total: ${truth.sentence}`,
    });
    expect(await page.locator('#result .cause').textContent()).toBe(`Likeliest slip: ${slip.message}`);
    // Hovering a sentence lights its word's outline.
    await page.hover(`#result .sentences li[data-word="1"]`);
    expect(await page.getAttribute('#result .word-outline[data-word="1"]', 'class')).toContain('active');
    expect(await page.getAttribute('#result .word-outline[data-word="0"]', 'class')).not.toContain('active');
    // The address is the permalink now; the card is a PNG.
    expect(page.url()).toMatch(/\/check\?id=[\w-]+$/);
    const card = await page.getAttribute('#result a.card', 'href');
    const res = await fetch(`${base}${card}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await res.arrayBuffer()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(await page.locator('#result .photos img').count()).toBe(2);
    await page.mouse.move(0, 0);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, 'check-desktop.png'), fullPage: true });

    // The permalink shows the same check, photos and all.
    const permalink = page.url();
    await page.reload();
    await page.waitForSelector('#result .verdict');
    expect(await shown(page)).toEqual(first);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('#result .photos img')].every(
        (i) => i.naturalWidth > 0,
      ),
    );
    await closePage(page);

    // On a phone: the same check, nothing wider than the screen.
    const phone = await openPage(browser, 390, 844);
    await phone.goto(permalink);
    await phone.waitForSelector('#result .verdict');
    expect((await shown(phone)).sentences).toEqual(expected.sentences);
    await phone.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('#result .photos img')].every((i) => i.complete),
    );
    expect(await phone.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
    // A tile's letter readable: the badge of a premium under it (here DL, used before) clear of the letter.
    const badges = await tileBadges(phone);
    expect(badges.length, 'a premium under a tile').toBeGreaterThan(0);
    expect(badges).toEqual(badges.map((b) => ({ ...b, clear: true })));
    await phone.screenshot({ path: join(screenshots, 'check-phone.png'), fullPage: true });
    await closePage(phone);
  }, 90_000);

  it('starts on the tile set of the browser’s language until one is chosen', async () => {
    for (const [locale, set] of [
      ['de-DE', 'de'],
      ['en-GB', 'en'],
      ['fr-FR', 'en'],
    ] as const) {
      const page = await browser.newPage({ locale, viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/check`);
      expect(await page.locator('#check-form select[name=lang]').inputValue(), locale).toBe(set);
      await page.close();
    }
    // Once a set was chosen here, it stays whatever the browser's language.
    const page = await browser.newPage({ locale: 'de-DE', viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => localStorage.setItem('tilecam.check.lang', 'en'));
    await page.goto(`${base}/check`);
    expect(await page.locator('#check-form select[name=lang]').inputValue()).toBe('en');
    await page.close();
  });

  it('says a right claim is right', async () => {
    const page = await openPage(browser, 1280, 800);
    await page.goto(`${base}/check`);
    await check(page, truth.points);
    expect(await shown(page)).toMatchObject({
      verdict: 'right',
      title: 'Right ✓',
      sentences: expected.sentences,
      outlines: expected.outlines,
    });
    expect(await page.locator('#result .cause').count()).toBe(0);
    await closePage(page);
  }, 60_000);

  it('takes a photo dropped on its box and the move as announced, without the photo before', async () => {
    const page = await openPage(browser, 1280, 800);
    await page.goto(`${base}/check`);
    const photo = readFileSync(join(demo, '2.jpg')).toString('base64');
    const dropped = await page.evaluateHandle((b64) => {
      const data = new DataTransfer();
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], 'after.jpg', { type: 'image/jpeg' }));
      return data;
    }, photo);
    await page.dispatchEvent('.drop[data-photo="after"]', 'drop', { dataTransfer: dropped });
    expect(await page.locator('.drop[data-photo="after"] .preview').isVisible()).toBe(true);
    // Every tile of the word new, as the announced points say.
    const word = truth.words.find((w) => w.main)!;
    await page.fill('input[name=move]', `${word.word} ${truth.move.position} ${truth.points}`);
    expect(await page.getAttribute('.drop[data-photo="before"]', 'class')).toContain('not-needed');
    await page.click('#check-form button[type=submit]');
    await page.waitForSelector('#result .verdict', { timeout: 30_000 });
    expect(await shown(page)).toMatchObject({
      verdict: 'right',
      title: 'Right ✓', // the announced points are the claim
      sentences: expected.sentences,
      placed: expected.placed,
    });
    expect(await page.locator('#result .photos img').count()).toBe(1);
    await closePage(page);
  }, 60_000);

  it('asks for what is missing inline, and says why the server refused a file', async () => {
    const page = await openPage(browser, 390, 844);
    await page.goto(`${base}/check`);
    await page.click('#check-form button[type=submit]');
    expect(await page.locator('#check-form .form-error').textContent()).toContain('photo after the move');
    // A file that is no picture at all: said in its box, where it stays after the next press.
    await page.setInputFiles('input[name=before]', {
      name: 'package.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{}'),
    });
    await page.click('#check-form button[type=submit]');
    expect(await page.locator('.drop[data-photo=before] .drop-hint').textContent()).toBe(
      'package.json is not a photo: choose a JPEG, PNG or WebP picture',
    );
    await page.setInputFiles('input[name=before]', join(demo, '1.jpg'));
    // A photo chosen stays when a file that is no picture is chosen after it.
    await page.setInputFiles('input[name=before]', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('x'),
    });
    expect(await page.locator('#check-form .form-error').textContent()).toContain('notes.txt is not a photo');
    expect(await page.locator('.drop[data-photo=before] .drop-hint').textContent()).toBe(
      '1.jpg · tap to change',
    );
    await page.setInputFiles('input[name=after]', {
      name: 'after.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('not a photo at all'),
    });
    await page.click('#check-form button[type=submit]');
    await page.waitForSelector('#check-form .form-error:not([hidden])');
    expect(await page.locator('#check-form .form-error').textContent()).toContain('not a JPEG, PNG or WebP');
    expect(await page.locator('#result').isHidden()).toBe(true);
    await page.goto(`${base}/check?id=no-such-check`);
    await page.waitForSelector('.load-error');
    expect(await page.locator('.load-error').textContent()).toContain('no-such-check');
    await closePage(page);
  }, 60_000);

  it('rescores a GCG record and explains its first wrong score', async () => {
    const gcg = readFileSync(join(root, 'fixtures/games/going_out_rulebook.gcg'), 'utf8');
    expect(gcg).toContain('C7 Q. +21 21');
    const page = await openPage(browser, 1280, 800);
    await page.goto(`${base}/check`);
    const send = async (text: string) => {
      await page.setInputFiles('input[name=gcg]', {
        name: 'game.gcg',
        mimeType: 'text/plain',
        buffer: Buffer.from(text),
      });
      await page.click('#gcg-form button[type=submit]');
      await page.waitForSelector('#gcg-result .gcg-view');
    };
    await send(gcg);
    expect(await page.locator('#gcg-result .gcg-view').textContent()).toContain(
      'Every score in the record is right',
    );
    await send(gcg.replace('C7 Q. +21 21', 'C7 Q. +23 23'));
    await page.waitForSelector('#gcg-result h3');
    expect(await page.locator('#gcg-result h3').textContent()).toContain('line 5');
    expect(await page.locator('#gcg-result .gcg-first').textContent()).toBe('recorded 23, computed 21');
    expect(await page.getAttribute('#gcg-result .verdict', 'data-verdict')).toBe('wrong');
    expect(await page.locator('#gcg-result .sentences .sentence').count()).toBeGreaterThan(0);
    await closePage(page);
  }, 60_000);

  it('opens a live game move from the scoreboard move list, explained', async () => {
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    for (const n of [1, 2]) {
      const res = await fetch(`${base}/api/games/${id}/frames?endTurn=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: readFileSync(join(demo, `${n}.jpg`)),
      });
      expect(((await res.json()) as { status: string }).status).toBe('committed');
    }
    const page = await openPage(browser, 1280, 800);
    await page.goto(`${base}/board.html?game=${id}`);
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 2);
    const href = await page.getAttribute('.moves li:nth-child(2) a.what', 'href');
    expect(href).toBe(`/check?game=${id}&turn=1`);
    await page.goto(`${base}${href}`);
    await page.waitForSelector('#result .verdict');
    expect(await page.locator('#result .game-head h2').textContent()).toBe("Turn 2: Ben's move");
    expect(await page.locator('#result .game-head .players').textContent()).toContain('Ann v Ben');
    expect(await page.getAttribute('#result .game-head a.back', 'href')).toBe(`/board.html?game=${id}`);
    expect((await shown(page)).sentences).toEqual(expected.sentences);
    await closePage(page);

    // The first move on a phone, WINDY over a double letter and the centre star: the new tiles' letters readable.
    const phone = await openPage(browser, 390, 844);
    await phone.goto(`${base}/check?game=${id}&turn=0`);
    await phone.waitForSelector('#result .verdict');
    const badges = await tileBadges(phone, '.new');
    expect(badges.map((b) => b.square).sort()).toEqual(['8D', '8H']);
    expect(badges).toEqual(badges.map((b) => ({ ...b, clear: true })));
    await closePage(phone);
  }, 60_000);
});
