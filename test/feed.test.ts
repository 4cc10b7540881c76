/**
 * `tilecam feed` as a user runs it on a folder of a game's photos: it keeps to the game's frames a second (sending a
 * refused frame again when the server's Retry-After says), and stops at a move held for the scorekeeper instead of
 * sending the photos after it, which would show the board moves ahead of the game. A real server on an ephemeral port.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { feedCommand } from '../server/cli/feed.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { defaultLimits } from '../server/service/limits.ts';

const demo = fileURLToPath(new URL('../fixtures/demo_game/', import.meta.url));

let dir: string;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tilecam-feed-'));
  // One frame a second per game: a feed that does not keep to it is refused from its second photo on.
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: join(dir, 'games.db'),
    limits: { ...defaultLimits, framesPerSecond: 1 },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

/** A folder holding the demo game's photos `numbers` (as N.jpg), or [photo, name] pairs. */
function folder(name: string, photos: (number | [number, string])[]): string {
  const at = join(dir, name);
  mkdirSync(at);
  for (const p of photos) {
    const [n, file] = typeof p === 'number' ? [p, `${p}.jpg`] : p;
    copyFileSync(join(demo, `${n}.jpg`), join(at, file));
  }
  return at;
}

async function newGame(): Promise<{ id: string; token: string }> {
  const res = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players: ['Ann', 'Ben'] }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

/** Runs the command in this process: its exit code, what it wrote, and the HTTP statuses of the frames it sent. */
async function feed(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const statuses: number[] = [];
  /** When each frame was sent, and its answer's status. */
  const sent: { at: number; status: number }[] = [];
  const realFetch = globalThis.fetch;
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out.push(String(s));
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err.push(String(s));
    return true;
  });
  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const at = performance.now();
    const res = await realFetch(input, init);
    if (String(input).includes('/frames')) {
      statuses.push(res.status);
      sent.push({ at, status: res.status });
    }
    return res;
  });
  try {
    const code = await feedCommand([...args, '--url', base]);
    return { code, out: out.join(''), err: err.join(''), statuses, sent };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    fetchSpy.mockRestore();
  }
}

describe('tilecam feed', () => {
  it('keeps to the game’s frames a second: a frame refused as too fast is sent again when the server says', async () => {
    const { id, token } = await newGame();
    const photos = folder('paced', [0, 1, 2, 3]);
    const run = await feed(id, photos, '--token', token, '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const { frames } = JSON.parse(run.out) as { frames: { file: string; status: string }[] };
    // The empty board before the first move records nothing (no one's pass); then the three moves, each said.
    expect(frames.map((f) => f.status)).toEqual(['unchanged', 'committed', 'committed', 'committed']);
    expect((frames[1] as { recorded?: string }).recorded).toBe('Ann: WINDY 8D +32 (Ann 32, Ben 0)');
    // The server did refuse frames for coming too fast, and every photo went through in the end.
    expect(run.statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(run.statuses.filter((s) => s === 200)).toHaveLength(4);
    // Each refused frame was sent again only after the second the server asked for (Retry-After: 1), not at once.
    run.sent.forEach(({ at, status }, i) => {
      if (status === 429) expect(run.sent[i + 1]!.at - at).toBeGreaterThanOrEqual(990);
    });
    const game = (await (await fetch(`${base}/api/games/${id}`)).json()) as GameSnapshot;
    expect(game.turns).toHaveLength(3);
  }, 60_000);

  it('answers a frame that comes too fast with 429 and a Retry-After', async () => {
    const { id, token } = await newGame();
    const post = () =>
      fetch(`${base}/api/games/${id}/frames`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: new Uint8Array([0xff, 0xd8, 0xff]),
      });
    const first = await post();
    const second = await post();
    expect(first.status).not.toBe(429);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('stops at a move held for the scorekeeper, and goes on --from the photo it names', async () => {
    const { id, token } = await newGame();
    // Photo 3 after the empty board: three moves' tiles at once, not one move: held. Another photo after it.
    const photos = folder('held', [0, 3, [1, '4.jpg']]);
    const run = await feed(id, photos, '--token', token);
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/0\.jpg: unchanged\n.*3\.jpg: needs-confirmation\n$/s);
    expect(run.out).not.toMatch(/4\.jpg/);
    expect(run.err).toContain(`held for the scorekeeper`);
    expect(run.err).toContain(`then go on with --from ${join(photos, '4.jpg')}\n`);
    // The same with --json: the photo held and the one to go on from.
    const again = await feed(id, photos, '--token', token, '--json');
    expect(again.code).toBe(2);
    expect(JSON.parse(again.out)).toMatchObject({ held: join(photos, '3.jpg'), next: join(photos, '4.jpg') });
    // Going on --from the photo named: only it and those after it are sent.
    const rest = await feed(id, photos, '--token', token, '--from', join(photos, '4.jpg'), '--json');
    const sent = JSON.parse(rest.out) as { frames: { file: string }[] };
    expect(sent.frames.map((f) => f.file)).toEqual([join(photos, '4.jpg')]);
    expect(rest.code).toBe(0);
  }, 60_000);

  it('refuses a --from that names no photo, or a name two folders hold', async () => {
    const { id, token } = await newGame();
    const run = await feed(id, folder('from', [0]), '--token', token, '--from', '9.jpg');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/--from 9\.jpg: no such photo/);
    const [a, b] = [
      folder('from-a', [0, 1]),
      folder('from-b', [
        [2, '0.jpg'],
        [3, '1.jpg'],
      ]),
    ];
    const twice = await feed(id, a, b, '--token', token, '--from', '0.jpg');
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/--from 0\.jpg: 2 folders hold a photo of that name: give its path/);
    expect(twice.statuses).toEqual([]);
  });
});

describe('tilecam feed, photo by photo', () => {
  it('takes a single photo as well as a folder, and says what each recorded', async () => {
    const { id, token } = await newGame();
    const photos = folder('single', [0, 1]);
    const run = await feed(id, join(photos, '1.jpg'), '--token', token);
    expect(run.code).toBe(0);
    expect(run.out).toBe(`${join(photos, '1.jpg')}: committed: Ann: WINDY 8D +32 (Ann 32, Ben 0)\n`);
    const wrong = await feed(id, join(photos, 'missing.jpg'), '--token', token);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/cannot read .*missing\.jpg: no such file or folder/);
  }, 60_000);
});

describe('tilecam feed, a token starting with a dash', () => {
  it('takes it as the token (base64url tokens start with - one time in 64), not as an option', async () => {
    const { id } = await newGame();
    const run = await feed(id, folder('dash', [1]), '--token', '-not-the-token');
    expect(run.code).toBe(1);
    expect(run.err).not.toMatch(/ambiguous/);
    expect(run.err).toMatch(/token/i);
  });
});
