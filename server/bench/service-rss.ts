/**
 * The service's memory with both analysis lexicons loaded, for `npm run bench:movegen` (run as a process of its own,
 * so that nothing the bench holds counts): a server started on a temporary database, its resident set size once it
 * answers; then an English and a German game, one word each, the best plays of each asked for (which loads the
 * English and the German DAWG), and the resident set size again. Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyBoard, formatBoard, place, placementsFromNotation } from '../engine/index.ts';
import { startServer } from '../http/app.ts';

const dir = mkdtempSync(join(tmpdir(), 'tilecam-rss-'));
const server = await startServer({ port: 0, host: '127.0.0.1', db: join(dir, 'games.db') });
const base = `http://127.0.0.1:${server.port}`;
const settle = async () => {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 500));
  return process.memoryUsage().rss;
};
try {
  const started = await settle();
  for (const [lang, play, rack] of [
    ['en', '8D WINDY', 'DINNVWY'],
    ['de', '8E HAUS', 'AEHNSTU'],
  ] as const) {
    const res = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['A', 'B'], lang }),
    });
    const game = (await res.json()) as { id: string; token: string };
    const placed = placementsFromNotation(emptyBoard(), play);
    if (!placed.ok) throw new Error(placed.message);
    const headers = { authorization: `Bearer ${game.token}`, 'content-type': 'application/json' };
    const played = await fetch(`${base}/api/games/${game.id}/actions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'confirm', board: formatBoard(place(emptyBoard(), placed.placements)) }),
    });
    if (!played.ok) throw new Error(`${lang}: ${play} answered ${played.status}: ${await played.text()}`);
    const asked = await fetch(`${base}/api/games/${game.id}/analysis`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ turn: 1, rack }),
    });
    if (!asked.ok) throw new Error(`${lang}: the analysis answered ${asked.status}: ${await asked.text()}`);
  }
  const loaded = await settle();
  console.log(JSON.stringify({ startedMB: started / 1e6, withLexiconsMB: loaded / 1e6 }));
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
