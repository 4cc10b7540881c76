/**
 * `tilecam feed GAME PHOTO|DIR… --token TOKEN [--url http://localhost:3000] [--from PHOTO] [--json]`: replays photos
 * in order through the same frame intake a camera uses, each as the end of a turn, and says what each recorded (the
 * move, its points and the totals). A folder's photos are taken in natural order (2 before 10), from `--from` when given (its path, or its file name when only one folder holds that name). A frame the
 * server refuses for coming too fast (the game's frames a second) is sent again when the server says it may be
 * (Retry-After, a second at least), for up to 30 s. A move held for the scorekeeper
 * (`needs-confirmation`) stops the feed with exit 2: the photos after it would show the board moves ahead of the game.
 * The scorekeeper confirms it on the game's page, and the feed goes on with `--from` the next photo.
 * `tilecam demo [--port 3000] [--db FILE]`: starts the service and plays the rendered demo game into it, so a
 * newcomer without a camera sees the scoreboard work.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGameConfig } from '../service/index.ts';
import { argsError, reportError, whyUnreadable } from './errors.ts';
import { type CommandSpec, commandLine } from './options.ts';
import { parseServerArgs, type ServerArgs } from './serve.ts';

const IMAGE = /\.(jpe?g|png|webp)$/i;
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};
/** How long one photo is sent again while the server answers that frames come too fast, at most. */
const RATE_WAIT_MS = 30_000;

/**
 * The photos named: a photo as it is, a folder's photos in natural order; one that cannot be read, or a file that is
 * no photo, is named.
 */
async function photosIn(dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    let file = false;
    try {
      file = (await stat(dir)).isFile();
    } catch (err) {
      throw new Error(`cannot read ${dir}: ${whyUnreadable(err)}`);
    }
    if (file) {
      if (!IMAGE.test(dir)) throw new Error(`${dir} is neither a folder nor a photo (.jpg, .png or .webp)`);
      out.push(dir);
      continue;
    }
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => IMAGE.test(n));
    } catch (err) {
      throw new Error(`cannot read the folder ${dir}: ${whyUnreadable(err)}`);
    }
    names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    out.push(...names.map((n) => join(dir, n)));
  }
  return out;
}

type Posted = {
  status: number;
  /** Retry-After, in milliseconds, when the server gave it. */
  retryAfterMs?: number;
  body: { status?: string; reasons?: string[]; error?: { message: string } };
};

async function post(
  url: string,
  token: string,
  file: string,
  endTurn: boolean,
  /** The photo's bytes, as readFile gives them. */
  bytes: Awaited<ReturnType<typeof readFile>>,
): Promise<Posted> {
  const ext = file.split('.').pop()!.toLowerCase();
  const res = await fetch(`${url}/frames${endTurn ? '?endTurn=1' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': TYPES[ext] ?? 'image/jpeg' },
    body: bytes,
  });
  // Retry-After in whole seconds (the form this server sends; an HTTP date is not used by it).
  const after = res.headers.get('retry-after')?.trim() ?? '';
  return {
    status: res.status,
    ...(/^\d{1,6}$/.test(after) ? { retryAfterMs: Number(after) * 1000 } : {}),
    body: (await res.json()) as Posted['body'],
  };
}

/** `post`, sent again while the server answers 429 (frames too fast), each time after the wait it asks for (a
 *  second at least), for as long as that stays within RATE_WAIT_MS. */
async function postPaced(url: string, token: string, file: string): Promise<Posted> {
  const until = Date.now() + RATE_WAIT_MS;
  // Read once, sent as often as it takes.
  const bytes = await readFile(file);
  for (;;) {
    const r = await post(url, token, file, true, bytes);
    if (r.status !== 429) return r;
    const wait = Math.max(1000, r.retryAfterMs ?? 1000);
    if (Date.now() + wait > until) return r;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * The game's last turn and the totals after it, as the scoreboard says them: `Ann: WINDY 8D +32 (Ann 32, Ben 0)`,
 * `Ben: pass (Ann 32, Ben 0)`; undefined when the game cannot be read (the move is recorded all the same).
 */
async function lastTurn(base: string): Promise<string | undefined> {
  try {
    const res = await fetch(base);
    if (!res.ok) return undefined;
    const game = (await res.json()) as {
      players: { name: string; score: number }[];
      turns: {
        player: number;
        kind: string;
        points: number;
        position?: string;
        words?: { word: string }[];
      }[];
    };
    const turn = game.turns.at(-1);
    if (!turn) return undefined;
    const who = game.players[turn.player]?.name ?? `player ${turn.player + 1}`;
    const signed = turn.points >= 0 ? `+${turn.points}` : String(turn.points);
    const what =
      turn.kind === 'play'
        ? `${turn.words?.[0]?.word ?? '?'} ${turn.position ?? ''} ${signed}`
        : `${turn.kind.replace('-', ' ')}${turn.points !== 0 ? ` ${signed}` : ''}`;
    return `${who}: ${what} (${game.players.map((p) => `${p.name} ${p.score}`).join(', ')})`;
  } catch {
    return undefined;
  }
}

export const feedSpec = {
  synopsis: ['feed GAME PHOTO|DIR… --token TOKEN [options]'],
  summary: 'play photos into a game in natural order, each as an End turn (a held move stops it: exit 2)',
  options: {
    token: { type: 'string', value: 'TOKEN', help: "the game's scorekeeper token (from its link, after #)" },
    url: { type: 'string', value: 'URL', help: 'the server (default http://localhost:3000)' },
    from: { type: 'string', value: 'PHOTO', help: 'start at this photo (once a held move is confirmed)' },
    json: { type: 'boolean', help: 'print one JSON object' },
  },
  positionals: true,
} as const satisfies CommandSpec;

export async function feedCommand(args: string[]): Promise<number> {
  // A token may start with '-' (base64url): `--token -x…` is taken as `--token=-x…`, not as an option.
  const joined = args.flatMap((a, i) =>
    a === '--token' && args[i + 1]?.startsWith('-')
      ? []
      : i > 0 && args[i - 1] === '--token' && a.startsWith('-')
        ? [`--token=${a}`]
        : [a],
  );
  const line = commandLine(feedSpec, joined);
  if (typeof line === 'number') return line;
  const { values, positionals, json } = line;
  const [game, ...dirs] = positionals;
  if (!game || dirs.length === 0 || !values.token)
    return reportError(json, 'feed needs GAME, at least one photo or folder of photos, and --token');
  const url = (values.url ?? 'http://localhost:3000').replace(/\/$/, '');
  const base = `${url}/api/games/${encodeURIComponent(game)}`;
  let files: string[];
  try {
    files = await photosIn(dirs);
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
  if (values.from !== undefined) {
    // A path names one photo; a bare name must name one in all the folders.
    const from = values.from;
    const named = files.flatMap((f, i) =>
      resolve(f) === resolve(from) || (!from.includes(sep) && basename(f) === from) ? [i] : [],
    );
    if (named.length === 0) return reportError(json, `--from ${from}: no such photo in ${dirs.join(', ')}`);
    if (named.length > 1)
      return reportError(
        json,
        `--from ${from}: ${named.length} folders hold a photo of that name: give its path`,
      );
    files = files.slice(named[0]);
  }
  const frames: { file: string; status: string; reasons?: string[] }[] = [];
  for (const [i, file] of files.entries()) {
    let r: Posted;
    try {
      r = await postPaced(base, values.token, file);
    } catch (err) {
      return reportError(json, `cannot reach the server at ${url}: ${(err as Error).message}`);
    }
    if (r.status !== 200) return reportError(json, `${file}: ${r.body.error?.message ?? `HTTP ${r.status}`}`);
    const status = r.body.status ?? '?';
    const reasons = r.body.reasons;
    // What was recorded, in words: the move and its points, and the totals after it.
    const said = status === 'committed' ? await lastTurn(base) : undefined;
    frames.push({ file, status, ...(reasons ? { reasons } : {}), ...(said ? { recorded: said } : {}) });
    if (!json) process.stdout.write(`${file}: ${status}${said ? `: ${said}` : ''}\n`);
    if (status === 'needs-confirmation') {
      // The photos after it would show the board moves ahead of the game: stop until the scorekeeper has settled it.
      const next = files[i + 1];
      if (json) process.stdout.write(`${JSON.stringify({ frames, held: file, next: next ?? null })}\n`);
      else
        process.stderr.write(
          `tilecam: the move of ${file} is held for the scorekeeper${reasons?.length ? ` (${reasons.join('; ')})` : ''}: confirm it on the game's page (${url}/board.html?game=${encodeURIComponent(game)}, with the scorekeeper's link)${next ? `, then go on with --from ${next}` : ''}\n`,
        );
      return 2;
    }
  }
  if (json) process.stdout.write(`${JSON.stringify({ frames })}\n`);
  return 0;
}

export async function demoCommand(args: string[]): Promise<number> {
  let options: ServerArgs;
  try {
    options = parseServerArgs(args, false);
  } catch (err) {
    return reportError(false, argsError(err));
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
    const r = await post(`${base}/api/games/${id}`, token, file, i > 0, await readFile(file));
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
