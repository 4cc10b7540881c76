/**
 * One service over two instances: two servers on one PostgreSQL and one Redis (each started by the test on a free
 * loopback port). A viewer on either sees every move, a held reading shows everywhere, and a move is recorded
 * exactly once when both instances try to record the game's next event.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningPostgres, type RunningRedis, startPostgres, startRedis } from '../server/dev/servers.ts';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot, ServerMessage } from '../server/protocol/index.ts';
import { demoBoard } from './helpers.ts';

let postgres: RunningPostgres;
let redis: RunningRedis;
let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const options = { port: 0, host: '127.0.0.1', db: postgres.url, redis: redis.url, heartbeatMs: 60_000 };
  a = await startServer(options);
  b = await startServer(options);
}, 90_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
  postgres?.stop();
});

const base = (s: RunningServer) => `http://127.0.0.1:${s.port}`;
const board = demoBoard;

async function act(s: RunningServer, id: string, token: string, action: object) {
  const res = await fetch(`${base(s)}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(action),
  });
  return { status: res.status, body: (await res.json()) as { status?: string; error?: { code: string } } };
}

/** A WebSocket viewer of the game on server `s`: every snapshot it is sent. */
function viewer(s: RunningServer, id: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?game=${id}`);
  const seen: GameSnapshot[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as ServerMessage;
    if (m.type === 'snapshot') seen.push(m.data as GameSnapshot);
  });
  const until = async (ok: (s: GameSnapshot) => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const found = seen.findLast(ok);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no such snapshot in ${ms} ms; last: ${JSON.stringify(seen.at(-1)?.turns)}`);
  };
  return { ws, seen, until, open: new Promise((r) => ws.once('open', r)) };
}

describe('two instances on one PostgreSQL and one Redis', () => {
  it('shows a move recorded on one instance to a viewer on the other, and a held reading too', async () => {
    const created = await fetch(`${base(a)}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'] }),
    });
    const { id, token } = (await created.json()) as { id: string; token: string };
    const onB = viewer(b, id);
    await onB.open;
    await onB.until((s) => s.version === 0);
    expect((await act(a, id, token, { type: 'confirm', board: board(1) })).body.status).toBe('committed');
    const after = await onB.until((s) => s.version === 1);
    expect(after.players.map((p) => p.score)).toEqual([32, 0]);
    // A frame held on B (a reading that is no legal move) shows on a viewer of A.
    const onA = viewer(a, id);
    await onA.open;
    const photo = readFileSync(new URL('../fixtures/photos/a_second_z_tile.jpg', import.meta.url));
    const frame = await fetch(`${base(b)}/api/games/${id}/frames?endTurn=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
      body: photo,
    });
    expect(((await frame.json()) as { status: string }).status).toBe('needs-confirmation');
    const held = await onA.until((s) => s.pending !== null);
    // Its photo is kept in PostgreSQL: either instance serves it.
    const served = await fetch(`${base(a)}${held.pending!.photo}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(photo);
    onA.ws.close();
    onB.ws.close();
  });

  it('records a move exactly once when both instances try to record the next event', async () => {
    const created = await fetch(`${base(a)}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: ['Ann', 'Ben'] }),
    });
    const { id, token } = (await created.json()) as { id: string; token: string };
    // Both instances have the game in memory at version 0.
    for (const s of [a, b]) expect((await fetch(`${base(s)}/api/games/${id}`)).status).toBe(200);
    // Ann's move sent to both at once (a double click, two scorekeeper pages): one records it, the other is stale.
    const results = await Promise.all([
      act(a, id, token, { type: 'confirm', board: board(1), version: 0 }),
      act(b, id, token, { type: 'confirm', board: board(1), version: 0 }),
    ]);
    const statuses = results.map((r) => r.body.status ?? r.body.error?.code).sort();
    expect(statuses).toEqual(['committed', 'stale']);
    // Both instances agree on the game, which has the move once.
    for (const s of [a, b]) {
      const snap = (await (await fetch(`${base(s)}/api/games/${id}`)).json()) as GameSnapshot;
      expect(snap.version).toBe(1);
      expect(snap.turns).toHaveLength(1);
    }
    // And the stale instance goes on from there: Ben passes on it.
    const loser = results[0]!.body.status === 'committed' ? b : a;
    expect((await act(loser, id, token, { type: 'pass', version: 1 })).body.status).toBe('committed');
  });

  it('counts a client’s rate limits once across the instances (in Redis)', async () => {
    // The two tests above created 2 games from this address; the limit is 20 a minute for all instances together
    // (each instance counting alone would allow 20 each).
    let created = 0;
    let refused = 0;
    for (let k = 0; k < 30 && refused === 0; k++) {
      const res = await fetch(`${base(k % 2 ? b : a)}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ players: ['Ann', 'Ben'] }),
      });
      if (res.status === 201) created++;
      else if (res.status === 429) refused++;
    }
    expect(refused).toBe(1);
    expect(created + 2).toBe(20);
  });

  it('records a move once when two services decide it before either hears of the other (the database decides)', async () => {
    // No bus between these two: only the database's unique event numbers stand between them and a doubled move.
    const { GameService } = await import('../server/service/service.ts');
    const { PostgresStore } = await import('../server/store/postgres.ts');
    const stores = [await PostgresStore.open(postgres.url), await PostgresStore.open(postgres.url)];
    const [one, two] = stores.map((store) => new GameService(store));
    const { id } = await one!.create({
      players: ['Ann', 'Ben'],
      lang: 'en',
      variant: 'classic',
      challengeRule: 'double',
      capture: 'button',
    });
    // Both have the game in memory at version 0.
    await one!.get(id);
    await two!.get(id);
    expect((await one!.act(id, { type: 'confirm', board: board(1) })).status).toBe('committed');
    // The second, not told, decides the same move: the store refuses it, and it catches up.
    await expect(two!.act(id, { type: 'confirm', board: board(1) })).rejects.toThrow(
      /another server recorded/,
    );
    expect((await two!.session(id)).version).toBe(1);
    expect(((await stores[0]!.getGame(id))?.events ?? []).map((e) => e.event.type)).toEqual(['play']);
    // And goes on from there.
    expect((await two!.act(id, { type: 'pass' })).status).toBe('committed');
    for (const s of [one!, two!]) s.stopAll();
    for (const store of stores) await store.close();
  });
});
