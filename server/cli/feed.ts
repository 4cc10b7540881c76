/**
 * `tilecam feed GAME DIR… --token TOKEN [--url http://localhost:3000] [--json]`: replays photos in order through the
 * same frame intake a camera uses, each as the end of a turn. Photos are taken in natural order (2 before 10).
 * `tilecam demo [--port 3000] [--db FILE]`: starts the service and plays the rendered demo game into it, so a
 * newcomer without a camera sees the scoreboard work.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseGameConfig } from '../service/validate.ts';
import { reportError } from './errors.ts';
import { parseServerArgs, type ServerArgs } from './serve.ts';

const IMAGE = /\.(jpe?g|png|webp)$/i;
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

async function photosIn(dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    const names = (await readdir(dir)).filter((n) => IMAGE.test(n));
    names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    out.push(...names.map((n) => join(dir, n)));
  }
  return out;
}

async function post(
  url: string,
  token: string,
  file: string,
  endTurn: boolean,
): Promise<{ status: number; body: { status?: string; error?: { message: string } } }> {
  const ext = file.split('.').pop()!.toLowerCase();
  const res = await fetch(`${url}/frames${endTurn ? '?endTurn=1' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': TYPES[ext] ?? 'image/jpeg' },
    body: await readFile(file),
  });
  return { status: res.status, body: (await res.json()) as { status?: string } };
}

export async function feedCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  let values: { token?: string; url?: string; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { token: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean' } },
    }));
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
  const [game, ...dirs] = positionals;
  if (!game || dirs.length === 0 || !values.token)
    return reportError(json, 'feed needs GAME, at least one folder of photos and --token');
  const base = `${(values.url ?? 'http://localhost:3000').replace(/\/$/, '')}/api/games/${encodeURIComponent(game)}`;
  let files: string[];
  try {
    files = await photosIn(dirs);
  } catch (err) {
    return reportError(json, `cannot read the folder: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  const frames: { file: string; status: string }[] = [];
  for (const file of files) {
    let r: Awaited<ReturnType<typeof post>>;
    try {
      r = await post(base, values.token, file, true);
    } catch (err) {
      return reportError(
        json,
        `cannot reach the server at ${values.url ?? 'http://localhost:3000'}: ${(err as Error).message}`,
      );
    }
    if (r.status !== 200) return reportError(json, `${file}: ${r.body.error?.message ?? `HTTP ${r.status}`}`);
    frames.push({ file, status: r.body.status ?? '?' });
    if (!json) process.stdout.write(`${file}: ${r.body.status}\n`);
  }
  if (json) process.stdout.write(`${JSON.stringify({ frames })}\n`);
  return 0;
}

export async function demoCommand(args: string[]): Promise<number> {
  let options: ServerArgs;
  try {
    options = parseServerArgs(args, false);
  } catch (err) {
    return reportError(false, (err as Error).message);
  }
  const { startServer } = await import('../http/app.ts');
  const server = await startServer(options);
  const base = `http://localhost:${server.port}`;
  const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
  process.stdout.write(
    `tilecam demo: ${base}/board.html?game=${id}\n  scorekeeper: ${base}/board.html?game=${id}#token=${token}\n`,
  );
  const dir = fileURLToPath(new URL('../../fixtures/demo_game/', import.meta.url));
  const files = await photosIn([dir]);
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  for (const [i, file] of files.entries()) {
    await pause(4000);
    const r = await post(`${base}/api/games/${id}`, token, file, i > 0);
    process.stdout.write(`  photo ${i}: ${r.body.status}\n`);
    if (r.body.status === 'needs-confirmation') {
      // Playing the scorekeeper: check the reading against what was really played, and confirm.
      await pause(2000);
      const board = (await readFile(file.replace(IMAGE, '.txt'), 'utf8')).trimEnd().split('\n');
      await fetch(`${base}/api/games/${id}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'confirm', board }),
      });
      process.stdout.write('  the scorekeeper checked the squares in doubt and confirmed\n');
    }
  }
  // The end of the game: the players stop and count what is left on their racks (the rule book's end).
  await pause(4000);
  const ended = await fetch(`${base}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'end', racks: ['AEIRST', 'QU'] }),
  });
  process.stdout.write(
    ended.ok
      ? '  the game ended: racks AEIRST and QU counted\n'
      : `  the game could not end: ${await ended.text()}\n`,
  );
  process.stdout.write('demo game played to its end; the server keeps running (Ctrl-C to stop)\n');
  return new Promise<number>(() => {});
}
