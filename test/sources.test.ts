/**
 * The camera streams of a hall, shared by its instances through Redis (server/service/hall/sources.ts): two game services
 * on one database, each with its own connection to a Redis started by the test, and a fake IP camera serving MJPEG
 * on loopback. A stream started on one instance shows on the other; stopped on the other, it stops; its instance
 * killed, the other takes it over; one that fails shows why everywhere.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedis } from '../server/dev/servers.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { ServiceError } from '../server/service/errors.ts';
import { RedisBus } from '../server/service/hall/bus.ts';
import { entryOf, SharedSources, type SourceEntry, STOPPED_KEEP_MS } from '../server/service/hall/sources.ts';
import { defaultLimits, type Limits } from '../server/service/limits.ts';
import { GameService } from '../server/service/service.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { SqliteStore } from '../server/store/sqlite.ts';

const photo = readFileSync(new URL('../fixtures/demo_game/1.jpg', import.meta.url));
let redis: RunningRedis;
let camera: Server;
let cameraUrl: string;
/** The fake camera's clients now, and how many have connected in all. */
const clients = { open: 0, total: 0 };
const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-sources-')), 'games.db'));
const opened: { bus: RedisBus; service: GameService }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // A camera aimed away from the board: a grey picture, no board in it.
  const away = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#777' } })
    .jpeg()
    .toBuffer();
  // The board's picture at /video (its clients counted), the grey one at /away, as MJPEG, a frame every 200 ms.
  camera = createServer((req, res) => {
    const picture = req.url === '/video' ? photo : req.url === '/away' ? away : undefined;
    if (!picture) {
      res.writeHead(404).end();
      return;
    }
    const counted = picture === photo;
    if (counted) {
      clients.open++;
      clients.total++;
    }
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
    const timer = setInterval(() => {
      res.write(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${picture.length}\r\n\r\n`);
      res.write(picture);
      res.write('\r\n');
    }, 200);
    res.on('close', () => {
      if (counted) clients.open--;
      clearInterval(timer);
    });
  });
  await new Promise<void>((r) => camera.listen(0, '127.0.0.1', r));
  cameraUrl = `http://127.0.0.1:${(camera.address() as AddressInfo).port}/video`;
}, 30_000);

afterAll(async () => {
  for (const { bus, service } of opened) {
    await service.stopAll();
    await bus.close();
  }
  camera.closeAllConnections();
  await new Promise((r) => camera.close(r));
  store.close();
  await redis?.stop();
});

/** An instance of the hall: short leases and scans, so that a takeover comes within a second or two. */
async function instance(limits?: Partial<Limits>): Promise<GameService> {
  const bus = await RedisBus.open(redis.url);
  const service = new GameService(store, {
    bus,
    ...(limits ? { limits: { ...defaultLimits, ...limits } } : {}),
    sources: 'any', // the fake camera is on loopback
    sharedSources: new SharedSources(bus.redis, bus.instance, { leaseMs: 2000, scanMs: 150 }),
  });
  opened.push({ bus, service });
  return service;
}

const sourcesOn = async (service: GameService, id: string) =>
  ((await service.get(id)).snapshot() as GameSnapshot).sources;

/** End turn pressed on `service` (until a frame of the stream has come) records a move from the camera's picture
 *  (the first move, or held for a click); the stream is then stopped there, and let go. */
async function endTurnReadsTheStream(service: GameService, id: string, name: string): Promise<void> {
  let ended: string | undefined;
  await until(`End turn on ${name} reads the stream`, async () => {
    ended = await service.act(id, { type: 'end-turn' }).then(
      (r) => r.status,
      () => undefined,
    );
    return ended !== undefined;
  });
  expect(['committed', 'needs-confirmation']).toContain(ended);
  expect(await service.stopSource(id)).toBe(true);
  await until(`${name} lets it go`, () => clients.open === 0);
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

describe('camera streams shared by a hall’s instances', () => {
  it('shows a stream on every instance, stops it from any, and takes it over when its instance dies', async () => {
    const [a, b] = [await instance(), await instance()];
    const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await b.get(id);
    const before = clients.total;
    await a.startSource(id, cameraUrl, 300);
    await until('A pulls the stream', () => clients.open === 1);
    const host = new URL(cameraUrl).host;
    await until('B shows it pulled', async () => (await sourcesOn(b, id))[0]?.state === 'pulling');
    expect(await sourcesOn(b, id)).toEqual([{ camera: 0, host, state: 'pulling', error: null }]);

    // Stopped from B: A lets it go at its next scan, and neither shows it any more.
    expect(await b.stopSource(id)).toBe(true);
    await until('A lets it go', () => clients.open === 0);
    await until('A shows none', async () => (await sourcesOn(a, id)).length === 0);
    expect(await sourcesOn(b, id)).toEqual([]);
    expect(await b.stopSource(id)).toBe(false);

    // Started again on A, and A dies as a killed process would: no more scans, its connection gone, its lease
    // left to run out. B takes the stream over and reads its frames.
    await a.startSource(id, cameraUrl, 300);
    await until('A pulls it again', () => clients.open === 1);
    const dead = (
      a as unknown as { streams: { scanTimer: NodeJS.Timeout; sources: Map<string, AbortController> } }
    ).streams;
    clearInterval(dead.scanTimer);
    for (const controller of dead.sources.values()) controller.abort();
    dead.sources.clear();
    await until('B takes it over', () => clients.open === 1 && clients.total >= before + 3);
    // One puller at a time, from then on.
    for (let k = 0; k < 10; k++) {
      expect(clients.open).toBe(1);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await sourcesOn(b, id)).toEqual([{ camera: 0, host, state: 'pulling', error: null }]);
    // Its frames reach the game on B: End turn pressed there reads the camera's picture (the first move).
    await endTurnReadsTheStream(b, id, 'B');
  }, 40_000);

  it('says, for End turn on an instance that gets none of the stream’s frames, where they arrive (no workers)', async () => {
    const [a, b] = [await instance(), await instance()];
    const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await b.get(id);
    await a.startSource(id, cameraUrl, 300);
    await until('B shows it pulled', async () => (await sourcesOn(b, id))[0]?.state === 'pulling');
    const refused = await b.act(id, { type: 'end-turn' }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 'not-allowed' });
    // (toMatchObject does not look at an Error's message.)
    expect((refused as Error).message).toMatch(
      /another server of the hall pulls this camera's stream.*--queue/,
    );
    // Where the frames arrive, End turn reads them.
    await endTurnReadsTheStream(a, id, 'A');
  }, 30_000);

  it('says, for End turn on a stream that shows no board, that no board was seen (one server, no hall)', async () => {
    const alone = new GameService(store, { sources: 'any' });
    try {
      const { id } = await alone.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      await alone.startSource(id, cameraUrl.replace('/video', '/away'), 100);
      let refused: unknown;
      await until('a frame read', async () => {
        refused = await alone.act(id, { type: 'end-turn' }).catch((err: unknown) => err);
        return /no board/.test((refused as Error).message);
      });
      expect(refused).toMatchObject({ code: 'not-allowed' });
      expect((refused as Error).message).toMatch(/has shown no board yet/);
      expect((refused as Error).message).not.toMatch(/hall|--queue/);
    } finally {
      await alone.stopAll();
    }
  }, 30_000);

  it('shows everywhere that a stream stopped (its scorekeeper why), and nobody pulls it again until started again', async () => {
    const [a, b] = [await instance(), await instance()];
    const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await b.get(id);
    const missing = cameraUrl.replace('/video', '/nothing');
    await a.startSource(id, missing, 300);
    await until('B shows it stopped', async () => (await sourcesOn(b, id))[0]?.state === 'stopped');
    const [shown] = await sourcesOn(b, id);
    expect(shown?.error).toBe('the camera stream stopped');
    expect((await b.get(id)).sources.detail()[0]?.error).toMatch(/404/);
    expect(await sourcesOn(a, id)).toEqual([shown]);
    // Scans go on: it stays stopped.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await sourcesOn(b, id))[0]?.state).toBe('stopped');
    expect(await a.stopSource(id)).toBe(true);
    await until('B shows none', async () => (await sourcesOn(b, id)).length === 0);
  }, 30_000);
});

describe('camera streams when Redis loses its data, or an instance stops', () => {
  it('pulls on through a Redis that lost the list (restarted without its data, or flushed): listed again', async () => {
    const [a, b] = [await instance(), await instance()];
    const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await b.get(id);
    await a.startSource(id, cameraUrl, 300);
    await until('A pulls the stream', () => clients.open === 1);
    await until('B shows it pulled', async () => (await sourcesOn(b, id))[0]?.state === 'pulling');
    const connected = clients.total;
    const raw = new Redis(redis.url);
    try {
      await raw.flushall();
      // Both instances scan several times: A lists its stream again and pulls on, on the same connection; B shows
      // it and does not take it (A's lease is back).
      await until('listed again', async () => (await raw.hexists('tilecam:sources', `${id}/0`)) === 1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(clients.open).toBe(1);
      expect(clients.total).toBe(connected);
      expect(await raw.get(`tilecam:source-owner:${id}/0`)).not.toBeNull();
      expect((await sourcesOn(b, id))[0]?.state).toBe('pulling');
      // Flushed again after the epoch was renamed: the same.
      await raw.flushall();
      await until('listed again', async () => (await raw.hexists('tilecam:sources', `${id}/0`)) === 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(clients.open).toBe(1);
      // And it is still stopped from anywhere.
      expect(await b.stopSource(id)).toBe(true);
      await until('A lets it go', () => clients.open === 0);
    } finally {
      raw.disconnect();
    }
  }, 30_000);

  it('refuses a stream started while the instance shuts down, and takes it off the list again', async () => {
    const bus = await RedisBus.open(redis.url);
    // The stream is listed (its lease taken), and the instance shuts down before the start goes on.
    let listed!: () => void;
    const wasListed = new Promise<void>((r) => {
      listed = r;
    });
    let goOn!: () => void;
    const gate = new Promise<void>((r) => {
      goOn = r;
    });
    class Gated extends SharedSources {
      override async start(field: string, entry: SourceEntry): Promise<void> {
        await super.start(field, entry);
        listed();
        await gate;
      }
    }
    const a = new GameService(store, {
      bus,
      sources: 'any',
      sharedSources: new Gated(bus.redis, bus.instance, { leaseMs: 2000, scanMs: 150 }),
    });
    const raw = new Redis(redis.url);
    try {
      const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      const open = clients.open;
      const starting = a.startSource(id, cameraUrl, 300).catch((err: unknown) => err);
      await wasListed;
      expect(await raw.hexists('tilecam:sources', `${id}/0`)).toBe(1);
      await a.stopAll();
      goOn();
      const refused = await starting;
      expect(refused).toMatchObject({ code: 'unavailable' });
      expect((refused as Error).message).toMatch(/shutting down: start the stream again/);
      expect(await raw.hexists('tilecam:sources', `${id}/0`)).toBe(0);
      expect(await raw.get(`tilecam:source-owner:${id}/0`)).toBeNull();
      // And once shut down, refused at once.
      expect(await a.startSource(id, cameraUrl, 300).catch((err: unknown) => err)).toMatchObject({
        code: 'unavailable',
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(clients.open).toBe(open);
    } finally {
      goOn();
      await a.stopAll();
      raw.disconnect();
      await bus.close();
    }
  });

  it('counts a stream started again here once towards the limit', async () => {
    const a = await instance({ sources: 2 });
    const [g1, g2] = [
      (await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }))).id,
      (await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }))).id,
    ];
    await a.startSource(g1, cameraUrl, 300);
    // g1 started again (a double click) while g2 starts: two streams, within the limit of two.
    const started = await Promise.allSettled([
      a.startSource(g1, cameraUrl, 300),
      a.startSource(g2, cameraUrl, 300),
    ]);
    expect(started.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    for (const id of [g1, g2]) await a.stopSource(id);
    await until('none pulled', () => clients.open === 0);
  });

  it('pulls no more streams than its limit when they are started at once', async () => {
    const a = await instance({ sources: 1 });
    const games = [];
    for (let k = 0; k < 3; k++) games.push((await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }))).id);
    const started = await Promise.allSettled(games.map((id) => a.startSource(id, cameraUrl, 300)));
    expect(started.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of started)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'not-allowed' });
    for (const id of games) await a.stopSource(id);
    await until('none pulled', () => clients.open === 0);
  });
});

describe('the hall’s stream list', () => {
  it('out of reach: a stream is neither started nor stopped, and says why', async () => {
    // A Redis nobody answers at (port 1), as the bus's command connection is made: no queue of commands waiting.
    const away = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    away.on('error', () => {});
    const service = new GameService(store, {
      sources: 'any',
      sharedSources: new SharedSources(away, 'lonely', { leaseMs: 2000, scanMs: 60_000 }),
    });
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      const open = clients.open;
      const refused = await service.startSource(id, cameraUrl, 300).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ServiceError);
      expect(refused).toMatchObject({ code: 'unavailable' });
      await new Promise((r) => setTimeout(r, 300));
      expect(clients.open).toBe(open);
      expect(await service.stopSource(id).catch((err: unknown) => err)).toMatchObject({
        code: 'unavailable',
      });
    } finally {
      await service.stopAll();
      away.disconnect();
    }
  });

  it('takes over only a stream still listed as it was read, and forgets a stopped one after an hour', async () => {
    // A database of its own: the instances of the tests above still scan the list every 150 ms until the end, and
    // one of them would take over a stream whose lease this test lets run out before `mine` can (seen once in CI).
    const bus = await RedisBus.open(`${redis.url}/1`);
    const [mine, theirs] = [new SharedSources(bus.redis, 'mine'), new SharedSources(bus.redis, 'theirs')];
    try {
      const entry = { url: cameraUrl, everyMs: 1000, host: 'h', state: 'pulling', error: null } as const;
      await theirs.start('g1/0', entry);
      await bus.redis.del('tilecam:source-owner:g1/0'); // its instance died, its lease ran out
      const { text } = (await mine.list()).get('g1/0')!;
      await theirs.remove('g1/0'); // stopped meanwhile, elsewhere
      expect(await mine.take('g1/0', text)).toBe(false);
      await theirs.start('g1/0', entry);
      await bus.redis.del('tilecam:source-owner:g1/0');
      expect(await mine.take('g1/0', (await mine.list()).get('g1/0')!.text)).toBe(true);
      expect(await theirs.take('g1/0', (await theirs.list()).get('g1/0')!.text)).toBe(false); // one puller
      expect(await mine.holds('g1/0')).toBe(true);
      expect(await theirs.holds('g1/0')).toBe(false);
      // Stopped by itself: listed with why, then taken off after STOPPED_KEEP_MS.
      const at = Date.now();
      await mine.stopped('g1/0', { ...entry, state: 'stopped', error: 'the stream ended', at });
      expect((await mine.list(at + 1000)).get('g1/0')?.entry.error).toBe('the stream ended');
      expect((await mine.list(at + STOPPED_KEEP_MS + 1)).has('g1/0')).toBe(false);
      expect(await bus.redis.hexists('tilecam:sources', 'g1/0')).toBe(0);
      // Taken over, then stopped elsewhere before it is pulled here: no longer held.
      await theirs.start('g2/0', entry);
      await bus.redis.del('tilecam:source-owner:g2/0');
      expect(await mine.take('g2/0', (await mine.list()).get('g2/0')!.text)).toBe(true);
      await theirs.remove('g2/0');
      expect(await mine.holds('g2/0')).toBe(false);
    } finally {
      await bus.close();
    }
  });
});

describe('an entry of the hall’s stream list (outside input)', () => {
  it('is taken only whole and well-formed', () => {
    const good = {
      url: 'http://10.0.0.7:8080/video',
      everyMs: 1000,
      host: '10.0.0.7:8080',
      state: 'pulling',
      error: null,
    };
    expect(entryOf(JSON.stringify(good))).toEqual(good);
    for (const bad of [
      '{',
      'null',
      '[]',
      JSON.stringify({ ...good, everyMs: 0 }),
      JSON.stringify({ ...good, everyMs: 1.5 }),
      JSON.stringify({ ...good, state: 'running' }),
      JSON.stringify({ ...good, url: 'x'.repeat(3000) }),
      JSON.stringify({ ...good, error: 7 }),
      JSON.stringify({ ...good, host: undefined }),
      JSON.stringify({ ...good, at: 'yesterday' }),
    ])
      expect(entryOf(bad), bad).toBeUndefined();
  });
});
