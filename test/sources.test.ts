/**
 * The camera streams of a hall, shared by its instances through Redis (server/service/sources.ts): two game services
 * on one database, each with its own connection to a Redis started by the test, and a fake IP camera serving MJPEG
 * on loopback. A stream started on one instance shows on the other; stopped on the other, it stops; its instance
 * killed, the other takes it over; one that fails shows why everywhere.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedis } from '../server/dev/servers.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { RedisBus } from '../server/service/bus.ts';
import { GameService } from '../server/service/service.ts';
import { entryOf, SharedSources } from '../server/service/sources.ts';
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
  camera = createServer((req, res) => {
    if (req.url !== '/video') {
      res.writeHead(404).end();
      return;
    }
    clients.open++;
    clients.total++;
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
    const timer = setInterval(() => {
      res.write(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${photo.length}\r\n\r\n`);
      res.write(photo);
      res.write('\r\n');
    }, 200);
    res.on('close', () => {
      clients.open--;
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
async function instance(): Promise<GameService> {
  const bus = await RedisBus.open(redis.url);
  const service = new GameService(store, {
    bus,
    sources: 'any', // the fake camera is on loopback
    sharedSources: new SharedSources(bus.redis, bus.instance, { leaseMs: 1000, scanMs: 150 }),
  });
  opened.push({ bus, service });
  return service;
}

const sourcesOn = async (service: GameService, id: string) =>
  ((await service.get(id)).snapshot() as GameSnapshot).sources;

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
    const dead = a as unknown as { sourceScan: NodeJS.Timeout; sources: Map<string, AbortController> };
    clearInterval(dead.sourceScan);
    for (const controller of dead.sources.values()) controller.abort();
    dead.sources.clear();
    await until('B takes it over', () => clients.open === 1 && clients.total === before + 3);
    expect(await sourcesOn(b, id)).toEqual([{ camera: 0, host, state: 'pulling', error: null }]);
    // Its frames reach the game on B: End turn pressed there reads the camera's picture (the first move).
    let ended: string | undefined;
    await until('End turn on B reads the stream', async () => {
      ended = await b.act(id, { type: 'end-turn' }).then(
        (r) => r.status,
        () => undefined,
      );
      return ended !== undefined;
    });
    expect(['committed', 'needs-confirmation']).toContain(ended);
    expect(await b.stopSource(id)).toBe(true);
    await until('B lets it go', () => clients.open === 0);
  }, 40_000);

  it('shows everywhere why a stream stopped, and nobody pulls it again until it is started again', async () => {
    const [a, b] = [await instance(), await instance()];
    const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    await b.get(id);
    const missing = cameraUrl.replace('/video', '/nothing');
    await a.startSource(id, missing, 300);
    await until('B shows it stopped', async () => (await sourcesOn(b, id))[0]?.state === 'stopped');
    const [shown] = await sourcesOn(b, id);
    expect(shown?.error).toMatch(/404/);
    expect(await sourcesOn(a, id)).toEqual([shown]);
    // Scans go on: it stays stopped.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await sourcesOn(b, id))[0]?.state).toBe('stopped');
    expect(await a.stopSource(id)).toBe(true);
    await until('B shows none', async () => (await sourcesOn(b, id)).length === 0);
  }, 30_000);
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
    ])
      expect(entryOf(bad), bad).toBeUndefined();
  });
});
