/**
 * The rack a seat camera sees, kept with its player's moves: a game whose camera stands at a player's place
 * (`rackCamera`) reads that player's rack from its frames as their turn starts and keeps it with the move they make,
 * for the scorekeeper only. The frames are rendered seat views (fixtures/seat), never trained on.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameConfigSchema, parseWith } from '../server/protocol/index.ts';
import { GameSession } from '../server/service/game/classic.ts';
import { GameService } from '../server/service/service.ts';
import { SqliteStore } from '../server/store/sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'tilecam-rack-camera-'));
const store = new SqliteStore(join(dir, 'games.db'));
afterAll(() => store.close());
const view = (band: string, name: string) =>
  readFileSync(new URL(`../fixtures/seat/${band}/${name}.jpg`, import.meta.url));
/** Ann's rack, DNFDE, in front of a plain board seen from her place; and a view with no rack in front of it. */
const withRack = view('55-65', '20_55-65deg_plain');
const noRack = view('45-55', '01_45-55deg_vintage');

async function game(rackCamera?: number): Promise<GameSession> {
  const service = new GameService(store);
  const { id } = await service.create({
    players: ['Ann', 'Ben'],
    lang: 'en',
    variant: 'classic',
    challengeRule: 'double',
    capture: 'button',
    ...(rackCamera === undefined ? {} : { rackCamera }),
  });
  const session = await service.session(id);
  if (!(session instanceof GameSession)) throw new Error('expected a classic game');
  return session;
}

describe('the rack seen by a camera at a player’s place', () => {
  it('keeps the rack of the player at the camera with their moves, not the other player’s, for the scorekeeper only', async () => {
    const session = await game(0);
    // Ann is to move: a frame between turns is looked at for her rack, in the background.
    await session.submitFrame(withRack, false);
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(1)).toBe('DNFDE');
    // Ben's turn: the camera shows Ann's rack, not his; nothing is kept with his move.
    await session.submitFrame(withRack, false);
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(2)).toBeUndefined();
    // Ann again, with no rack in front of the board now: nothing kept (the rack of her first turn is not carried).
    await session.submitFrame(noRack, false);
    await session.racksLooked();
    await session.act({ type: 'exchange', count: 3 });
    expect(session.keptRack(3)).toBeUndefined();
    // The scorekeeper's GCG has the rack; the game as viewers see it does not.
    expect(session.gcg({ racks: true })).toMatch(/^>Ann: DNFDE -/m);
    expect(session.gcg()).not.toContain('DNFDE');
    expect(JSON.stringify(session.snapshot())).not.toContain('DNFDE');
  });

  it('reads no rack where the game has no camera at a player’s place', async () => {
    const session = await game();
    await session.submitFrame(withRack, false);
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(1)).toBeUndefined();
  });

  it('refuses a camera at the place of a player the game does not have', () => {
    const config = { players: ['Ann', 'Ben'], rackCamera: 2 };
    const refused = parseWith(gameConfigSchema, config);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/rackCamera must be one of the 2 players/);
    expect(parseWith(gameConfigSchema, { ...config, rackCamera: 1 }).ok).toBe(true);
    expect(parseWith(gameConfigSchema, { ...config, rackCamera: -1 }).ok).toBe(false);
    const me = parseWith(gameConfigSchema, {
      ...config,
      rackCamera: 0,
      variant: 'scrabble-me',
      podium: 'ABCDEF',
    });
    expect(me.ok).toBe(false);
    if (!me.ok) expect(me.message).toMatch(/not Scrabble Me/);
  });
});
