/**
 * `npm run bench:disk [-- --minutes 10 --ceiling-mb 64]`: the disk under a flood of photos from one address. The
 * real `tilecam serve` runs as a process of its own with `--limit photoBytesTotal` at the ceiling; this process
 * creates a game every 3 s (20 a minute, the default limit per address) and, for each, sends End turns with the
 * demo game's photos padded with 9 MB of zeros, Undo and End turn again a few times, checks a score from a padded
 * photo, and ends every other game. Every 30 s it prints the bytes the server keeps (its photos folder and its
 * database, checks' photos included) against the ceiling, and what was refused. The figure to read: the disk levels
 * off at the ceiling and stays there.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startTilecam } from '../dev/servers.ts';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, 'ceiling-mb': { type: 'string', default: '64' } },
});
const minutes = Number(values.minutes);
const ceilingMb = Number(values['ceiling-mb']);
if (!(minutes > 0 && minutes <= 60) || !(ceilingMb >= 1 && ceilingMb <= 100_000))
  throw new Error('--minutes takes 0 to 60, --ceiling-mb 1 to 100000');
const ceiling = Math.round(ceilingMb * 1024 * 1024);

const dir = mkdtempSync(join(tmpdir(), 'tilecam-disk-'));
const { child, ready } = startTilecam([
  'serve',
  '--port',
  '0',
  '--host',
  '127.0.0.1',
  '--db',
  join(dir, 'games.db'),
  '--limit',
  `photoBytesTotal=${ceiling}`,
  '--limit',
  'checksPerMinute=20',
  '--limit',
  'gamesPerMinute=20',
]);
const base = `http://127.0.0.1:${((await ready) as { port: number }).port}`;
const padding = Buffer.alloc(9 * 1024 * 1024);
const photo = (i: number) =>
  Buffer.concat([readFileSync(new URL(`../../fixtures/demo_game/${i}.jpg`, import.meta.url)), padding]);
const photos = [1, 2, 3].map(photo);

/** Bytes under `path`, a file or a folder. */
function bytesUnder(path: string): number {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

const counts = { games: 0, frames: 0, committed: 0, checks: 0, refused: new Map<string, number>() };
const refuse = (what: string) => counts.refused.set(what, (counts.refused.get(what) ?? 0) + 1);

async function frame(id: string, token: string, bytes: Buffer): Promise<void> {
  counts.frames++;
  const res = await fetch(`${base}/api/games/${id}/frames?endTurn=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  const answer = (await res.json()) as { status?: string; error?: { code: string } };
  if (answer.status === 'committed') counts.committed++;
  else refuse(`frame ${res.status} ${answer.status ?? answer.error?.code}`);
}

async function action(id: string, token: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (!res.ok) refuse(`action ${res.status}`);
}

async function oneGame(n: number): Promise<void> {
  const res = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players: ['Ann', 'Ben'] }),
  });
  if (res.status !== 201) {
    refuse(`game ${res.status}`);
    return;
  }
  counts.games++;
  const { id, token } = (await res.json()) as { id: string; token: string };
  for (const bytes of photos) await frame(id, token, bytes);
  for (let k = 0; k < 3; k++) {
    await action(id, token, { type: 'undo' });
    await frame(id, token, photos[2]!);
  }
  const form = new FormData();
  form.append('after', new Blob([photos[0]!], { type: 'image/jpeg' }), 'after.jpg');
  form.append('move', '8D WINDY');
  const check = await fetch(`${base}/api/checks`, { method: 'POST', body: form });
  await check.arrayBuffer();
  if (check.status === 201) counts.checks++;
  else refuse(`check ${check.status}`);
  if (n % 2 === 0) await action(id, token, { type: 'end', racks: ['', ''] });
}

const started = Date.now();
const running: Promise<void>[] = [];
const sampler = setInterval(report, 30_000);
console.log(`bench:disk: ${minutes} min, a game every 3 s, ceiling ${ceilingMb} MB (${ceiling} bytes)`);
console.log('| min | games | frames | committed | checks | kept (photos + database) | of the ceiling |');
console.log('|---|---|---|---|---|---|---|');
function report(): void {
  const photosBytes = bytesUnder(join(dir, 'photos'));
  const dbBytes = ['games.db', 'games.db-wal', 'games.db-shm'].reduce(
    (s, f) => s + bytesUnder(join(dir, f)),
    0,
  );
  const kept = photosBytes + dbBytes;
  console.log(
    `| ${((Date.now() - started) / 60_000).toFixed(1)} | ${counts.games} | ${counts.frames} | ${counts.committed} | ${counts.checks} | ${(kept / 1048576).toFixed(1)} MB (${(photosBytes / 1048576).toFixed(1)} + ${(dbBytes / 1048576).toFixed(1)}) | ${((100 * kept) / ceiling).toFixed(0)}% |`,
  );
}
for (let n = 0; Date.now() - started < minutes * 60_000; n++) {
  running.push(
    oneGame(n).catch((err) => {
      refuse(`error ${(err as Error).message}`);
    }),
  );
  await new Promise((r) => setTimeout(r, 3000));
}
await Promise.all(running);
clearInterval(sampler);
report();
console.log(`refused: ${JSON.stringify(Object.fromEntries(counts.refused))}`);
child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
