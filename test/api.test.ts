/**
 * The service through its HTTP API and WebSocket: a real server on an ephemeral port with a real SQLite file,
 * playing the rendered demo game (fixtures/demo_game: Ann 8D WINDY 32, Ben 9D AN 9, Ann H5 JOE(Y) 14).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot, ServerMessage } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';

const demo = fileURLToPath(new URL('../fixtures/demo_game/', import.meta.url));
const frame = (i: number) => readFileSync(join(demo, `${i}.jpg`));

let server: RunningServer;
let base: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilecam-api-'));
  server = await startServer({ port: 0, host: '127.0.0.1', db: join(dir, 'games.db'), heartbeatMs: 200 });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

async function api(path: string, init: RequestInit & { token?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    ...init,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } },
  };
}

async function newGame(extra: object = {}) {
  const res = await api('/api/games', { method: 'POST', json: { players: ['Ann', 'Ben'], ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string };
}

const postFrame = (
  id: string,
  token: string | undefined,
  bytes: Uint8Array,
  endTurn = true,
  type = 'image/jpeg',
) =>
  api(`/api/games/${id}/frames${endTurn ? '?endTurn=1' : ''}`, {
    method: 'POST',
    ...(token ? { token } : {}),
    headers: { 'content-type': type },
    body: bytes as unknown as BodyInit,
  });

describe('games over HTTP', () => {
  it('creates a game and shows its snapshot to anyone', async () => {
    const { id, token } = await newGame();
    expect(token.length).toBeGreaterThan(20);
    const snap = (await api(`/api/games/${id}`)).body as unknown as GameSnapshot;
    expect(snap.players).toEqual([
      { name: 'Ann', score: 0 },
      { name: 'Ben', score: 0 },
    ]);
    expect(snap.board).toHaveLength(15);
    expect(snap.unseen).toMatchObject({ total: 100, bag: 86 });
    expect((await api('/api/games')).body.games).toContainEqual(
      expect.objectContaining({ id, players: ['Ann', 'Ben'] }),
    );
  });

  it('plays Finish Line to the targets of each player’s level', async () => {
    const { id, token } = await newGame({ variant: 'finish-line', levels: ['beginner', 'expert'] });
    const rows = Array.from({ length: 15 }, (_, r) => (r === 7 ? '.RETaINS.......' : '.'.repeat(15)));
    const res = await api(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'confirm', board: rows },
    });
    const snap = res.body.snapshot as GameSnapshot;
    expect(snap.players[0]!.score).toBe(64);
    expect(snap.ended).toBeNull(); // a beginner plays to 70
    const bad = await api('/api/games', {
      method: 'POST',
      json: { players: ['A', 'B'], variant: 'finish-line', levels: ['pro', 'expert'] },
    });
    expect(bad.status).toBe(400);
  });

  it('refuses a bad game clock or event name, saying what is allowed', async () => {
    for (const [body, message] of [
      [{ clockMinutes: 0 }, /clockMinutes must be a whole number of minutes from 1 to 180/],
      [{ clockMinutes: 2.5 }, /clockMinutes must be a whole number/],
      [{ clockMinutes: 181 }, /clockMinutes must be a whole number/],
      [{ event: 'x'.repeat(61) }, /event must be a name of 1 to 60 characters/],
      [{ event: '  ' }, /event must be a name of 1 to 60 characters/],
      [{ event: 'a\u0007b' }, /an event name cannot hold line breaks or control characters/],
      [{ variant: 'scrabble-me', podium: 'EATRSN', clockMinutes: 5 }, /Scrabble Me .* no game clock/],
    ] as const) {
      // Checked as the server checks a request body (each game created over HTTP counts against the rate limit).
      expect(() => parseGameConfig({ players: ['A', 'B'], ...body })).toThrow(message);
    }
    expect((await api(`/api/games?event=${'y'.repeat(61)}`)).status).toBe(400);
    const timed = await api('/api/games', {
      method: 'POST',
      json: { players: ['A', 'B'], clockMinutes: 25, event: ' Club ' },
    });
    expect(timed.status).toBe(201);
    const listed = (await api('/api/games?event=Club')).body.games as { id: string; event?: string }[];
    expect(listed).toEqual([expect.objectContaining({ id: timed.body.id, event: 'Club' })]);
  });

  it('gives the scorekeeper a key per rack camera, which sends that player’s rack frames and nothing else', async () => {
    // Made by the service itself: this file's games over HTTP come close to the server's games-a-minute limit.
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    expect((await api(`/api/games/${id}/rack-keys`)).status).toBe(401);
    const keys = await api(`/api/games/${id}/rack-keys`, { token });
    expect(keys.status).toBe(200);
    const [ann, ben] = keys.body.keys as string[];
    const rackFrame = (player: number, key: string | undefined, query = '') =>
      api(`/api/games/${id}/frames?rack=${player}${query}`, {
        method: 'POST',
        ...(key ? { token: key } : {}),
        headers: { 'content-type': 'image/jpeg' },
        body: readFileSync(
          new URL('../fixtures/seat-game/move-02.jpg', import.meta.url),
        ) as unknown as BodyInit,
      });
    const sent = await rackFrame(1, ben!);
    expect(sent.status).toBe(200);
    expect(['looking', 'skipped']).toContain(sent.body.status);
    expect((await rackFrame(1, ann!)).body.error?.code).toBe('unauthorized');
    expect((await rackFrame(0, undefined)).status).toBe(401);
    expect((await rackFrame(0, ann!, '&endTurn=1')).body.error?.code).toBe('bad-request');
    expect((await rackFrame(4, ann!)).body.error?.message).toMatch(/rack must be a player/);
    // The key opens nothing of the scorekeeper's: no board frame, no action, no racks.
    expect((await postFrame(id, ann!, new Uint8Array([1]))).status).toBe(401);
    expect(
      (await api(`/api/games/${id}/actions`, { method: 'POST', token: ann!, json: { type: 'pass' } })).status,
    ).toBe(401);
    expect((await api(`/api/games/${id}/racks`, { token: ann! })).status).toBe(401);
  });

  it('refuses bad game settings with a clear error', async () => {
    for (const body of [
      { players: ['Solo'] },
      { players: ['A', 'B'], lang: 'xx' },
      { players: ['A', 'B'], capture: 'sometimes' },
      'nope',
    ]) {
      const res = await api('/api/games', { method: 'POST', json: body });
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('bad-request');
    }
    const broken = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"players":',
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('bad-request');
  });

  it('plays the demo game from photos, scoring each move, and re-derives the totals after a corrected square', async () => {
    const { id, token } = await newGame();
    expect((await postFrame(id, token, frame(0), false)).body.status).toBe('waiting');
    let held = 0;
    for (const i of [1, 2, 3]) {
      const posted = await postFrame(id, token, frame(i));
      if (posted.body.status === 'needs-confirmation') {
        // The camera was unsure of a square of the move: the scorekeeper fixes the squares in doubt and confirms.
        held++;
        const pending = ((await api(`/api/games/${id}`)).body as unknown as GameSnapshot).pending!;
        expect(pending.squares.length).toBeGreaterThan(0);
        const truth = readFileSync(join(demo, `${i}.txt`), 'utf8')
          .trimEnd()
          .split('\n');
        const ok = await api(`/api/games/${id}/actions`, {
          method: 'POST',
          token,
          json: { type: 'confirm', board: truth },
        });
        expect(ok.body.status).toBe('committed');
      } else expect(posted.body.status).toBe('committed');
    }
    expect(held).toBeLessThanOrEqual(1);
    let snap = (await api(`/api/games/${id}`)).body as unknown as GameSnapshot;
    expect(snap.players.map((p) => p.score)).toEqual([32 + 14, 9]);
    expect(snap.turns.map((t) => [t.position, t.points])).toEqual([
      ['8D', 32],
      ['9D', 9],
      ['H5', 14],
    ]);
    expect(snap.turns[1]!.words!.map((w) => w.word)).toEqual(['AN', 'WA', 'IN']);
    expect(snap.lastMove).toHaveLength(3);
    // The scorekeeper says the W on 8D was really an M: every total after it re-derives.
    const fixed = await api(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'correct', row: 7, col: 3, tile: 'M' },
    });
    expect(fixed.status).toBe(200);
    snap = fixed.body.snapshot as GameSnapshot;
    expect(snap.players.map((p) => p.score)).toEqual([28 + 14, 8]);
    expect(snap.board[7]).toBe('...MINDY.......');
    const gcg = await (await fetch(`${base}/api/games/${id}/gcg`)).text();
    expect(gcg.split('\n').filter((l) => l.startsWith('>'))).toEqual([
      '>Ann: MINDY 8D MINDY +28 28',
      '>Ben: AN 9D AN +8 8',
      '>Ann: JOE H5 JOE. +14 42',
    ]);
  });

  it('holds a reading that is not a legal move from the last board, and commits it once the scorekeeper confirms', async () => {
    const { id, token } = await newGame();
    await postFrame(id, token, frame(3)); // three moves at once: tiles in three lines
    const held = await postFrame(id, token, frame(3));
    expect(held.body.status).toBe('needs-confirmation');
    let snap = (await api(`/api/games/${id}`)).body as unknown as GameSnapshot;
    expect(snap.pending?.reasons[0]).toMatch(/not in one row or column/);
    // Where the board is in the held photo, for showing its squares zoomed.
    expect(snap.pending?.look?.corners).toHaveLength(4);
    expect(snap.players.map((p) => p.score)).toEqual([0, 0]);
    const photo = await fetch(base + snap.pending!.photo);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toMatch(/jpeg/);
    // The scorekeeper confirms what was really played first: WINDY.
    const confirmed = await api(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'confirm', board: readFileSync(join(demo, '1.txt'), 'utf8').trimEnd().split('\n') },
    });
    expect(confirmed.body.status).toBe('committed');
    snap = confirmed.body.snapshot as GameSnapshot;
    expect(snap.players.map((p) => p.score)).toEqual([32, 0]);
    expect(snap.pending).toBeNull();
  });

  it('records a forgotten End turn as the two moves it was, when only one order is legal', async () => {
    const { id, token } = await newGame();
    // The photo shows WINDY and AN: AN (9D) only makes sense after WINDY, so Ann played WINDY and Ben AN.
    await postFrame(id, token, frame(2), false);
    const posted = await postFrame(id, token, frame(2));
    expect(posted.body.status).toBe('committed');
    const snap = (await api(`/api/games/${id}`)).body as unknown as GameSnapshot;
    expect(snap.turns.map((t) => [t.player, t.position, t.points])).toEqual([
      [0, '8D', 32],
      [1, '9D', 9],
    ]);
    expect(snap.toMove).toBe(0);
  });

  it('turns an end of turn with nothing new into a pass, and undoes it; the empty board before the first move is no pass', async () => {
    const { id, token } = await newGame();
    const empty = await postFrame(id, token, frame(0));
    expect(empty.body).toMatchObject({
      status: 'unchanged',
      reasons: ['the board is empty and no move has been made yet: nothing recorded (Pass records a pass)'],
    });
    expect((await postFrame(id, token, frame(1))).body.status).toBe('committed');
    // The same board in another photo (the same picture encoded again): nothing new, a pass.
    const again = await sharp(frame(1)).jpeg({ quality: 90 }).toBuffer();
    expect((await postFrame(id, token, again)).body.status).toBe('committed');
    let snap = (await api(`/api/games/${id}`)).body as unknown as GameSnapshot;
    expect(snap.turns.map((t) => t.kind)).toEqual(['play', 'pass']);
    expect(snap.toMove).toBe(0);
    const undone = await api(`/api/games/${id}/actions`, { method: 'POST', token, json: { type: 'undo' } });
    snap = undone.body.snapshot as GameSnapshot;
    expect(snap.turns.map((t) => t.kind)).toEqual(['play']);
    expect(snap.toMove).toBe(1);
  });

  it('lets only the scorekeeper change a game, and refuses bad frames and actions clearly', async () => {
    const { id, token } = await newGame();
    expect((await postFrame(id, undefined, frame(1))).status).toBe(401);
    expect((await postFrame(id, 'wrong-token', frame(1))).status).toBe(401);
    expect((await api(`/api/games/${id}/actions`, { method: 'POST', json: { type: 'pass' } })).status).toBe(
      401,
    );
    const notImage = await postFrame(id, token, Buffer.from('hello'), true);
    expect([notImage.status, notImage.body.error?.code]).toEqual([422, 'bad-image']);
    const text = await postFrame(id, token, Buffer.from('hello'), true, 'text/plain');
    expect([text.status, text.body.error?.code]).toEqual([415, 'unsupported-media']);
    const huge = await postFrame(id, token, Buffer.alloc(11 * 1024 * 1024), true);
    expect([huge.status, huge.body.error?.code]).toEqual([413, 'too-large']);
    const action = await api(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'teleport' },
    });
    expect([action.status, action.body.error?.code]).toEqual([400, 'bad-request']);
    const square = await api(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'correct', row: 20, col: 0, tile: 'A' },
    });
    expect(square.status).toBe(400);
    expect((await api('/api/games/nope')).status).toBe(404);
    const snap = (await api(`/api/games/${id}`)).body as unknown as GameSnapshot;
    expect(snap.turns).toEqual([]);
  });
});

describe('games over WebSocket', () => {
  function connect(id: string) {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?game=${id}`);
    const messages: ServerMessage[] = [];
    const all: ServerMessage[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (raw) => {
      messages.push(JSON.parse(raw.toString()));
      all.push(messages.at(-1)!);
      for (const w of waiters.splice(0)) w();
    });
    const next = async (pred: (m: ServerMessage) => boolean, timeout = 5000): Promise<ServerMessage> => {
      const deadline = Date.now() + timeout;
      for (;;) {
        const found = messages.find(pred);
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error('no such message');
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
    };
    return { ws, next, seen: () => all, opened: new Promise((r) => ws.once('open', r)) };
  }

  it('sends a snapshot on connect, a new one after every change, and heartbeats, with rising seq', async () => {
    const { id, token } = await newGame();
    const client = connect(id);
    await client.opened;
    const first = await client.next((m) => m.type === 'snapshot');
    expect(first.seq).toBe(1);
    await api(`/api/games/${id}/actions`, { method: 'POST', token, json: { type: 'pass' } });
    const after = await client.next((m) => m.type === 'snapshot');
    expect(after.seq).toBeGreaterThan(first.seq);
    expect((after.data as GameSnapshot).turns.map((t) => t.kind)).toEqual(['pass']);
    const beat = await client.next((m) => m.type === 'heartbeat');
    expect(beat.seq).toBeGreaterThan(after.seq);
    client.ws.send(JSON.stringify({ type: 'resync' }));
    expect(((await client.next((m) => m.type === 'snapshot')).data as GameSnapshot).turns).toHaveLength(1);
    client.ws.close();
  });

  it('takes camera frames from the browser with the token, and answers bad messages with an error', async () => {
    const { id, token } = await newGame();
    const client = connect(id);
    await client.opened;
    await client.next((m) => m.type === 'snapshot');
    const viewer = connect(id);
    await viewer.opened;
    await viewer.next((m) => m.type === 'snapshot');
    // The camera page: it shows its own live view, and asks for where the grid was found only.
    const page = connect(id);
    await page.opened;
    await page.next((m) => m.type === 'snapshot');
    page.ws.send(JSON.stringify({ type: 'camera-view', data: { token, pictures: 'no' } }));
    expect((await page.next((m) => m.type === 'error')).data).toMatchObject({
      code: 'bad-request',
      message: expect.stringMatching(/pictures/),
    });
    page.ws.send(JSON.stringify({ type: 'camera-view', data: { token, pictures: false } }));
    client.ws.send('not json');
    expect((await client.next((m) => m.type === 'error')).data).toMatchObject({ code: 'bad-request' });
    client.ws.send(JSON.stringify({ type: 'camera-view', data: { token: 'wrong' } }));
    expect((await client.next((m) => m.type === 'error')).data).toMatchObject({ code: 'unauthorized' });
    client.ws.send(JSON.stringify({ type: 'camera-view', data: { token } }));
    client.ws.send(
      JSON.stringify({
        type: 'frame',
        data: { token: 'wrong', jpeg: frame(1).toString('base64'), endTurn: true },
      }),
    );
    expect((await client.next((m) => m.type === 'error')).data).toMatchObject({ code: 'unauthorized' });
    client.ws.send(
      JSON.stringify({ type: 'frame', data: { token, jpeg: frame(1).toString('base64'), endTurn: true } }),
    );
    // The scorekeeper's connection asked for the camera pictures, and sees them; a viewer's does not get them…
    const thumb = await client.next((m) => m.type === 'thumbnail', 15000);
    await viewer.next((m) => m.type === 'heartbeat');
    expect(viewer.seen().some((m) => m.type === 'thumbnail')).toBe(false);
    viewer.ws.close();
    expect(Buffer.from((thumb.data as { jpeg: string }).jpeg, 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    // The camera page gets the same frame's grid and size, without the picture.
    const grid = await page.next((m) => m.type === 'thumbnail', 15000);
    const { jpeg: _, ...where } = thumb.data as { jpeg: string };
    expect(grid.data).toEqual(where);
    page.ws.close();
    // …and the move, committed or held for the scorekeeper when the camera is unsure.
    const snap = await client.next(
      (m) =>
        m.type === 'snapshot' &&
        ((m.data as GameSnapshot).turns.length === 1 || (m.data as GameSnapshot).pending !== null),
      15000,
    );
    const data = snap.data as GameSnapshot;
    if (data.pending) expect(data.pending.board[7]).toBe('...WINDY.......');
    else expect(data.players[0]!.score).toBe(32);
    client.ws.close();
  });

  /** How long a WebSocket test waits for the server to have acted on a message (a loaded machine is slow). */
  const WAIT = { timeout: 5000 };

  it('leaves no camera watcher behind for a connection that closed while its token was checked', async () => {
    const { id, token } = await newGame();
    const session = await server.service.session(id);
    const authorize = server.service.authorize.bind(server.service);
    let release = () => {};
    const checked = new Promise<void>((r) => {
      release = r;
    });
    const spy = vi.spyOn(server.service, 'authorize').mockImplementation(async (game, given) => {
      await checked;
      return authorize(game, given);
    });
    try {
      const page = connect(id);
      await page.opened;
      await page.next((m) => m.type === 'snapshot');
      page.ws.send(JSON.stringify({ type: 'camera-view', data: { token } }));
      await vi.waitFor(() => expect(spy).toHaveBeenCalled(), WAIT);
      page.ws.close();
      // The server has seen it close (its viewer is gone) before the token is found good.
      await vi.waitFor(() => expect(session.watchers).toBe(0), WAIT);
      release();
      await spy.mock.results.at(-1)!.value;
      await new Promise((r) => setTimeout(r, 50));
      expect(session.watchers).toBe(0);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('never shows the cameras as unwatched while a page changes from pictures to the grid alone', async () => {
    const { id, token } = await newGame();
    const session = await server.service.session(id);
    // What this instance tells the others of the hall its pages watch (here no other instance: recorded).
    const told: unknown[] = [];
    session.pictures.sharePictures({
      watched: async () => false,
      send: () => {},
      watching: (w) => told.push(w),
    });
    const page = connect(id);
    await page.opened;
    await page.next((m) => m.type === 'snapshot');
    page.ws.send(JSON.stringify({ type: 'camera-view', data: { token } }));
    await vi.waitFor(() => expect(told).toEqual(['pictures']), WAIT);
    page.ws.send(JSON.stringify({ type: 'camera-view', data: { token, pictures: false } }));
    await vi.waitFor(() => expect(told).toEqual(['pictures', 'grid']), WAIT);
    page.ws.close();
    await vi.waitFor(() => expect(told).toEqual(['pictures', 'grid', false]), WAIT);
  });

  it('refuses a connection to a game that does not exist', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?game=missing`);
    const error = await new Promise((r) => ws.once('error', r));
    expect(String(error)).toMatch(/404/);
  });
});

describe('blanks', () => {
  const board = (row8: string) => Array.from({ length: 15 }, (_, r) => (r === 7 ? row8 : '.'.repeat(15)));
  const confirm = async (id: string, token: string, row8: string) =>
    (
      await api(`/api/games/${id}/actions`, {
        method: 'POST',
        token,
        json: { type: 'confirm', board: board(row8) },
      })
    ).body.snapshot as GameSnapshot;

  it('names a blank from the lexicon when only one letter fits', async () => {
    const { id, token } = await newGame();
    const snap = await confirm(id, token, '...JUM?O.......');
    expect(snap.board[7]).toBe('...JUMbO.......');
    expect(snap.players[0]!.score).toBe((2 * 8 + 1 + 3 + 0 + 1) * 2); // J on a double letter; the blank scores 0
  });

  it('leaves it unnamed when several letters fit, for the scorekeeper to name', async () => {
    const { id, token } = await newGame();
    expect((await confirm(id, token, '...WIN?Y.......')).board[7]).toBe('...WIN?Y.......'); // WINDY, WINEY, WINGY
    const named = await api(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'name-blank', row: 7, col: 6, letter: 'd' },
    });
    expect((named.body.snapshot as GameSnapshot).board[7]).toBe('...WINdY.......');
  });
});

describe('GET /api/health', () => {
  it('names the LAN addresses of a server listening on all interfaces, none for one on loopback only', async () => {
    const res = await api('/api/health');
    expect(res.status).toBe(200);
    // This server listens on 127.0.0.1 only: no address a phone could reach.
    expect(res.body).toMatchObject({ ok: true, name: 'tilecam', lan: [] });
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-lan-'));
    const open = await startServer({ port: 0, db: join(dir, 'games.db') });
    try {
      const body = (await (await fetch(`http://127.0.0.1:${open.port}/api/health`)).json()) as {
        lan: string[];
      };
      const ips = Object.values(networkInterfaces())
        .flat()
        .filter((a) => a && a.family === 'IPv4' && !a.internal);
      expect(body.lan).toHaveLength(ips.length);
      for (const url of body.lan) expect(url).toMatch(new RegExp(`^http://[\\d.]+:${open.port}$`));
    } finally {
      await open.close();
    }
  });
});
