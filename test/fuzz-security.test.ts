/**
 * The security issue's properties, run against the real `tilecam serve` as a process of its own (a crash or a freeze
 * shows as such): a record of the size cap rescored while health answers at once; no name adds a line to an export;
 * a padded photo is kept at most its picture's size; a 16000² PNG is refused on every route that takes a picture.
 * Seeds are random; FUZZ_SEED=<seed> replays a failure, FUZZ_SCALE=<n> multiplies the runs.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTilecam } from '../server/dev/servers.ts';
import { decodeGcg, readGcg } from '../server/engine/index.ts';
import { root } from './helpers.ts';

const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1) || 1);
const runs = (n: number) => ({ numRuns: n * SCALE, ...(SEED === undefined ? {} : { seed: SEED }) });

const PHOTO = readFileSync(join(root, 'fixtures/demo_game/1.jpg'));
const dir = mkdtempSync(join(tmpdir(), 'tilecam-fuzz-security-'));
let child: ChildProcess;
let base = '';
/** A PNG of 16000×16000 (256 megapixels; it compresses to under a megabyte). */
let hugePng: Buffer;

beforeAll(async () => {
  const started = startTilecam([
    'serve',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--db',
    join(dir, 'games.db'),
    '--limit',
    'gamesPerMinute=10000',
    '--limit',
    'checksPerMinute=10000',
    '--limit',
    'framesPerSecond=100',
  ]);
  child = started.child;
  const ready = (await started.ready) as { port: number };
  base = `http://127.0.0.1:${ready.port}`;
  hugePng = await sharp({ create: { width: 16000, height: 16000, channels: 3, background: '#0a0' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}, 120_000);

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function newGame(players: string[] = ['Ann', 'Ben']): Promise<{ id: string; token: string }> {
  const res = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

describe('a GCG record of the size cap', () => {
  /** A move line of a two-player record that needs no board: a pass, an exchange, a bonus or a penalty. */
  const moveLine = fc.constantFrom(
    (p: string) => `>${p}: - +0 0`,
    (p: string) => `>${p}: ABCDEFG -ABC +0 0`,
    (p: string) => `>${p}: (challenge) +5 5`,
    (p: string) => `>${p}: (time) -10 -5`,
    (p: string) => `>${p}: ?? 8H ZZZZZZZZZZZZZZZZZ +1 1`,
  );
  const record = fc
    .record({
      moves: fc.array(moveLine, { minLength: 1, maxLength: 4 }),
      lines: fc.integer({ min: 500, max: 95_000 }),
      filler: fc.constantFrom('', '#note a remark that repeats ', 'text between moves '),
    })
    .map(({ moves, lines, filler }) => {
      const out = ['#character-encoding UTF-8', '#player1 a Ann', '#player2 b Ben'];
      let size = 0;
      for (let i = 0; size < 1_000_000 - 200 && i < lines; i++) {
        const line = filler && i % 2 ? filler.repeat(4) : moves[i % moves.length]!(i % 2 === 0 ? 'a' : 'b');
        out.push(line);
        size += line.length + 1;
      }
      return out.join('\n');
    });

  const worst = () => {
    const out = ['#player1 a Ann', '#player2 b Ben'];
    for (let i = 0; i < 1000; i++)
      out.push(i % 4 < 2 ? `>${'ab'[i % 2]}: - +0 0` : `>${'ab'[i % 2]}: ABC -ABC +0 0`);
    let size = out.join('\n').length;
    for (const note = `#note ${'x'.repeat(90)}`; size + note.length + 1 < 1_000_000; size += note.length + 1)
      out.push(note);
    return out.join('\n');
  };

  it('is rescored (or refused) while the health check answers within 200 ms', async () => {
    await fc.assert(
      fc.asyncProperty(record, async (body) => {
        expect(body.length).toBeLessThanOrEqual(1024 * 1024);
        const slowest = { ms: 0 };
        let done = false;
        const posted = fetch(`${base}/api/checks/gcg`, { method: 'POST', body }).finally(() => {
          done = true;
        });
        const pings = (async () => {
          while (!done) {
            const t = performance.now();
            const health = await fetch(`${base}/api/health`);
            expect(health.status).toBe(200);
            await health.arrayBuffer();
            slowest.ms = Math.max(slowest.ms, performance.now() - t);
            await new Promise((r) => setTimeout(r, 10));
          }
        })();
        const res = await posted;
        await pings;
        expect([200, 400]).toContain(res.status);
        const answer = (await res.json()) as { turns?: number; error?: { message: string } };
        if (res.status === 400) expect(answer.error!.message).toMatch(/^line \d+: /);
        expect(slowest.ms).toBeLessThan(200);
      }),
      // The worst the cap lets through: 1,000 move lines a player may make on any board (passes and exchanges,
      // each replayed and scored), then comment lines to the megabyte.
      { ...runs(8), examples: [[worst()]] },
    );
  }, 300_000);
});

describe('a name with a line break or a control character', () => {
  const breaking = fc.constantFrom(
    '\n',
    '\r',
    '\r\n',
    '\u2028',
    '\u2029',
    '\u0085',
    '\u0000',
    '\u001b',
    '\u202e',
  );
  const plain = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 6 })
    .filter((s) => /^[^\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]+$/u.test(s))
    .filter((s) => s.trim().length > 0 && s.length <= 12);

  it('is refused, in a player or an event, with a clear 400', async () => {
    await fc.assert(
      fc.asyncProperty(plain, breaking, plain, fc.boolean(), async (a, bad, b, asEvent) => {
        const name = `${a}${bad}>${b}: ZAX 8G ZAX +500 500`.slice(0, 40);
        const body = asEvent ? { players: ['Ann', 'Ben'], event: name } : { players: ['Ann', name] };
        const res = await fetch(`${base}/api/games`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(400);
        const { error } = (await res.json()) as { error: { message: string } };
        expect(error.message).toMatch(/cannot hold line breaks or control characters/);
      }),
      runs(30),
    );
  });

  it('and a name without one is exported as one line: the GCG has its players and no move', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plain, { minLength: 2, maxLength: 4 }), async (players) => {
        const game = await newGame(players);
        const res = await fetch(`${base}/api/games/${game.id}/gcg`);
        expect(res.status).toBe(200);
        const text = await res.text();
        const decoded = decodeGcg(new TextEncoder().encode(text));
        if (!decoded.ok) throw new Error(decoded.message);
        const read = readGcg(decoded.text);
        if (!read.ok) throw new Error(read.message);
        expect(read.document.players.length).toBe(players.length);
        expect(read.document.lines.filter((l) => l.type === 'entry')).toEqual([]);
        expect(text.split('\n').filter(Boolean).length).toBe(1 + players.length);
        const score = await (await fetch(`${base}/api/games/${game.id}/fields/score.txt`)).text();
        expect(score.trim().split(/\r?\n|\r|\u2028|\u2029/u)).toHaveLength(1);
      }),
      runs(15),
    );
  });
});

/** Bytes of every photo the server keeps for game `id`. */
function keptPhotos(id: string): number[] {
  const folder = join(dir, 'photos', id);
  try {
    return readdirSync(folder).map((name) => statSync(join(folder, name)).size);
  } catch {
    return [];
  }
}

describe('a photo with bytes after its picture', () => {
  const padding = fc.oneof(
    fc.integer({ min: 1, max: 3_000_000 }).map((n) => Buffer.alloc(n)),
    fc.uint8Array({ minLength: 1, maxLength: 200_000 }).map((b) => Buffer.from(b)),
  );

  it('is kept at most its picture’s size, as a move’s photo and as a check’s', async () => {
    await fc.assert(
      fc.asyncProperty(padding, async (pad) => {
        const padded = Buffer.concat([PHOTO, pad]);
        const game = await newGame();
        const res = await fetch(`${base}/api/games/${game.id}/frames?endTurn=1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${game.token}`, 'content-type': 'image/jpeg' },
          body: new Uint8Array(padded),
        });
        expect(res.status).toBe(200);
        const sizes = keptPhotos(game.id);
        expect(sizes.length).toBeGreaterThan(0);
        for (const size of sizes) expect(size).toBeLessThanOrEqual(PHOTO.length);

        const form = new FormData();
        form.append('after', new Blob([new Uint8Array(padded)], { type: 'image/jpeg' }), 'after.jpg');
        form.append('move', '8D WINDY');
        form.append('claimed', '32');
        const check = await fetch(`${base}/api/checks`, { method: 'POST', body: form });
        expect(check.status).toBe(201);
        const { id } = (await check.json()) as { id: string };
        const after = await fetch(`${base}/api/checks/${id}/after`);
        expect((await after.arrayBuffer()).byteLength).toBeLessThanOrEqual(PHOTO.length);
      }),
      runs(4),
    );
  }, 300_000);
});

describe('a PNG of 16000×16000 (under a megabyte, 256 megapixels)', () => {
  it('is refused as too large by a score check, a frame over HTTP and a frame over the WebSocket', async () => {
    expect(hugePng.length).toBeLessThan(1024 * 1024);
    for (const field of ['before', 'after']) {
      const form = new FormData();
      form.append(
        'before',
        new Blob([new Uint8Array(field === 'before' ? hugePng : PHOTO)], { type: 'image/png' }),
        'b.png',
      );
      form.append(
        'after',
        new Blob([new Uint8Array(field === 'after' ? hugePng : PHOTO)], { type: 'image/png' }),
        'a.png',
      );
      const res = await fetch(`${base}/api/checks`, { method: 'POST', body: form });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
        /16000×16000: over 40 megapixels/,
      );
    }
    const game = await newGame();
    const res = await fetch(`${base}/api/games/${game.id}/frames?endTurn=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${game.token}`, 'content-type': 'image/png' },
      body: new Uint8Array(hugePng),
    });
    expect(res.status).toBe(413);
    expect(keptPhotos(game.id)).toEqual([]);

    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?game=${game.id}`);
    const error = new Promise<{ code: string; message: string }>((resolve) =>
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as { type: string; data: { code: string; message: string } };
        if (m.type === 'error') resolve(m.data);
      }),
    );
    await new Promise((r) => ws.once('open', r));
    ws.send(
      JSON.stringify({
        type: 'frame',
        data: { token: game.token, jpeg: hugePng.toString('base64'), endTurn: true },
      }),
    );
    expect(await error).toMatchObject({ code: 'too-large', message: expect.stringMatching(/megapixels/) });
    ws.close();
    // The server is still there.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }, 120_000);
});
