/**
 * The rack a seat camera sees, kept with its player's moves: a game whose camera stands at a player's place
 * (`rackCamera`) reads that player's rack from its frames before their turn and keeps it with the move they make,
 * for the scorekeeper only. The frames are fixtures/seat-game's (a recorded game rendered from the first player's
 * seat, never trained on) and a rendered seat view.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameConfigSchema, parseClientMessage, parseWith } from '../server/protocol/index.ts';
import { GameSession } from '../server/service/game/classic.ts';
import { GameService } from '../server/service/service.ts';
import { SqliteStore } from '../server/store/sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'tilecam-rack-camera-'));
const store = new SqliteStore(join(dir, 'games.db'));
afterAll(() => store.close());
const game = (n: number) =>
  new URL(`../fixtures/seat-game/move-${String(n).padStart(2, '0')}`, import.meta.url);
const frame = (n: number) => readFileSync(new URL(`${game(n).href}.jpg`));
const label = (n: number) =>
  readFileSync(new URL(`${game(n).href}.txt`), 'utf8')
    .trimEnd()
    .split('\n');
/** After move 8, Cesar's rack FGIIIOU stands in front of the board, every tile read surely. */
const RACK_AFTER_8 = 'FGIIIOU';

const service = new GameService(store);

/** A new game of Cesar against Frentz, recorded by button, with `settings` besides. */
const create = (settings: Partial<Parameters<GameService['create']>[0]> = {}) =>
  service.create({
    players: ['Cesar', 'Frentz'],
    lang: 'en',
    variant: 'classic',
    challengeRule: 'double',
    capture: 'button',
    ...settings,
  });

async function sessionOf(id: string): Promise<GameSession> {
  const session = await service.session(id);
  if (!(session instanceof GameSession)) throw new Error('expected a classic game');
  return session;
}

/** A new game of Cesar against Frentz, recorded by button, the camera at `rackCamera`'s place if given. */
async function newGame(rackCamera?: number): Promise<GameSession> {
  return sessionOf((await create(rackCamera === undefined ? {} : { rackCamera })).id);
}

async function start(rackCamera?: number, endedBy = 8): Promise<GameSession> {
  const session = await newGame(rackCamera);
  // The moves before `endedBy` entered by the scorekeeper; that one ended by End turn, its frame read (and
  // confirmed, should it be held).
  for (let n = 1; n < endedBy; n++) await session.act({ type: 'confirm', board: label(n) });
  const ended = await session.submitFrame(frame(endedBy), true);
  if (ended.status === 'needs-confirmation') await session.act({ type: 'confirm', board: label(endedBy) });
  return session;
}

/** A game with the camera at Cesar's place whose first `moves` moves the scorekeeper entered, no frame seen. */
async function entered(moves: number): Promise<GameSession> {
  const session = await newGame(0);
  for (let n = 1; n <= moves; n++) await session.act({ type: 'confirm', board: label(n) });
  return session;
}

describe('the rack seen by a camera at a player’s place', () => {
  it('keeps the rack of the player at the camera with their moves, not the other player’s, for the scorekeeper only', async () => {
    const session = await start(0);
    // Cesar is to move (move 9): the frame that ended move 8 was looked at for his rack.
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(9)).toBe(RACK_AFTER_8);
    // Frentz's turn: the camera shows Cesar's rack, not his; nothing is kept with his move. Cesar's rack stands
    // whole in front of him once he has drawn (a frame ten seconds on), and is looked at for his next move.
    await session.submitFrame(frame(8), false, { now: Date.now() + 10_000 });
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(10)).toBeUndefined();
    // Cesar again: he passed, so it is the rack he holds.
    await session.act({ type: 'exchange', count: 3 });
    expect(session.keptRack(11)).toBe(RACK_AFTER_8);
    // The scorekeeper's GCG has the rack; the game as viewers see it does not.
    expect(session.gcg({ racks: true })).toMatch(new RegExp(`^>Cesar: ${RACK_AFTER_8} -`, 'm'));
    expect(session.gcg()).not.toContain(RACK_AFTER_8);
    expect(JSON.stringify(session.snapshot())).not.toContain(RACK_AFTER_8);
  }, 60_000);

  it('does not look at the rack in a frame that shows its player’s tiles laid already', async () => {
    // Moves 1–8 entered by the scorekeeper, no frame seen. Cesar to move; the first frame, of move 16, shows tiles
    // the game does not have (laid already: the rack in front of him may hold the tiles drawn after them), and a rack
    // read surely, ADDIPYZ. Not looked at. (That a frame as the game has it is looked at, in either player's turn:
    // the first test.)
    const laid = await entered(8);
    await laid.submitFrame(frame(16), false);
    await laid.racksLooked();
    await laid.act({ type: 'pass' });
    expect(laid.keptRack(9)).toBeUndefined();
    // Nor in Frentz's turn (a frame of move 16: the rack there, ADDIPYZ, read surely, is one Cesar holds later).
    const early = await entered(7);
    await early.submitFrame(frame(16), false);
    await early.racksLooked();
    await early.act({ type: 'pass' });
    await early.act({ type: 'pass' });
    expect(early.keptRack(9)).toBeUndefined();
  }, 60_000);

  it('does not look at the rack just after its player’s move, while they draw', async () => {
    // Cesar's move 9 (a pass) recorded, his rack looked at before it; Frentz to move. A frame as the game has it, at
    // once: Cesar is drawing.
    const drawing = await start(0);
    await drawing.racksLooked();
    await drawing.act({ type: 'pass' });
    await drawing.submitFrame(frame(8), false);
    await drawing.racksLooked();
    await drawing.act({ type: 'pass' });
    await drawing.act({ type: 'pass' });
    expect(drawing.keptRack(11)).toBeUndefined();
    // The same frame ten seconds on is looked at, for his next move.
    const drawn = await start(0);
    await drawn.racksLooked();
    await drawn.act({ type: 'pass' });
    await drawn.submitFrame(frame(8), false, { now: Date.now() + 10_000 });
    await drawn.racksLooked();
    await drawn.act({ type: 'pass' });
    await drawn.act({ type: 'pass' });
    expect(drawn.keptRack(11)).toBe(RACK_AFTER_8);
  }, 60_000);

  it('settles a rack tile the camera is unsure of by the tiles the move then takes from the rack', async () => {
    // After move 10, Cesar's rack EGIIORU: its O, blurred in the foreground, reads O or Q (0.58 and 0.35 cold), a
    // guess either way. Move 11 plays EUOI from it: a rack with a Q instead holds no O, so the O is the rack's.
    const session = await start(0, 10);
    await session.racksLooked();
    await session.act({ type: 'confirm', board: label(11) });
    expect(session.keptRack(11)).toBe('EGIIORU');
  }, 60_000);

  it('keeps a rack seen a tile short with a blank, when the move plays one', async () => {
    // Cesar's first rack ?AACDER, seen over the empty board as AACDER: a blank has no letter to read. His move
    // CRAAlED plays the blank: it came from this rack, and it is the tile not seen.
    const session = await newGame(0);
    await session.submitFrame(frame(0), false);
    await session.racksLooked();
    await session.act({ type: 'confirm', board: label(1) });
    expect([...(session.keptRack(1) ?? '')].sort().join('')).toBe('?AACDER');
  }, 60_000);

  it('reads the first move with the rack seen over the empty board, and keeps that rack with it, its blank played', async () => {
    // Move 1, CRAAlED, ended by End turn. The rack seen over the empty board, AACDER and one tile not seen, is what the
    // move's tiles come from (interpret weighs a reading the rack could not have held down: interpret.test.ts). Its
    // I8 read E or L alike (0.37 each) by the model alone, and the rack settled it; read by the seat reader too, it is
    // an E surely.
    const session = await newGame(0);
    await session.submitFrame(frame(0), false);
    const ended = await session.submitFrame(frame(1), true);
    expect(ended.status).toBe('committed');
    expect(session.snapshot().board[7]).toBe('...CRAAlED.....');
    expect(session.keptRack(1)).toBe('AACDER?');
  }, 60_000);

  it('reads no rack where the game has no camera at a player’s place', async () => {
    const session = await start();
    await session.submitFrame(frame(8), false);
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(9)).toBeUndefined();
  }, 60_000);

  it('keeps the racks a rack camera at a player’s place sees, never reading its frames as the board', async () => {
    // No camera at anyone's place: a second camera (the camera page's rack mode) stands at Cesar's, and its frames
    // come as rack frames. Moves 1 and 2 entered by the scorekeeper; Cesar to move.
    const { id } = await create();
    const session = await sessionOf(id);
    for (let n = 1; n <= 2; n++) await session.act({ type: 'confirm', board: label(n) });
    const board = session.snapshot().board;
    // A frame of move 16, as Frentz's rack camera's (once he has drawn after move 2), shows tiles the game does not
    // have: not read as the board.
    expect((await service.submitRackFrame(id, frame(16), 1, Date.now() + 10_000)).status).toBe('looking');
    await session.racksLooked();
    expect(session.snapshot().board).toEqual(board);
    expect(session.snapshot().pending).toBeNull();
    // The frame after move 2, as Cesar's, shows his rack as it is (the board's grid found in the frame itself, every
    // tile read surely): kept with his move, for the scorekeeper only.
    expect((await service.submitRackFrame(id, frame(2), 0)).status).toBe('looking');
    await session.racksLooked();
    await session.act({ type: 'pass' });
    expect(session.keptRack(3)).toBe('AABEIIW');
    expect(JSON.stringify(session.snapshot())).not.toContain('AABEIIW');
    // Just after his move he draws: his camera's frames are not looked at for a while.
    expect((await service.submitRackFrame(id, frame(2), 0)).status).toBe('skipped');
  }, 60_000);

  it('refuses a rack frame that is no picture, of a player the game does not have, or of a Scrabble Me game', async () => {
    const { id } = await create({ players: ['Ann', 'Ben'] });
    await expect(
      service.submitRackFrame(id, new TextEncoder().encode('not a picture'), 0),
    ).rejects.toMatchObject({
      code: 'bad-image',
    });
    await expect(service.submitRackFrame(id, frame(8), 2)).rejects.toMatchObject({
      code: 'bad-request',
      message: 'rack must be one of the 2 players (0 to 1)',
    });
    const me = await create({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'ABCDEF' });
    await expect(service.submitRackFrame(me.id, frame(8), 0)).rejects.toMatchObject({ code: 'bad-request' });
    const message = (rack: number) =>
      parseClientMessage(JSON.stringify({ type: 'frame', data: { token: 't', jpeg: '', rack } }));
    expect(message(3).ok).toBe(true);
    expect(message(4)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/data.rack must be a player/),
    });
  });

  it('opens a rack camera with its player’s key, which opens nothing else', async () => {
    const { id, token } = await create({ players: ['Ann', 'Ben'] });
    await expect(service.rackKeys(id, 'not the token')).rejects.toMatchObject({ code: 'unauthorized' });
    const [ann, ben] = await service.rackKeys(id, token);
    expect(ann).toMatch(/^[\w-]{43}$/);
    expect(ben).not.toBe(ann);
    // The same keys every time (worked out, not kept), another game's differ.
    expect(await service.rackKeys(id, token)).toEqual([ann, ben]);
    const other = await create({ players: ['Ann', 'Ben'] });
    expect(await service.rackKeys(other.id, other.token)).not.toContain(ann);
    await expect(service.authorizeRack(id, ann, 0)).resolves.toBeUndefined();
    await expect(service.authorizeRack(id, token, 1)).resolves.toBeUndefined();
    await expect(service.authorizeRack(id, ann, 1)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(service.authorizeRack(other.id, ann, 0)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(service.authorizeRack(id, undefined, 0)).rejects.toMatchObject({ code: 'unauthorized' });
    // Not the scorekeeper's: no racks, no actions, no board frames.
    await expect(service.authorize(id, ann)).rejects.toMatchObject({ code: 'unauthorized' });
    // A game that keeps no racks has no rack keys (and its Share panel no rack camera links).
    const nine = await create({ players: ['Ann', 'Ben'], variant: 'nine-tile' });
    expect(await service.rackKeys(nine.id, nine.token)).toEqual([]);
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
