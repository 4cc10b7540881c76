/**
 * One suite for every store: the embedded SQLite store and PostgreSQL (a server of its own, started by the test in
 * a temporary folder: server/dev/servers.ts). What one store keeps, the other keeps the same way.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBin, type RunningPostgres, startPostgres } from '../dev/servers.ts';
import type { GameConfig } from '../protocol/index.ts';
import { MIGRATIONS, PostgresStore } from './postgres.ts';
import { SqliteStore } from './sqlite.ts';
import { type GameStore, type PhotoCaps, StoreConflict, type StoredEvent, StoreFull } from './types.ts';

const config: GameConfig = {
  players: ['Ann', 'Ben'],
  lang: 'en',
  variant: 'classic',
  challengeRule: 'double',
  capture: 'button',
};
const pass = (seq: number, player = 0): StoredEvent => ({
  seq,
  event: { type: 'pass', player },
  at: `2026-11-23T10:0${seq}:00.000Z`,
});
const bytes = (n: number, fill = 7) => Buffer.alloc(n, fill);
/** Bytes as a Buffer, whatever view a store hands back. */
const got = (b: Uint8Array | undefined) => b && Buffer.from(b.buffer, b.byteOffset, b.byteLength);

let postgres: RunningPostgres | undefined;
beforeAll(async () => {
  if (postgresBin()) postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

let databases = 0;
/** A store's opening: with `caps`; `fresh`, on a database of its own (no other test's photos in its totals). */
const kinds: { name: string; open: (caps?: Partial<PhotoCaps>, fresh?: boolean) => Promise<GameStore> }[] = [
  {
    name: 'SQLite',
    open: async (caps) =>
      new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-store-')), 'games.db'), caps),
  },
  {
    name: 'PostgreSQL',
    open: async (caps, fresh) => {
      if (!postgres) throw new Error('PostgreSQL is not installed here (apt-get install -y postgresql)');
      if (!fresh) return PostgresStore.open(postgres.url, caps);
      const name = `fresh${++databases}`;
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(postgres.url);
      url.pathname = `/${name}`;
      return PostgresStore.open(url.toString(), caps);
    },
  },
];

let games = 0;
const newId = () => `g${Date.now().toString(36)}${++games}`;

/** A held reading of an empty board on `board`, naming the photo `name` of game `id`. */
const heldNaming = (id: string, board: number, name: string) => ({
  board,
  reading: Array.from({ length: 15 }, () => '.'.repeat(15)),
  reasons: [],
  squares: [],
  photo: `photos/${id}/${name}`,
});

describe.each(kinds)('the $name store', ({ name, open }) => {
  let store: GameStore;
  beforeAll(async () => {
    store = await open({ perGame: 5000 });
  });
  afterAll(() => store.close());

  it('keeps a game: its config exactly, its events in order with their photos and decisions', async () => {
    const id = newId();
    await store.createGame({ id, tokenHash: 'ab'.repeat(32), config });
    await store.appendEvents(id, [
      { ...pass(1), photo: `photos/${id}/event-1.jpg`, decision: { how: 'read' } },
      pass(2, 1),
    ]);
    await store.appendEvents(id, [pass(3)]);
    const game = await store.getGame(id);
    expect(game).toMatchObject({ id, tokenHash: 'ab'.repeat(32), held: [] });
    expect(game?.config).toEqual(config);
    expect(game?.events).toEqual([
      { ...pass(1), photo: `photos/${id}/event-1.jpg`, decision: { how: 'read' } },
      pass(2, 1),
      pass(3),
    ]);
    expect(await store.getGame('no-such-game')).toBeUndefined();
  });

  it('gives the events after a number with the held readings now, to catch a copy up', async () => {
    const id = newId();
    await store.createGame({ id, tokenHash: 'x', config });
    await store.appendEvents(id, [pass(1), pass(2, 1)]);
    await store.appendEvents(id, [
      { ...pass(3), photo: `photos/${id}/event-3.jpg`, decision: { how: 'read' } },
    ]);
    const held = heldNaming(id, 0, 'held-1.jpg');
    await store.setHeld(id, 0, held);
    expect(await store.getChanges(id, 1)).toEqual({
      events: [pass(2, 1), { ...pass(3), photo: `photos/${id}/event-3.jpg`, decision: { how: 'read' } }],
      held: [held],
    });
    expect(await store.getChanges(id, 3)).toEqual({ events: [], held: [held] });
    expect(await store.getChanges(id, 0)).toEqual({
      events: (await store.getGame(id))!.events,
      held: [held],
    });
    expect(await store.getChanges('no-such-game', 0)).toBeUndefined();
  });

  it('records an event exactly once: a number already taken is a conflict, and the whole batch is refused', async () => {
    const id = newId();
    await store.createGame({ id, tokenHash: 'x', config });
    await store.appendEvents(id, [pass(1)]);
    await expect(store.appendEvents(id, [pass(2), pass(1)])).rejects.toBeInstanceOf(StoreConflict);
    await expect(store.appendEvents(id, [pass(1)])).rejects.toThrow(/event 1 is recorded already/);
    expect((await store.getGame(id))?.events.map((e) => e.seq)).toEqual([1]);
  });

  it('lists games newest first, live or ended, a page at a time', async () => {
    const ids = [newId(), newId(), newId()];
    for (const id of ids) {
      await store.createGame({ id, tokenHash: 'x', config });
      await new Promise((r) => setTimeout(r, 3));
    }
    await store.appendEvents(ids[1]!, [pass(1)], { ended: '2026-11-23T11:00:00.000Z', scores: [12, 7] });
    const all = (await store.listGames({ limit: 1000 })).filter((g) => ids.includes(g.id));
    expect(all.map((g) => g.id)).toEqual([...ids].reverse());
    expect(all.map((g) => g.endedAt)).toEqual([null, '2026-11-23T11:00:00.000Z', null]);
    // The listing shows the totals and the last event's time once there is one.
    expect(all.map((g) => g.scores)).toEqual([null, [12, 7], null]);
    expect(all.map((g) => g.lastEventAt)).toEqual([null, pass(1).at, null]);
    const live = await store.listGames({ limit: 1000, status: 'live' });
    expect(live.some((g) => g.id === ids[1])).toBe(false);
    const ended = await store.listGames({ limit: 1000, status: 'ended' });
    expect(ended.some((g) => g.id === ids[1])).toBe(true);
    // A page after the newest of the three starts with the middle one.
    const newest = all[0]!;
    const next = await store.listGames({ limit: 1, after: { createdAt: newest.createdAt, id: newest.id } });
    expect(next.map((g) => g.id)).toEqual([ids[1]]);
    // Live again (an end taken back).
    await store.appendEvents(ids[1]!, [pass(2)], { ended: null });
    expect((await store.listGames({ limit: 1000, status: 'ended' })).some((g) => g.id === ids[1])).toBe(
      false,
    );
    // Totals not given stay as they were.
    expect((await store.listGames({ limit: 1000 })).find((g) => g.id === ids[1])?.scores).toEqual([12, 7]);
    // Archived: out of the listing, in the archived one; and back.
    await store.setArchived(ids[2]!, '2026-11-23T12:00:00.000Z');
    expect((await store.listGames({ limit: 1000 })).some((g) => g.id === ids[2])).toBe(false);
    const archived = await store.listGames({ limit: 1000, status: 'archived' });
    expect(archived.find((g) => g.id === ids[2])?.archivedAt).toBe('2026-11-23T12:00:00.000Z');
    await store.setArchived(ids[2]!, null);
    expect((await store.listGames({ limit: 1000 })).some((g) => g.id === ids[2])).toBe(true);
    // An event's games, and only they.
    const event = `Club night ${newId()}`;
    const inEvent = [newId(), newId()];
    for (const id of inEvent) await store.createGame({ id, tokenHash: 'x', config: { ...config, event } });
    expect((await store.listGames({ limit: 1000, event })).map((g) => g.id).sort()).toEqual(
      [...inEvent].sort(),
    );
    expect((await store.listGames({ limit: 1000, event: 'no such event' })).length).toBe(0);
  });

  it('keeps a held reading per board until it is let go', async () => {
    const id = newId();
    await store.createGame({ id, tokenHash: 'x', config });
    const held = {
      board: 0,
      reading: Array.from({ length: 15 }, () => '.'.repeat(15)),
      reasons: ['hand in view'],
      squares: [{ row: 7, col: 7 }],
      photo: `photos/${id}/pending-1.jpg`,
      look: { corners: [[0, 0] as const, [1, 0] as const, [1, 1] as const, [0, 1] as const], squares: [] },
    };
    await store.setHeld(id, 0, held);
    await store.setHeld(id, 0, { ...held, reasons: ['again'] });
    expect((await store.getGame(id))?.held).toEqual([{ ...held, reasons: ['again'] }]);
    await store.setHeld(id, 0, null);
    expect((await store.getGame(id))?.held).toEqual([]);
  });

  it('sweeps a held photo only when no held reading names it, whoever saved it when', async () => {
    const id = newId();
    await store.createGame({ id, tokenHash: 'x', config });
    // An instance holding a reading stores it naming its photo first; another loading the game sweeps meanwhile.
    await store.setHeld(id, 0, heldNaming(id, 0, 'pending-a.jpg'));
    await store.sweepPhotos(id, 'pending-');
    await store.savePhoto(id, 'pending-a.jpg', bytes(100, 1));
    await store.sweepPhotos(id, 'pending-');
    expect(got(await store.getPhoto(id, 'pending-a.jpg'))).toEqual(bytes(100, 1));
    // Let go (the reading confirmed elsewhere and its row cleared before a crash took the photo's removal): swept.
    await store.setHeld(id, 0, null);
    await store.sweepPhotos(id, 'pending-');
    expect(got(await store.getPhoto(id, 'pending-a.jpg'))).toBeUndefined();
  });

  it('keeps photos by name, renames and removes them, and stops at the cap per game', async () => {
    const id = newId();
    await store.createGame({ id, tokenHash: 'x', config });
    const path = await store.savePhoto(id, 'pending-1.jpg', bytes(2000, 1));
    expect(path).toBe(`photos/${id}/pending-1.jpg`);
    expect(got(await store.getPhoto(id, 'pending-1.jpg'))).toEqual(bytes(2000, 1));
    expect(await store.renamePhoto(id, path!, 'event-1.jpg')).toBe(`photos/${id}/event-1.jpg`);
    expect(got(await store.getPhoto(id, 'pending-1.jpg'))).toBeUndefined();
    expect(got(await store.getPhoto(id, 'event-1.jpg'))).toEqual(bytes(2000, 1));
    await store.savePhoto(id, 'pending-2.jpg', bytes(2000, 2));
    // 4,000 bytes kept of the 5,000 a game may keep: 2,000 more is refused, 1,000 is not.
    expect(await store.savePhoto(id, 'pending-3.jpg', bytes(2000, 3))).toBeUndefined();
    expect(await store.savePhoto(id, 'pending-3.jpg', bytes(1000, 3))).toBe(`photos/${id}/pending-3.jpg`);
    // The sweep takes the held photos no held reading names (pending-2), not those one does, nor the others.
    await store.setHeld(id, 1, heldNaming(id, 1, 'pending-3.jpg'));
    await store.sweepPhotos(id, 'pending-');
    expect(got(await store.getPhoto(id, 'pending-2.jpg'))).toBeUndefined();
    expect(got(await store.getPhoto(id, 'pending-3.jpg'))).toEqual(bytes(1000, 3));
    expect(got(await store.getPhoto(id, 'event-1.jpg'))).toEqual(bytes(2000, 1));
    await store.setHeld(id, 1, null);
    await store.deletePhoto(id, `photos/${id}/pending-3.jpg`);
    await store.deletePhoto(id, `photos/${id}/pending-3.jpg`); // gone already: not an error
    expect(got(await store.getPhoto(id, 'pending-3.jpg'))).toBeUndefined();
    // A path of another game's photo is refused.
    await expect(store.deletePhoto(id, `photos/other/event-1.jpg`)).rejects.toThrow(/not one of game/);
  });

  it("keeps all photos under one ceiling: the oldest ended games' go first, then photos and checks are refused", async () => {
    const capped = await open({ perGame: 10_000, total: 6_000 }, true);
    try {
      const [a, b, live] = [newId(), newId(), newId()];
      for (const id of [a, b, live]) await capped.createGame({ id, tokenHash: 'x', config });
      await capped.savePhoto(a, 'event-1.jpg', bytes(2000, 1));
      await capped.savePhoto(b, 'event-1.jpg', bytes(2000, 2));
      await capped.savePhoto(live, 'event-1.jpg', bytes(1500, 3));
      expect(await capped.photoBytesKept()).toBe(5500);
      // b ended before a: b's photos go first when room is needed.
      await capped.appendEvents(a, [pass(1)], { ended: '2026-11-23T12:00:00.000Z', scores: [0, 0] });
      await capped.appendEvents(b, [pass(1)], { ended: '2026-11-23T11:00:00.000Z', scores: [0, 0] });
      expect(await capped.savePhoto(live, 'event-2.jpg', bytes(1500, 4))).toBe(`photos/${live}/event-2.jpg`);
      expect(got(await capped.getPhoto(b, 'event-1.jpg'))).toBeUndefined();
      expect(got(await capped.getPhoto(a, 'event-1.jpg'))).toEqual(bytes(2000, 1));
      expect(await capped.photoBytesKept()).toBe(5000);
      // A check needs room too: a's photos go for it.
      const check = (n: number, size: number) => ({
        id: `${name}-capped-${n}-${newId()}`,
        createdAt: new Date().toISOString(),
        lang: 'en' as const,
        verification: { verdict: 'right' } as never,
        before: null,
        after: { type: 'image/jpeg', bytes: bytes(size, n) },
      });
      await capped.saveCheck(check(1, 2500), 10);
      expect(got(await capped.getPhoto(a, 'event-1.jpg'))).toBeUndefined();
      expect(await capped.photoBytesKept()).toBe(5500);
      // No ended game has photos left: the live game's photo is not kept, and a check is refused.
      expect(await capped.savePhoto(live, 'event-3.jpg', bytes(1000, 5))).toBeUndefined();
      await expect(capped.saveCheck(check(2, 1000), 10)).rejects.toBeInstanceOf(StoreFull);
      expect(await capped.photoBytesKept()).toBe(5500);
    } finally {
      await capped.close();
    }
  });

  it('keeps the newest checks with their photos', async () => {
    const check = (n: number) => ({
      id: `${name}-check-${n}-${newId()}`,
      createdAt: new Date().toISOString(),
      lang: 'en' as const,
      verification: { verdict: 'right', n } as never,
      before: n % 2 ? null : { type: 'image/jpeg', bytes: bytes(10, n) },
      after: { type: 'image/png', bytes: bytes(12, n) },
    });
    const kept = [check(1), check(2), check(3)];
    for (const c of kept) await store.saveCheck(c, 2);
    expect(await store.getCheck(kept[0]!.id)).toBeUndefined();
    expect(await store.getCheck(kept[1]!.id)).toEqual({
      ...kept[1],
      before: { type: 'image/jpeg' },
      after: { type: 'image/png' },
    });
    const before = await store.getCheckPhoto(kept[1]!.id, 'before');
    expect(before?.type).toBe('image/jpeg');
    expect(got(before?.bytes)).toEqual(bytes(10, 2));
    expect(await store.getCheckPhoto(kept[2]!.id, 'before')).toBeUndefined();
    expect(got((await store.getCheckPhoto(kept[2]!.id, 'after'))?.bytes)).toEqual(bytes(12, 3));
  });
});

describe.skipIf(!postgresBin())('the PostgreSQL schema', () => {
  /** A new, empty database on the test's server, and its URL. */
  async function freshDatabase(name: string): Promise<string> {
    const admin = new pg.Client({ connectionString: postgres!.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return postgres!.url.replace(/\/tilecam$/, `/${name}`);
  }

  it('is created once when two instances open a new database together', async () => {
    const url = await freshDatabase(`fresh_${Date.now()}`);
    const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    expect(await a.version()).toBe(MIGRATIONS.length);
    expect(await b.version()).toBe(MIGRATIONS.length);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM tilecam_schema ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    // Photos are kept uncompressed (a JPEG does not compress; trying cost the database 8.6 ms a photo).
    const storage = await client.query<{ name: string; storage: string }>(
      `SELECT attrelid::regclass || '.' || attname AS name, attstorage AS storage FROM pg_attribute
        WHERE (attrelid, attname) IN (('photos'::regclass, 'bytes'), ('checks'::regclass, 'before'),
                                      ('checks'::regclass, 'after')) ORDER BY 1`,
    );
    expect(storage.rows).toEqual([
      { name: 'checks.after', storage: 'e' },
      { name: 'checks.before', storage: 'e' },
      { name: 'photos.bytes', storage: 'e' },
    ]);
    await client.end();
    await a.close();
    await b.close();
  });

  it('upgrades a database of the first version, its games kept', async () => {
    const url = await freshDatabase(`v1_${Date.now()}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // As the first version left it: its schema and one game with one event.
    await client.query(
      'CREATE TABLE tilecam_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    await client.query(MIGRATIONS[0]!);
    await client.query('INSERT INTO tilecam_schema (version) VALUES (1)');
    await client.query(
      "INSERT INTO games (id, token_hash, config, created_at) VALUES ('old', 'x', $1, '2026-11-01T10:00:00.000Z')",
      [JSON.stringify(config)],
    );
    await client.query(
      'INSERT INTO events (game_id, seq, event, at) VALUES (\'old\', 1, \'{"type":"pass","player":0}\', \'2026-11-01T10:01:00.000Z\')',
    );
    const store = await PostgresStore.open(url);
    expect(await store.version()).toBe(MIGRATIONS.length);
    expect((await store.getGame('old'))?.events).toHaveLength(1);
    expect(await store.listGames({ limit: 10 })).toEqual([
      expect.objectContaining({ id: 'old', scores: null, archivedAt: null }),
    ]);
    // A newer schema than this tilecam knows is refused.
    await client.query(`INSERT INTO tilecam_schema (version) VALUES (${MIGRATIONS.length + 97})`);
    await store.close();
    await expect(PostgresStore.open(url)).rejects.toThrow(/newer than this tilecam knows/);
    await client.end();
  });
});
