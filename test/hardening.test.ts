/**
 * The service under a careless network and a hostile client: doubled End turns, camera streams that hang or point
 * where they must not, held photos, idle games dropped from memory and loaded again, paged listings, client faults
 * answered 4xx, and limits on game creation. A real server on an ephemeral port with a real SQLite file.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Socket,
  type Server as TcpServer,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../server/cli/serve.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { addressAllowed } from '../server/service/cameras/addresses.ts';
import { PartSplitter } from '../server/service/cameras/mjpeg.ts';
import { defaultLimits, type Limits } from '../server/service/limits.ts';
import { GameService } from '../server/service/service.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { SqliteStore } from '../server/store/sqlite.ts';

const demo = fileURLToPath(new URL('../fixtures/demo_game/', import.meta.url));
const frame = (i: number) => readFileSync(join(demo, `${i}.jpg`));
/** A photo of another game's board: no move from an empty board. */
const other = readFileSync(
  fileURLToPath(new URL('../fixtures/photos/overhead_green_cream.jpg', import.meta.url)),
);
const board = (i: number) =>
  readFileSync(join(demo, `${i}.txt`), 'utf8')
    .trimEnd()
    .split('\n');
const limits: Limits = { ...defaultLimits, sourceTimeoutMs: 600, framesPerSecond: 100, gamesPerMinute: 1000 };

let dir: string;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tilecam-hardening-'));
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: join(dir, 'games.db'),
    limits,
    sources: 'any',
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

type Reply = {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string } };
};

async function call(
  url: string,
  init: RequestInit & { token?: string; json?: unknown } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url.startsWith('http') ? url : base + url, {
    ...init,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}

async function newGame(at = base): Promise<{ id: string; token: string }> {
  const res = await call(`${at}/api/games`, { method: 'POST', json: { players: ['Ann', 'Ben'] } });
  expect(res.status).toBe(201);
  return res.body as unknown as { id: string; token: string };
}

const postFrame = (id: string, token: string, bytes: Uint8Array, query = '?endTurn=1') =>
  call(`/api/games/${id}/frames${query}`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'image/jpeg' },
    body: bytes as unknown as BodyInit,
  });

/**
 * The camera watching as the first move is laid (a frame that only feeds the views), so its grid is known as it
 * is in a real game: the move is then read with confidence.
 */
async function warm(id: string, token: string) {
  expect((await postFrame(id, token, frame(1), '')).body.status).toBe('waiting');
}

const snapshot = async (id: string) => (await call(`/api/games/${id}`)).body as unknown as GameSnapshot;
const photos = (id: string) =>
  existsSync(join(dir, 'photos', id)) ? readdirSync(join(dir, 'photos', id)).sort() : [];

describe('a doubled End turn', () => {
  it('records one turn when both requests carry the version they were made at', async () => {
    const { id, token } = await newGame();
    await warm(id, token);
    const replies = await Promise.all([
      postFrame(id, token, frame(1), '?endTurn=1&version=0'),
      postFrame(id, token, frame(1), '?endTurn=1&version=0'),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(replies.find((r) => r.status === 409)?.body.error?.code).toBe('stale');
    const snap = await snapshot(id);
    expect(snap.turns.map((t) => t.kind)).toEqual(['play']);
    expect(snap.version).toBe(1);
    // Decided by the camera (its N at 8F is unsure: the word decides it), and recorded so.
    expect(snap.turns[0]?.decided).toMatchObject({
      how: 'context',
      squares: [{ row: 7, col: 5, tile: 'N' }],
    });
    expect((await server.service.store.getGame(id))!.events[0]?.decision).toEqual(snap.turns[0]?.decided);
  });

  it('records one turn when the same frame is sent twice at once without a version', async () => {
    const { id, token } = await newGame();
    await warm(id, token);
    const replies = await Promise.all([postFrame(id, token, frame(1)), postFrame(id, token, frame(1))]);
    expect(replies.map((r) => r.body.status)).toEqual(['committed', 'unchanged']);
    expect((await snapshot(id)).turns.map((t) => t.kind)).toEqual(['play']);
  });

  it('records one turn when the End turn button is pressed twice at once', async () => {
    const { id, token } = await newGame();
    await warm(id, token);
    const press = () =>
      call(`/api/games/${id}/actions`, { method: 'POST', token, json: { type: 'end-turn' } });
    const replies = await Promise.all([press(), press()]);
    expect(replies.map((r) => r.body.status)).toEqual(['committed', 'unchanged']);
    expect((await snapshot(id)).turns.map((t) => t.kind)).toEqual(['play']);
    // A pass after it is still a pass: a new frame, a new press.
    expect((await postFrame(id, token, frame(2).subarray(0), '?endTurn=1&version=1')).status).toBe(200);
  });

  it('refuses any action made against a version the game has moved past', async () => {
    const { id, token } = await newGame();
    const pass = (version: number) =>
      call(`/api/games/${id}/actions`, { method: 'POST', token, json: { type: 'pass', version } });
    const [a, b] = await Promise.all([pass(0), pass(0)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await snapshot(id)).turns).toHaveLength(1);
    expect((await pass(-1)).status).toBe(400);
  });
});

/** A held reading's photo: named so that no other instance holding a reading of the game takes the same name. */
const HELD_PHOTO = /^pending-[0-9a-f-]{36}\.jpg$/;

describe('held readings and their photos', () => {
  it('keeps one photo per held reading, and the confirmed one becomes its move’s photo', async () => {
    const { id, token } = await newGame();
    expect((await postFrame(id, token, frame(3))).body.status).toBe('needs-confirmation');
    const [first] = photos(id);
    expect(photos(id)).toEqual([expect.stringMatching(HELD_PHOTO)]);
    expect(((await snapshot(id)).pending as { photo?: string }).photo).toContain(first);
    // A different reading held in its place (another board altogether): the first photo goes.
    expect((await postFrame(id, token, other)).body.status).toBe('needs-confirmation');
    expect(photos(id)).toEqual([expect.stringMatching(HELD_PHOTO)]);
    expect(photos(id)).not.toEqual([first]);
    const confirmed = await call(`/api/games/${id}/actions`, {
      method: 'POST',
      token,
      json: { type: 'confirm', board: board(1) },
    });
    expect(confirmed.body.status).toBe('committed');
    expect(photos(id)).toEqual(['event-1.jpg']);
    const stored = (await server.service.store.getGame(id))!;
    expect(stored.events[0]?.photo).toBe(join('photos', id, 'event-1.jpg'));
    expect(readFileSync(join(dir, 'photos', id, 'event-1.jpg'))).toEqual(other);
  });

  it('removes a held reading’s photo when another action moves the game on', async () => {
    const { id, token } = await newGame();
    await postFrame(id, token, frame(3));
    expect(photos(id)).toEqual([expect.stringMatching(HELD_PHOTO)]);
    expect(
      (await call(`/api/games/${id}/actions`, { method: 'POST', token, json: { type: 'pass' } })).status,
    ).toBe(200);
    expect(photos(id)).toEqual([]);
    expect((await snapshot(id)).pending).toBeNull();
  });

  it('removes photos of held readings a restart left behind, when the game is loaded', async () => {
    const store = new SqliteStore(join(dir, 'games.db'));
    const service = new GameService(store, { limits });
    const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await store.savePhoto(id, 'pending-7.jpg', frame(0));
    await store.savePhoto(id, 'event-1.jpg', frame(0));
    await service.get(id);
    expect(photos(id)).toEqual(['event-1.jpg']);
    service.stopAll();
  });

  it('holds a reading whose photo cannot be kept without it, and records a held reading whose photo is missing', async () => {
    const failing = mkdtempSync(join(tmpdir(), 'tilecam-photo-fails-'));
    // A store that cannot keep a held reading's photo (a disk full, a database error) after the reading is stored.
    const store = new (class extends SqliteStore {
      override async savePhoto(gameId: string, name: string, bytes: Uint8Array) {
        if (name.startsWith('pending-')) throw new Error('no space left on device');
        return super.savePhoto(gameId, name, bytes);
      }
    })(join(failing, 'games.db'));
    const service = new GameService(store, { limits });
    const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    expect((await service.submitFrame(id, frame(3), true)).status).toBe('needs-confirmation');
    const pending = ((await service.get(id)).snapshot() as GameSnapshot).pending;
    expect(pending).not.toBeNull();
    expect(pending?.photo || undefined).toBeUndefined();
    const held = (await store.getGame(id))!.held![0]!;
    expect(held.photo).toBeUndefined();
    // And a reading stored naming a photo that a crash kept from being saved, the service started again: confirmed,
    // the move is recorded and the reading let go (the missing photo is said in the log).
    service.stopAll();
    await store.setHeld(id, 0, { ...held, photo: `photos/${id}/pending-never-saved.jpg` });
    const again = new GameService(store, { limits });
    expect((await again.act(id, { type: 'confirm', board: board(1) })).status).toBe('committed');
    const stored = (await store.getGame(id))!;
    expect(stored.events).toHaveLength(1);
    expect(stored.held).toEqual([]);
    expect(((await again.get(id)).snapshot() as GameSnapshot).pending).toBeNull();
    again.stopAll();
    await store.close();
  });

  it('stops keeping photos once a game has its most, and still records the moves', async () => {
    const small = mkdtempSync(join(tmpdir(), 'tilecam-photo-cap-'));
    const store = new SqliteStore(join(small, 'games.db'), { perGame: frame(1).length + 10 });
    const service = new GameService(store, { limits });
    const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    expect((await service.submitFrame(id, frame(1), false)).status).toBe('waiting');
    expect((await service.submitFrame(id, frame(1), true)).status).toBe('committed');
    expect((await service.submitFrame(id, frame(2), true)).status).toBe('committed');
    const events = (await store.getGame(id))!.events;
    expect(events.map((e) => e.photo)).toEqual([join('photos', id, 'event-1.jpg'), undefined]);
    service.stopAll();
    await store.close();
  });
});

describe('games in memory', () => {
  it('drops a game nobody watches, and loads it again exactly as it was', async () => {
    const store = new SqliteStore(join(dir, 'games.db'));
    const service = new GameService(store, { limits: { ...limits, idleMs: 1000 } });
    const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await service.act(id, { type: 'confirm', board: board(1) });
    await service.act(id, { type: 'pass' });
    const before = (await service.get(id)).snapshot();
    service.sweep(Date.now() + 500);
    expect(service.loaded).toBe(1); // not idle long enough
    service.sweep(Date.now() + 2000);
    expect(service.loaded).toBe(0);
    expect((await service.get(id)).snapshot()).toEqual(before);
    expect(service.loaded).toBe(1);
    service.stopAll();
  });

  it('keeps a watched game in memory; a game holding a reading is dropped and comes back with it', async () => {
    const store = new SqliteStore(join(dir, 'games.db'));
    const service = new GameService(store, { limits: { ...limits, idleMs: 1000 } });
    const { id: watched } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const { id: holding } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const stop = (await service.get(watched)).subscribe(() => {});
    expect((await service.submitFrame(holding, frame(3), true)).status).toBe('needs-confirmation');
    const held = ((await service.get(holding)).snapshot() as GameSnapshot).pending;
    expect(held).not.toBeNull();
    service.sweep(Date.now() + 2000);
    expect(service.loaded).toBe(1);
    expect(((await service.get(holding)).snapshot() as GameSnapshot).pending).toEqual(held);
    expect(photos(holding)).toEqual([expect.stringMatching(HELD_PHOTO)]);
    stop();
    service.sweep(Date.now() + 4000);
    expect(service.loaded).toBe(0);
    service.stopAll();
  });

  it('keeps at most the limit of unwatched games loaded, the least recently used going first', async () => {
    const store = new SqliteStore(join(dir, 'games.db'));
    const service = new GameService(store, { limits: { ...limits, liveGames: 3 } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await service.create(parseGameConfig({ players: ['A', 'B'] }))).id);
    const sessions: unknown[] = [];
    for (const id of ids) sessions.push(await service.get(id));
    expect(service.loaded).toBe(3);
    // The games just used are the ones kept, and the same objects come back (not copies loaded again).
    for (const i of [2, 3, 4]) expect(await service.get(ids[i]!)).toBe(sessions[i]);
    expect(service.loaded).toBe(3);
    service.stopAll();
  });
});

describe('the game list', () => {
  it('comes a page at a time, newest first, filtered by live or ended', async () => {
    const listing = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: join(mkdtempSync(join(tmpdir(), 'tilecam-list-')), 'g.db'),
      limits,
    });
    const at = `http://127.0.0.1:${listing.port}`;
    try {
      const games: { id: string; token: string }[] = [];
      for (let i = 0; i < 5; i++) games.push(await newGame(at));
      const made = games.map((g) => g.id);
      const ended = await newGame(at);
      await call(`${at}/api/games/${ended.id}/actions`, {
        method: 'POST',
        token: ended.token,
        json: { type: 'end', racks: ['', ''] },
      });
      const seen: string[] = [];
      let next: string | null = null;
      do {
        const page: Reply = await call(`${at}/api/games?limit=2${next ? `&after=${next}` : ''}`);
        expect(page.status).toBe(200);
        const games = page.body.games as { id: string }[];
        expect(games.length).toBeLessThanOrEqual(2);
        seen.push(...games.map((g) => g.id));
        next = page.body.next as string | null;
      } while (next);
      expect(seen.sort()).toEqual([...made, ended.id].sort());
      const endedOnly = await call(`${at}/api/games?status=ended`);
      expect((endedOnly.body.games as { id: string; ended: boolean }[]).map((g) => [g.id, g.ended])).toEqual([
        [ended.id, true],
      ]);
      expect(((await call(`${at}/api/games?status=live`)).body.games as unknown[]).length).toBe(5);
      // The listing shows each game's totals once it has an event.
      const listed = (await call(`${at}/api/games`)).body.games as {
        id: string;
        scores: number[] | null;
        abandoned: boolean;
        archived: boolean;
      }[];
      expect(listed.find((g) => g.id === ended.id)).toMatchObject({ scores: [0, 0], abandoned: false });
      expect(listed.find((g) => g.id === made[0])).toMatchObject({ scores: null, archived: false });
      // A game being played cannot be archived; an ended one can, by its scorekeeper only, and comes back.
      const archive = (id: string, token: string, method = 'POST') =>
        call(`${at}/api/games/${id}/archive`, { method, token });
      expect((await archive(games[0]!.id, games[0]!.token)).status).toBe(409);
      expect((await archive(ended.id, games[0]!.token)).status).toBe(401);
      expect((await archive(ended.id, ended.token)).status).toBe(200);
      const ids = async (query = '') =>
        ((await call(`${at}/api/games${query}`)).body.games as { id: string }[]).map((g) => g.id);
      expect(await ids()).not.toContain(ended.id);
      expect(await ids('?status=archived')).toEqual([ended.id]);
      expect((await archive(ended.id, ended.token, 'DELETE')).status).toBe(200);
      expect(await ids()).toContain(ended.id);
      for (const bad of ['limit=0', 'limit=101', 'limit=x', 'status=over', 'after=%21%21'])
        expect((await call(`${at}/api/games?${bad}`)).status).toBe(400);
    } finally {
      await listing.close();
    }
  });

  it('limits how many games one client creates a minute', async () => {
    const few = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: join(mkdtempSync(join(tmpdir(), 'tilecam-create-')), 'g.db'),
      limits: { ...limits, gamesPerMinute: 3 },
    });
    const at = `http://127.0.0.1:${few.port}`;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await call(`${at}/api/games`, { method: 'POST', json: { players: ['A', 'B'] } })).status,
        );
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      // Without a trusted proxy, an X-Forwarded-For header written by the client changes nothing.
      const forged = await call(`${at}/api/games`, {
        method: 'POST',
        json: { players: ['A', 'B'] },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(forged.status).toBe(429);
    } finally {
      await few.close();
    }
  });

  it('counts each client behind a trusted load balancer (--trust-proxy), not the balancer', async () => {
    const behind = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: join(mkdtempSync(join(tmpdir(), 'tilecam-proxy-')), 'g.db'),
      limits: { ...limits, gamesPerMinute: 2 },
      trustProxy: parseServerArgs(['--trust-proxy', 'loopback'], false).trustProxy!,
    });
    const at = `http://127.0.0.1:${behind.port}`;
    const create = (client: string) =>
      call(`${at}/api/games`, {
        method: 'POST',
        json: { players: ['A', 'B'] },
        headers: { 'x-forwarded-for': client },
      }).then((r) => r.status);
    try {
      expect([await create('203.0.113.1'), await create('203.0.113.1'), await create('203.0.113.1')]).toEqual(
        [201, 201, 429],
      );
      // Another client behind the same balancer has a budget of its own.
      expect(await create('203.0.113.2')).toBe(201);
    } finally {
      await behind.close();
    }
  });

  it('refuses a --trust-proxy that names no proxy, clearly', () => {
    // Express's parser would read 0x1 as 0.0.0.1 and 10.1 as 10.0.0.1: never what was meant.
    for (const bad of [
      'garbage',
      '',
      '0',
      '10.0.0.0/99',
      'true',
      '2, loopback',
      '0x1',
      '10.1',
      '010.0.0.1x',
      '10.0.0.0/8/8',
      '::1/129',
      '10.0.0.0/255.0.0.x',
      'loopback,',
      '::ffff:0x1.0.0.1',
      '::ffff:010.0.0.1',
      '::ffff:10.0.0.0/8',
      '::ffff:a00:0/64',
      'fe80::1%eth0',
    ])
      expect(() => parseServerArgs(['--trust-proxy', bad], false), bad).toThrow(/--trust-proxy/);
    expect(parseServerArgs(['--trust-proxy', '2'], false).trustProxy).toBe(2);
    for (const good of [
      'loopback, 10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8, ::1',
      '10.0.0.0/255.0.0.0',
      '::ffff:10.0.0.1',
      '::ffff:10.0.0.0/104',
      '::ffff:a00:0/104',
    ])
      expect(parseServerArgs(['--trust-proxy', good], false).trustProxy).toBe(good);
  });

  it('checks trustProxy given to startServer from code as the command line does, before opening anything', async () => {
    for (const trustProxy of [0, 2.5, 10, '0x1', 'everyone']) {
      const db = join(mkdtempSync(join(tmpdir(), 'tilecam-proxy-')), 'g.db');
      await expect(
        startServer({ port: 0, host: '127.0.0.1', db, trustProxy }),
        String(trustProxy),
      ).rejects.toThrow(/--trust-proxy/);
      expect(existsSync(db), String(trustProxy)).toBe(false);
    }
  });
});

describe('client faults', () => {
  it('are answered 4xx with the JSON error envelope, never 500', async () => {
    const { id, token } = await newGame();
    const cases: [string, RequestInit, number][] = [
      ['/api/games/%ff', {}, 400],
      ['/api/games/%zz/gcg', {}, 400],
      [`/api/games/${id}/photos/%zz.jpg`, {}, 400],
      ['/%E0%A4%A', {}, 404],
      ['/no-such-page', {}, 404],
      [
        '/api/games',
        { method: 'POST', headers: { 'content-type': 'application/json; charset=klingon' }, body: '{}' },
        415,
      ],
      [
        '/api/games',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'x-unknown' },
          body: '{}',
        },
        415,
      ],
      [
        '/api/games',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: 'not gzip',
        },
        400,
      ],
      [
        '/api/games',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: gzipSync('{"players":').subarray(0, 15),
        },
        400,
      ],
      [
        `/api/games/${id}/actions`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{"type":',
        },
        400,
      ],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(base + path, init);
      const body = (await res.json()) as { error?: { code: string; message: string } };
      expect([path, res.status]).toEqual([path, status]);
      expect(typeof body.error?.message).toBe('string');
    }
  });
});

describe('camera streams', () => {
  let hanging: TcpServer;
  let sockets: Socket[] = [];
  let redirecting: Server;
  beforeAll(async () => {
    // A camera that accepts the connection and never says anything.
    hanging = createTcpServer((s) => sockets.push(s));
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    redirecting = createHttpServer((_req, res) => {
      res.writeHead(302, {
        location: `http://localhost:${(redirecting.address() as AddressInfo).port}/elsewhere`,
      });
      res.end();
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    sockets = [];
    await new Promise((r) => hanging.close(r));
    redirecting.closeAllConnections();
    await new Promise((r) => redirecting.close(r));
  });

  const startSource = (id: string, token: string, url: string, at = base) =>
    call(`${at}/api/games/${id}/source`, { method: 'POST', token, json: { url } });

  /** The stream once stopped, as its scorekeeper reads it (with why); every viewer is told only that it stopped. */
  async function stoppedSource(id: string, token: string, at = base) {
    for (let i = 0; i < 40; i++) {
      const snap = (await call(`${at}/api/games/${id}`)).body as unknown as GameSnapshot;
      const source = snap.sources[0];
      if (source?.state === 'stopped') {
        expect(source.error).toBe('the camera stream stopped');
        const detail = await call(`${at}/api/games/${id}/source`, { token });
        expect((await call(`${at}/api/games/${id}/source`)).status).toBe(401);
        return (detail.body as unknown as { sources: GameSnapshot['sources'] }).sources[0]!;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the source never stopped');
  }

  it('that never answers is dropped after the timeout, and the scorekeeper is told why', async () => {
    const { id, token } = await newGame();
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/video`;
    expect((await startSource(id, token, url)).status).toBe(202);
    expect((await snapshot(id)).sources).toEqual([
      {
        camera: 0,
        host: `127.0.0.1:${(hanging.address() as AddressInfo).port}`,
        state: 'pulling',
        error: null,
      },
    ]);
    const source = await stoppedSource(id, token);
    expect(source.error).toMatch(/sent nothing for 0.6 s/);
  });

  it('that trickles bytes but never a whole frame is dropped, and the scorekeeper is told why', async () => {
    const drip = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
      res.write('--frame\r\nContent-Type: image/jpeg\r\n\r\n');
      const timer = setInterval(() => res.write('x'), 200);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => drip.listen(0, '127.0.0.1', r));
    try {
      const { id, token } = await newGame();
      const url = `http://127.0.0.1:${(drip.address() as AddressInfo).port}/video`;
      expect((await startSource(id, token, url)).status).toBe(202);
      expect((await stoppedSource(id, token)).error).toMatch(/sent no whole frame for 2 s/);
    } finally {
      drip.closeAllConnections();
      await new Promise((r) => drip.close(r));
    }
  });

  it('that redirects to another host is refused', async () => {
    const { id, token } = await newGame();
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/video`;
    expect((await startSource(id, token, url)).status).toBe(202);
    expect((await stoppedSource(id, token)).error).toMatch(/redirected to another host \(localhost:/);
  });

  it('may not reach this machine, link-local or metadata addresses under the default policy, however spelled', async () => {
    const lan = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: join(mkdtempSync(join(tmpdir(), 'tilecam-lan-')), 'g.db'),
      limits,
    });
    const at = `http://127.0.0.1:${lan.port}`;
    try {
      const { id, token } = await newGame(at);
      for (const url of [
        'http://127.0.0.1:9/',
        'http://127.1:9/',
        'http://2130706433:9/',
        'http://0x7f000001:9/',
        'http://[::1]:9/',
        'http://[::ffff:127.0.0.1]:9/',
        'http://0.0.0.0:9/',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::127.0.0.1]:9/',
        'http://[64:ff9b::127.0.0.1]:9/',
        'http://100.100.100.200/latest/meta-data/',
        'http://[fd00:ec2::254]/latest/meta-data/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'ftp://192.168.1.2/',
      ]) {
        const res = await startSource(id, token, url, at);
        expect([url, res.status]).toEqual([url, 400]);
      }
      // A name is checked on the connection itself: localhost resolves to loopback, refused, and reported.
      expect((await startSource(id, token, 'http://localhost:9/video', at)).status).toBe(202);
      expect((await stoppedSource(id, token, at)).error).toMatch(
        /reaches (127\.0\.0\.1|::1).*policy \(lan\)/,
      );
    } finally {
      await lan.close();
    }
  });

  it('are capped in number', async () => {
    const two = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: join(mkdtempSync(join(tmpdir(), 'tilecam-cap-')), 'g.db'),
      limits: { ...limits, sources: 2, sourceTimeoutMs: 30_000 },
      sources: 'any',
    });
    const at = `http://127.0.0.1:${two.port}`;
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/video`;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { id, token } = await newGame(at);
        statuses.push((await startSource(id, token, url, at)).status);
      }
      expect(statuses).toEqual([202, 202, 409]);
    } finally {
      await two.close();
    }
  });
});

describe('the source policy', () => {
  it('sorts addresses into what each policy allows', () => {
    const cases: [string, boolean, boolean, boolean][] = [
      // address, public, lan, any
      ['8.8.8.8', true, true, true],
      ['192.168.1.20', false, true, true],
      ['10.0.0.7', false, true, true],
      ['100.101.102.103', false, true, true],
      ['fd12:3456::1', false, true, true],
      ['127.0.0.1', false, false, true],
      ['::1', false, false, true],
      ['::ffff:127.0.0.1', false, false, true],
      ['::ffff:192.168.0.1', false, true, true],
      ['169.254.169.254', false, false, true],
      ['0.0.0.0', false, false, true],
      ['::7f00:1', false, false, true],
      ['64:ff9b::7f00:1', false, false, true],
      ['64:ff9b::808:808', true, true, true],
      ['100.100.100.200', false, false, true],
      ['fd00:ec2::254', false, false, true],
    ];
    for (const [address, pub, lan, any] of cases) {
      expect([
        address,
        addressAllowed(address, 'public'),
        addressAllowed(address, 'lan'),
        addressAllowed(address, 'any'),
      ]).toEqual([address, pub, lan, any]);
      expect(addressAllowed(address, 'none')).toBe(false);
    }
  });
});

describe('an MJPEG stream cut into frames', () => {
  it('finds every part however the bytes arrive, and refuses a part over the cap', () => {
    const part = (n: number) =>
      Buffer.concat([
        Buffer.from(`\r\nContent-Type: image/jpeg\r\n\r\n`),
        Buffer.alloc(n, n % 251),
        Buffer.from('\r\n'),
      ]);
    const stream = Buffer.concat([
      Buffer.from('junk'),
      ...[5, 3000, 70_000, 1].flatMap((n) => [Buffer.from('--frame'), part(n)]),
      Buffer.from('--frame'),
    ]);
    for (const size of [1, 7, 4096, stream.length]) {
      const splitter = new PartSplitter(Buffer.from('--frame'), 100_000);
      const found: number[] = [];
      for (let i = 0; i < stream.length; i += size)
        for (const p of splitter.push(stream.subarray(i, i + size))) found.push(p.length);
      expect([size, found]).toEqual([size, [5, 3000, 70_000, 1].map((n) => part(n).length)]);
    }
    const small = new PartSplitter(Buffer.from('--frame'), 1000);
    expect(() => [...small.push(Buffer.concat([Buffer.from('--frame'), Buffer.alloc(5000)]))]).toThrow(
      /over/,
    );
  });
});
