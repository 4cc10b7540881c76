/**
 * The wire protocol's shape, pinned: the snapshots of the demo games (classic, and Scrabble Me) after each step,
 * compared with golden JSON files in fixtures/protocol. The games are played by the scorekeeper's confirmations
 * (board text, no camera), so the snapshots depend on the protocol and the engine only. A change of shape fails
 * here; if it is meant, `UPDATE_GOLDEN=1 npx vitest run test/protocol.test.ts` writes the files again, and the
 * diff shows what every client will see change.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { GameService } from '../server/service/service.ts';
import { parseGameConfig } from '../server/service/validate.ts';
import { SqliteStore } from '../server/store/sqlite.ts';
import { ME_PLAYERS, ME_PODIUM, meBoard } from './me-game.ts';

const dir = mkdtempSync(join(tmpdir(), 'tilecam-protocol-'));
const store = new SqliteStore(join(dir, 'games.db'));
const service = new GameService(store);
afterAll(() => {
  service.stopAll();
  store.close();
});
const demo = (i: number) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/demo_game/${i}.txt`, import.meta.url)), 'utf8')
    .trimEnd()
    .split('\n');

/** Plays `steps` into a new game of `config`, and the snapshot after each (the game's id written as GAME). */
async function play(config: unknown, steps: [string, object][]) {
  // A minute a step, on a fixed clock: the turn clock's figures are part of the snapshots.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse('2026-01-01T10:00:00.000Z'));
  try {
    return await playSteps(config, steps);
  } finally {
    vi.useRealTimers();
  }
}

async function playSteps(config: unknown, steps: [string, object][]) {
  const { id } = await service.create(parseGameConfig(config));
  const seen: { step: string; result: unknown; snapshot: unknown }[] = [];
  const normal = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(id, 'GAME'));
  seen.push({ step: 'created', result: null, snapshot: normal((await service.get(id)).snapshot()) });
  for (const [step, action] of steps) {
    vi.setSystemTime(Date.now() + 60_000);
    const result = await service.act(id, action);
    seen.push({ step, result: normal(result), snapshot: normal((await service.get(id)).snapshot()) });
  }
  return seen;
}

function golden(name: string, actual: unknown) {
  const file = fileURLToPath(new URL(`../fixtures/protocol/${name}.json`, import.meta.url));
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

describe('the protocol', () => {
  it('shows the classic demo game as its golden snapshots say', async () => {
    const notAMove = demo(3).map((row, r) => (r === 0 ? `Q${row.slice(1)}` : row));
    const seen = await play({ players: ['Ann', 'Ben'] }, [
      ['Ann plays WINDY', { type: 'confirm', board: demo(1) }],
      ['Ben plays AN', { type: 'confirm', board: demo(2) }],
      ['a reading that is no legal move is held', { type: 'confirm', board: notAMove }],
      ['the scorekeeper fixes the stray square', { type: 'correct', row: 0, col: 0, tile: '.' }],
      ['and confirms: Ann plays JOEY', { type: 'confirm' }],
      ['Ben passes', { type: 'pass' }],
      ['Ann challenges nothing: undo the pass', { type: 'undo' }],
      ['the game ends', { type: 'end', racks: ['', 'Q'] }],
    ]);
    golden('classic-demo', seen);
  });

  it('shows the Scrabble Me demo game as its golden snapshots say', async () => {
    const seen = await play({ players: ME_PLAYERS, variant: 'scrabble-me', podium: ME_PODIUM }, [
      ['board 1 ends its turn', { type: 'confirm', board: 0, reading: meBoard(1, 0) }],
      ['board 2 ends its turn', { type: 'confirm', board: 1, reading: meBoard(1, 1) }],
      ['board 3 ends its turn: the round is scored', { type: 'confirm', board: 2, reading: meBoard(1, 2) }],
      ['Cy swaps boards with Ann', { type: 'swap', player: 2, with: 0 }],
      ['the racks are refilled', { type: 'refill', picks: ['E', ...Array(9).fill('bag')] }],
      ['the podium is refilled', { type: 'podium', letters: 'U' }],
      ['board 3 ends its turn', { type: 'confirm', board: 2, reading: meBoard(2, 2) }],
      ['board 2 ends its turn', { type: 'confirm', board: 1, reading: meBoard(2, 1) }],
      ['board 1 ends its turn: round 2 is scored', { type: 'confirm', board: 0, reading: meBoard(2, 0) }],
      ['Ben challenges Cy, wrongly', { type: 'challenge', player: 2, challenger: 1, acceptable: true }],
    ]);
    golden('scrabble-me-demo', seen);
  });
});
