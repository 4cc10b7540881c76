/**
 * The bus between instances: a game changed elsewhere is caught up with here, and the board-disturbed notice, which
 * no store keeps, comes with the message (whichever instance or worker read the frame that raised it).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedis } from '../../dev/servers.ts';
import type { GameSnapshot } from '../../protocol/index.ts';
import { SqliteStore } from '../../store/sqlite.ts';
import type { Thumbnail } from '../game/frames.ts';
import { GameService } from '../service.ts';
import { parseGameConfig } from '../validate.ts';
import { type BusNote, RedisBus } from './bus.ts';

const photo = readFileSync(new URL('../../../fixtures/demo_game/1.jpg', import.meta.url));

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the bus between instances', () => {
  it('carries the board-disturbed notice with the game that changed, and leaves out one that is no list of squares', async () => {
    const [a, b] = await Promise.all([RedisBus.open(redis.url), RedisBus.open(redis.url)]);
    const heard: [string, BusNote][] = [];
    b.subscribe((id, note) => heard.push([id, note]));
    const raw = new Redis(redis.url);
    try {
      await a.publish('g1', { disturbed: [{ row: 7, col: 3 }] });
      await a.publish('g2');
      await raw.publish(
        'tilecam:games',
        JSON.stringify({ game: 'g3', from: 'another', disturbed: [{ row: 99, col: 0 }] }),
      );
      await raw.publish('tilecam:games', JSON.stringify({ game: 'g4', from: 'another', disturbed: 'x' }));
      await until(() => heard.length === 4);
      expect(heard).toEqual([
        ['g1', { disturbed: [{ row: 7, col: 3 }] }],
        ['g2', {}],
        ['g3', {}],
        ['g4', {}],
      ]);
    } finally {
      raw.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('says when it is back after losing Redis: messages sent meanwhile were missed', async () => {
    const bus = await RedisBus.open(redis.url);
    const raw = new Redis(redis.url);
    let back = 0;
    bus.onReconnect(() => back++);
    try {
      await raw.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await until(() => back === 1);
      await raw.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await until(() => back === 2);
    } finally {
      raw.disconnect();
      await bus.close();
    }
  });

  it('shows the viewers here the notice raised by a frame read elsewhere, and clears it the same way', async () => {
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-bus-')), 'games.db'));
    const bus = await RedisBus.open(redis.url);
    const service = new GameService(store, { bus });
    const other = await RedisBus.open(redis.url);
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      const session = await service.session(id);
      const disturbed = () => (session.snapshot() as GameSnapshot).disturbed;
      expect(disturbed()).toEqual([]);
      await other.publish(id, { disturbed: [{ row: 7, col: 3 }] });
      await until(() => disturbed()?.length === 1);
      expect(disturbed()).toEqual([{ row: 7, col: 3 }]);
      await other.publish(id, { disturbed: [] });
      await until(() => disturbed()?.length === 0);
    } finally {
      service.stopAll();
      await Promise.all([bus.close(), other.close()]);
      store.close();
    }
  });

  it('shows the scorekeeper on one instance the camera pictures taken on another, and only while a page watches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-pictures-'));
    const [storeA, storeB] = [new SqliteStore(join(dir, 'games.db')), new SqliteStore(join(dir, 'games.db'))];
    const [busA, busB] = await Promise.all([RedisBus.open(redis.url), RedisBus.open(redis.url)]);
    const a = new GameService(storeA, { bus: busA });
    const b = new GameService(storeB, { bus: busB });
    // What goes over the pictures channel, as Redis carries it.
    const wire = new Redis(redis.url);
    const sent: string[] = [];
    wire.on('message', (_c: string, text: string) => sent.push(text));
    await wire.subscribe('tilecam:pictures');
    // Whatever A sends goes before a marker sent after it on A's own connection: once the marker is heard, the
    // pictures sent before it have been heard too.
    let marks = 0;
    const settled = async () => {
      const mark = `mark-${++marks}`;
      await (busA as unknown as { pub: Redis }).pub.publish('tilecam:pictures', mark);
      await until(() => sent.includes(mark));
      return sent.filter((m) => !m.startsWith('mark-'));
    };
    // A frame comes to A; the answer to "is it watched elsewhere?" is asked meanwhile (a frame does not wait for it)
    // and is there for the next frame.
    const frameAt = async (id: string) => {
      await a.submitFrame(id, photo, false);
      await new Promise((r) => setTimeout(r, 100));
    };
    try {
      const { id } = await a.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
      // The camera's frames come to instance A; nobody watches the cameras elsewhere (a page on A itself gets its
      // pictures there): no picture is sent.
      const here: Thumbnail[] = [];
      const stopHere = (await a.get(id)).pictures.onThumbnail((t) => here.push(t));
      await frameAt(id);
      await frameAt(id);
      expect(here.length).toBe(2);
      expect(await settled()).toEqual([]);
      stopHere();
      // The scorekeeper's page watches on instance B: within a second or so, A's frames reach it.
      const seen: Thumbnail[] = [];
      const stop = (await b.get(id)).pictures.onThumbnail((t) => seen.push(t));
      for (let k = 0; k < 20 && seen.length === 0; k++) await frameAt(id);
      await until(() => seen.length > 0);
      expect(seen[0]!.jpeg!.length).toBeGreaterThan(1000);
      expect(seen[0]!.corners).toEqual((await a.session(id)).pictures.gridOf(photo));
      expect(seen[0]!.width).toBeGreaterThan(0);
      expect(Object.keys(seen[0]!).sort()).toEqual(['corners', 'height', 'jpeg', 'width']);
      // Malformed pictures on the channel reach no page, and bring nothing down; extra fields are not passed on.
      const count = seen.length;
      const raw = new Redis(redis.url);
      for (const thumb of [
        { jpeg: '<script>', width: 10, height: 10, corners: null },
        { jpeg: 7, width: 10, height: 10, corners: null },
        { jpeg: '', width: 10, height: 10, corners: null },
        { jpeg: 'AAAA', width: -1, height: 10, corners: null },
        { jpeg: 'AAAA', width: 10, height: 10, corners: [[1, 2]] },
        { jpeg: 'AAAA', width: 10, height: 10, corners: null, camera: 3 },
        'x'.repeat(50),
      ])
        await raw.publish('tilecam:pictures', JSON.stringify({ game: id, from: 'another', thumb }));
      await raw.publish('tilecam:pictures', '{not json');
      await raw.publish(
        'tilecam:pictures',
        JSON.stringify({
          game: id,
          from: 'another',
          thumb: { jpeg: 'AAAA', width: 1, height: 1, corners: null, x: 1 },
        }),
      );
      raw.disconnect();
      await until(() => seen.length === count + 1);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen.length).toBe(count + 1);
      expect(seen[count]).toEqual({ jpeg: 'AAAA', width: 1, height: 1, corners: null });
      // The page goes: once A has asked again, no more pictures are sent.
      stop();
      await new Promise((r) => setTimeout(r, 1100));
      await frameAt(id);
      const before = (await settled()).length;
      await frameAt(id);
      await frameAt(id);
      expect((await settled()).length).toBe(before);
      // The camera page watches on B, asking for the grid only: A's frames reach it as their grids, and A makes no
      // picture (none goes over the channel)…
      const grids: Thumbnail[] = [];
      const stopGrids = (await b.get(id)).pictures.onThumbnail((t) => grids.push(t), { pictures: false });
      for (let k = 0; k < 20 && grids.length === 0; k++) await frameAt(id);
      await until(() => grids.length > 0);
      expect(grids.at(-1)).toEqual({
        width: seen[0]!.width,
        height: seen[0]!.height,
        corners: (await a.session(id)).pictures.gridOf(photo),
      });
      // What A sent over the channel (the malformed messages above were another's).
      const wired = async () =>
        (await settled()).flatMap((m) => {
          const message = (() => {
            try {
              return JSON.parse(m) as { from?: string; thumb?: Thumbnail };
            } catch {
              return {};
            }
          })();
          return message.from === busA.instance ? [message.thumb] : [];
        });
      expect((await wired()).at(-1)).toEqual(grids.at(-1));
      // …until the scorekeeper's page watches on B too: then A makes the pictures again (once it has asked again:
      // till then the new page gets the grids A sends), and the camera page still gets the grid alone.
      const pictures: Thumbnail[] = [];
      const stopPictures = (await b.get(id)).pictures.onThumbnail((t) => pictures.push(t));
      const pictured = () => pictures.at(-1)?.jpeg !== undefined;
      for (let k = 0; k < 20 && !pictured(); k++) await frameAt(id);
      await until(pictured);
      expect(pictures.at(-1)!.jpeg!.length).toBeGreaterThan(1000);
      expect((await wired()).at(-1)!.jpeg).toBe(pictures.at(-1)!.jpeg);
      expect(grids.at(-1)).not.toHaveProperty('jpeg');
      // The scorekeeper's page goes: once A has asked again, grids only.
      stopPictures();
      await new Promise((r) => setTimeout(r, 1100));
      await frameAt(id);
      await frameAt(id);
      expect((await wired()).at(-1)).not.toHaveProperty('jpeg');
      stopGrids();
    } finally {
      wire.disconnect();
      a.stopAll();
      b.stopAll();
      await Promise.all([busA.close(), busB.close()]);
      storeA.close();
      storeB.close();
    }
  });
});
