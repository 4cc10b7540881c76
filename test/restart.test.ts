/**
 * A server killed mid-game (SIGKILL) and started again on the same database has every committed move, and the
 * reading that was waiting for the scorekeeper, with its photo.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresBin, type RunningPostgres, startPostgres } from '../server/dev/servers.ts';
import { demoBoard } from './helpers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function serve(db: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    [join(root, 'server/cli/bin.mjs'), 'serve', '--port', '0', '--db', db, '--json'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return { child, base: `http://127.0.0.1:${port}` };
}

async function newGame(base: string): Promise<{ id: string; token: string }> {
  const created = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players: ['Ann', 'Ben'] }),
  });
  return (await created.json()) as { id: string; token: string };
}

let postgres: RunningPostgres | undefined;
beforeAll(async () => {
  if (postgresBin()) postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

/** The same tests on each store: a SQLite file of their own, or the PostgreSQL server started above. */
const stores = [
  { name: 'SQLite', db: () => join(mkdtempSync(join(tmpdir(), 'tilecam-restart-')), 'games.db') },
  {
    name: 'PostgreSQL',
    db: () => {
      if (!postgres) throw new Error('PostgreSQL is not installed here (apt-get install -y postgresql)');
      return postgres.url;
    },
  },
];

describe.each(stores)('restart on $name', ({ db: database }) => {
  it('keeps every committed move through a SIGKILL', async () => {
    const db = database();
    const first = await serve(db);
    const { id, token } = await newGame(first.base);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (action: object) =>
      fetch(`${first.base}/api/games/${id}/actions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(action),
      });
    const board = demoBoard;
    // Two moves confirmed by the scorekeeper (no camera needed), then a pass.
    for (const n of [1, 2]) {
      await fetch(`${first.base}/api/games/${id}/frames?endTurn=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: readFileSync(join(root, 'fixtures/demo_game', `${n}.jpg`)),
      });
      const snap = (await (await fetch(`${first.base}/api/games/${id}`)).json()) as { turns: unknown[] };
      if (snap.turns.length < n) expect((await post({ type: 'confirm', board: board(n) })).status).toBe(200);
    }
    expect((await post({ type: 'pass' })).status).toBe(200);
    const before = await (await fetch(`${first.base}/api/games/${id}`)).json();
    expect(before.players.map((p: { score: number }) => p.score)).toEqual([32, 9]);

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serve(db);
    const after = await (await fetch(`${second.base}/api/games/${id}`)).json();
    expect(after).toEqual(before);
    // The token still works after the restart.
    const pass = await fetch(`${second.base}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'pass' }),
    });
    expect(pass.status).toBe(200);
  });

  it('keeps a reading held for the scorekeeper through a SIGKILL, and the confirmed move keeps its photo', async () => {
    const db = database();
    const first = await serve(db);
    const { id, token } = await newGame(first.base);
    // Three moves on the board at once: no legal move, held with its photo.
    const photo = readFileSync(join(root, 'fixtures/demo_game', '3.jpg'));
    const held = await fetch(`${first.base}/api/games/${id}/frames?endTurn=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
      body: photo,
    });
    expect(((await held.json()) as { status: string }).status).toBe('needs-confirmation');
    const before = (await (await fetch(`${first.base}/api/games/${id}`)).json()) as {
      pending: { photo: string } | null;
    };
    expect(before.pending).not.toBeNull();

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serve(db);
    const after = (await (await fetch(`${second.base}/api/games/${id}`)).json()) as typeof before;
    expect(after.pending).toEqual(before.pending);
    const shown = await fetch(`${second.base}${after.pending!.photo}`);
    expect(Buffer.from(await shown.arrayBuffer())).toEqual(photo);
    // The scorekeeper confirms what was really played first; the move keeps the held photo.
    const board = readFileSync(join(root, 'fixtures/demo_game', '1.txt'), 'utf8')
      .trimEnd()
      .split('\n');
    const confirmed = await fetch(`${second.base}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'confirm', board }),
    });
    expect(((await confirmed.json()) as { status: string }).status).toBe('committed');
    const moved = await fetch(`${second.base}/api/games/${id}/photos/event-1.jpg`);
    expect(Buffer.from(await moved.arrayBuffer())).toEqual(photo);
  });
});
