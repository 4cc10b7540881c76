/**
 * What every browser test shares: Debian's Chromium, headless, with the flags this machine needs (no sandbox as
 * root, no background traffic), a real server on an ephemeral port beside it, and pages that record the native
 * dialogs they open (the pages must open none), their script errors and what the Content-Security-Policy blocked,
 * and the accessibility check (axe-core).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import { demoBoard } from './helpers.ts';

export { demoBoard };

export const CHROMIUM = '/usr/bin/chromium';
/** Whether Chromium is here: the browser tests are skipped, saying so, when it is not (`.ci/run` installs it). */
export const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent)
  console.warn(`\n  NOTICE: ${CHROMIUM} is absent; the browser tests are skipped (.ci/run installs it).\n`);

export function launch(extra: string[] = []): Promise<Browser> {
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
  flags.push('--disable-component-update', '--disable-sync', '--no-first-run');
  return chromium.launch({ executablePath: CHROMIUM, args: [...flags, ...extra] });
}

/** A server on a fresh SQLite file and an ephemeral loopback port, and a browser. */
export async function startWithBrowser(
  name: string,
): Promise<{ server: RunningServer; browser: Browser; base: string }> {
  const db = join(mkdtempSync(join(tmpdir(), `tilecam-${name}-`)), 'games.db');
  const server = await startServer({ port: 0, host: '127.0.0.1', db });
  return { server, browser: await launch(), base: `http://127.0.0.1:${server.port}` };
}

export async function stopWithBrowser(browser?: Browser, server?: RunningServer): Promise<void> {
  await browser?.close();
  await server?.close();
}

/** Native dialogs and script errors, by page. */
const problems = new WeakMap<Page, string[]>();

/** A new page of that size that records its native dialogs (dismissed), script errors and CSP violations. */
export async function watchedPage(browser: Browser, width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  const seen: string[] = [];
  problems.set(page, seen);
  page.on('dialog', (dialog) => {
    seen.push(`a native ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (err) => seen.push(`script error: ${err.message}`));
  // Anything the Content-Security-Policy blocked (in the page or a frame of it): the pages must need nothing it refuses.
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`),
    ),
  );
  page.on('console', (m) => {
    if (m.type() === 'error' && /CSP violation|Content Security Policy/.test(m.text())) seen.push(m.text());
  });
  return page;
}

/** Closes a page, failing the test if it opened a native dialog, had a script error or a CSP violation. */
export async function closeWatched(page: Page): Promise<void> {
  await page.close();
  expect(problems.get(page)).toEqual([]);
}

/**
 * The accessibility problems axe-core finds on the page as it is now, of the impacts given (default: serious and
 * critical), one line each: the rule, what it asks, and up to three of the elements at fault.
 */
export async function axeViolations(
  page: Page,
  impacts: readonly string[] = ['serious', 'critical'],
): Promise<string[]> {
  // Evaluated, not added as a script element: the pages' Content-Security-Policy refuses inline scripts.
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).join(', ')}`);
}

/**
 * The scorekeeper confirms the demo game's boards after `moves` into game `game` through the API (WINDY, AN, JOEY
 * for 1, 2, 3), each answered 200.
 */
export async function confirmDemoMoves(
  base: string,
  game: { id: string; token: string },
  moves: readonly number[],
): Promise<void> {
  for (const n of moves) {
    const res = await fetch(`${base}/api/games/${game.id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${game.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'confirm', board: demoBoard(n) }),
    });
    expect(res.status).toBe(200);
  }
}
