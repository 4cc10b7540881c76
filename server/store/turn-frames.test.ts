/**
 * The frame that last ended a turn, kept with the game (TurnFrame): on both backends, noted per camera, replaced by
 * the next, read back after the store is opened again (a worker's restart forgets nothing of it).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBin, type RunningPostgres, startPostgres } from '../dev/servers.ts';
import { PostgresStore } from './postgres.ts';
import { SqliteStore } from './sqlite.ts';
import type { GameStore } from './types.ts';

let postgres: RunningPostgres | undefined;
const file = join(mkdtempSync(join(tmpdir(), 'tilecam-turn-frames-')), 'games.db');

beforeAll(async () => {
  if (postgresBin()) postgres = await startPostgres();
}, 90_000);

afterAll(() => postgres?.stop());

const backends: [string, () => Promise<GameStore>][] = [
  ['SQLite', async () => new SqliteStore(file)],
  ['PostgreSQL', async () => PostgresStore.open(postgres!.url)],
];

describe.each(backends)('%s keeps the frame that ended a turn', (name, open) => {
  it('per camera, the latest one, across reopening the store', async () => {
    if (name === 'PostgreSQL' && !postgres) return;
    const id = `g-${name}`;
    let store = await open();
    await store.createGame({
      id,
      tokenHash: 'x',
      config: {
        players: ['Ann', 'Ben'],
        lang: 'en',
        variant: 'classic',
        challengeRule: 'double',
        capture: 'button',
      },
    });
    expect(await store.turnFrame!(id, 0)).toBeUndefined();
    const at = new Date().toISOString();
    await store.noteTurnFrame!(id, { camera: 0, digest: 'first', version: 1, at });
    await store.noteTurnFrame!(id, { camera: 1, digest: 'other', version: 1, at });
    await store.noteTurnFrame!(id, { camera: 0, digest: 'second', version: 2, at });
    await store.close();
    store = await open();
    expect(await store.turnFrame!(id, 0)).toEqual({ camera: 0, digest: 'second', version: 2, at });
    expect(await store.turnFrame!(id, 1)).toEqual({ camera: 1, digest: 'other', version: 1, at });
    await store.close();
  });
});
