/**
 * `npm run bench:live [-- --games game01,game07] [--set de|en|seat|all] [--mode button|auto|both] [--holds] [--json]
 *  [--seat DIR]`: plays
 * every recorded real German game of ../shared/realdata/scrabscrap-de, the English game photographed move by move in
 * ../shared/realdata/jheidel-en (labels in fixtures/labels/jheidel-en; live-labels.ts), and a recorded English game
 * rendered from a player's seat by one steady camera (fixtures/seat-game, models/training/seat_game.py; its camera at
 * the first player's place, whose racks the game reads and keeps: counted against the racks rendered), through the real running
 * service, over HTTP only, the way a table plays it, and plays the scorekeeper too, counting what a user feels: how
 * many moves the service held for confirmation, the scorekeeper's clicks, whether the totals follow the paper score
 * sheet (the English game's: the engine's scores of its labelled moves), and the squares it committed wrong without
 * asking. A bench, not a test: it exits 0 whatever the figures, 1 only when the data folder
 * is missing or the server fails (a 5xx, a dropped connection, a server that does not start).
 *
 * The table: the camera first sees the empty board, where the set has a photo of it (the labelled games); then, per
 * move of the sheet (live-sheet.ts says how the sheet's rows become moves):
 * - capture "button": the camera sends the photo once while the tiles are laid, then, 150 ms later, the player
 *   presses End turn: the same photo with `endTurn=1&version=V`. A pass is an End turn on the unchanged board.
 * - capture "auto": the camera sends the photo as a still camera would, every 150 ms (after the previous answer),
 *   until the service decides (commits, holds, or finds nothing new), at most AUTO_FRAMES times; a board it never
 *   settles on (squares in doubt hold auto capture back) makes the scorekeeper press End turn. A pass is invisible
 *   to auto capture: the scorekeeper presses Pass.
 * - a challenge: the scorekeeper presses Challenge (`acceptable`: whether the play stood); the players then take
 *   the tiles back, which the next photo shows.
 * - whenever a reading is held, the scorekeeper looks at the board (the photo's label): one `correct` per square the
 *   held reading has wrong, then `confirm`. If the service still refuses, that is a failure (with its message) and
 *   the scorekeeper confirms the label itself.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runtimeLine } from '../cli/node-flags.ts';
import { startServer } from '../http/app.ts';
import type { FrameResult, GameAnalysis, GameSnapshot } from '../protocol/index.ts';
import { rackReader } from '../service/game/rack-thread.ts';
import { defaultLimits } from '../service/limits.ts';
import { readLabelledGame } from './live-labels.ts';
import { type Colour, gameFolders, readGame, type SheetGame, type SheetMove } from './live-sheet.ts';

/**
 * Auto capture's timing for the run. The service's default is 3 identical confident readings over at least
 * 1,500 ms, made for a camera page that sends a frame a second while the board changes and for 5 s after
 * (web/ui/frame-gate.ts). The bench's camera sends a frame every 150 ms
 * (after the previous answer), so it keeps the 3 readings and scales the time to 300 ms: the third frame of a
 * still board settles it, as the third does at 1 fps. A board still waiting after AUTO_FRAMES frames (twice the
 * three needed) never settles: every frame of one photo reads alike, so only doubt keeps it waiting.
 */
const TIMING = { frames: 3, ms: 300 };
const FRAME_GAP_MS = 150;
const AUTO_FRAMES = 6;

type Mode = 'button' | 'auto';
/** What the scorekeeper clicked: each action is one click; `typed` counts the squares of a move typed in by hand. */
type Click = 'confirm' | 'correct' | 'challenge' | 'pass' | 'end-turn' | 'typed';
/** The English game's photos and labels. */
const ENGLISH = {
  name: 'jheidel-en',
  photos: fileURLToPath(new URL('../../../shared/realdata/jheidel-en/photos/', import.meta.url)),
  labels: fileURLToPath(new URL('../../fixtures/labels/jheidel-en/', import.meta.url)),
};
/** The game rendered from a player's seat: its frames, labels and racks (fixtures/seat-game/racks.json; `--seat DIR`:
 *  another rendering of it, by models/training/seat_game.py, e.g. from a steeper seat). */
const SEAT = {
  name: 'seat-game',
  photos: fileURLToPath(new URL('../../fixtures/seat-game/', import.meta.url)),
};
const clickKinds: readonly Click[] = ['confirm', 'correct', 'challenge', 'pass', 'end-turn', 'typed'];

interface GameResult {
  game: string;
  mode: Mode;
  /** Moves with a photo (the ones the camera could see). */
  moves: number;
  /** Moves no photo shows, typed in by the scorekeeper (the English game's; their clicks count as `typed`). */
  typedMoves: number;
  /** Moves for which the service held a reading for the scorekeeper. */
  held: number;
  /** Their numbers on the sheet. */
  heldMoves: number[];
  clicks: Record<Click, number>;
  /** The players' End turn presses (button capture): one per move with a photo, not the scorekeeper's. */
  endTurns: number;
  /** Moves after which a player's total differs from the sheet's. */
  totalsWrong: number;
  final: { service: number[]; sheet: number[]; right: boolean };
  /** Squares a commit made without a hold put wrong (differing from the label, and not wrong before it). */
  wrongSquares: number;
  frames: number;
  frameMs: number[];
  reasons: Record<string, number>;
  failures: string[];
  /** A game whose camera stands at a player's place: that player's plays, those kept with the rack they were played
   *  from (as rendered), and those kept with another rack. */
  racks?: { plays: number; right: number; wrong: number };
}

// ---------------------------------------------------------------------------------------------------------------
// Options and data

const { values: options } = parseArgs({
  options: {
    games: { type: 'string' },
    set: { type: 'string', default: 'all' },
    mode: { type: 'string', default: 'both' },
    json: { type: 'boolean', default: false },
    /** Print each held reading as it comes (stderr): its reasons, the squares corrected, and those in doubt with
     *  what the label says and the camera's likeliest readings. */
    holds: { type: 'boolean', default: false },
    data: { type: 'string' },
    seat: { type: 'string' },
  },
});
if (options.seat) {
  // Named after its folder (seat-game-68), so that its lines and --json tell it from the committed one.
  SEAT.photos = options.seat.endsWith('/') ? options.seat : `${options.seat}/`;
  SEAT.name = basename(options.seat);
  if (!existsSync(join(SEAT.photos, 'sequence.txt')) || !existsSync(join(SEAT.photos, 'racks.json'))) {
    console.error(
      `bench:live: --seat ${options.seat} is no rendered seat game (expected sequence.txt, racks.json and move-NN.jpg/.txt, ` +
        'as models/training/seat_game.py writes them)',
    );
    process.exit(2);
  }
}
const dataDir =
  options.data ?? fileURLToPath(new URL('../../../shared/realdata/scrabscrap-de/', import.meta.url));
if (!['de', 'en', 'seat', 'all'].includes(options.set!)) {
  console.error('bench:live: --set must be de, en, seat or all');
  process.exit(2);
}
const german = options.set === 'de' || options.set === 'all';
const english = options.set === 'en' || options.set === 'all';
const seatGame = options.set === 'seat' || options.set === 'all';
let folders: string[];
try {
  folders = german ? gameFolders(dataDir) : [];
} catch {
  folders = [];
}
if (german && folders.length === 0) {
  console.error(
    `bench:live: no recorded games in ${dataDir} (expected game01…game07, each with game.csv, game.ini and ` +
      'image-N.jpg/.txt; see ../shared/realdata/README.md). Pass --data DIR to point elsewhere.',
  );
  process.exit(1);
}
const wanted = options.games?.split(',').map((g) => g.trim());
const unknown = wanted?.filter((g) => !folders.includes(g)) ?? [];
if (unknown.length > 0) {
  console.error(`bench:live: no such game ${unknown.join(', ')} in ${dataDir} (have ${folders.join(', ')})`);
  process.exit(2);
}
if (!['button', 'auto', 'both'].includes(options.mode!)) {
  console.error('bench:live: --mode must be button, auto or both');
  process.exit(2);
}
const modes: Mode[] = options.mode === 'both' ? ['button', 'auto'] : [options.mode as Mode];
const games = [
  ...(wanted ?? folders).map((name) => readGame(dataDir, name)),
  ...(english && !wanted ? [readEnglish()] : []),
  ...(seatGame && !wanted ? [readLabelledGame(SEAT.name, SEAT.photos, SEAT.photos)] : []),
];
/** The seat game's camera: the player at whose place it stands, and the racks their plays came from, in order. */
const seatRacks = seatGame
  ? (JSON.parse(readFileSync(join(SEAT.photos, 'racks.json'), 'utf8')) as {
      camera_player: number;
      plays: string[];
    })
  : undefined;

function readEnglish(): SheetGame {
  try {
    return readLabelledGame(ENGLISH.name, ENGLISH.photos, ENGLISH.labels);
  } catch (err) {
    console.error(
      `bench:live: the English game cannot be read (${(err as Error).message}): it needs ${ENGLISH.photos} and ${ENGLISH.labels}. Pass --set de to play the German games alone.`,
    );
    process.exit(1);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The service, over HTTP only

/** The server failed: a 5xx, or no answer at all. Ends the bench with exit code 1. */
class ServerFailure extends Error {}

interface Reply<T> {
  status: number;
  body: T | { error: { code: string; message: string } };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The JPEG `jpeg` with a comment segment holding `note` after its start marker: the same picture, other bytes. */
function withComment(jpeg: Uint8Array, note: string): Uint8Array<ArrayBuffer> {
  const text = Buffer.from(note, 'latin1');
  const length = text.length + 2;
  return Buffer.concat([
    jpeg.subarray(0, 2),
    Buffer.from([0xff, 0xfe, length >> 8, length & 0xff]),
    text,
    jpeg.subarray(2),
  ]);
}

/** One game as a client of the service sees it: its id and the scorekeeper's token. */
class Table {
  private constructor(
    private readonly base: string,
    readonly id: string,
    private readonly token: string,
  ) {}

  static async create(base: string, game: SheetGame, mode: Mode): Promise<Table> {
    const rackCamera = game.name === SEAT.name ? seatRacks?.camera_player : undefined;
    const second: Colour = game.first === 'green' ? 'red' : 'green';
    const created = await request<{ id: string; token: string }>(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        players: [game.names[game.first], game.names[second]],
        lang: game.lang ?? 'de',
        capture: mode,
        ...(rackCamera === undefined ? {} : { rackCamera }),
        // German club play: a wrong challenge costs points, not a turn (ScrabScrap takes 10 from the challenger;
        // the closest rule here gives the player challenged 10). Every challenge in these games succeeded.
        ...((game.lang ?? 'de') === 'de' ? { challengeRule: '10-point' } : {}),
      }),
    });
    if (!ok(created)) throw new ServerFailure(`creating the game failed: ${errorText(created)}`);
    return new Table(base, created.body.id, created.body.token);
  }

  /** The game against the best plays, as its scorekeeper sees it: each move with the rack kept with it. */
  async analysis(): Promise<GameAnalysis> {
    const reply = await request<GameAnalysis>(`${this.base}/api/games/${this.id}/analysis`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    if (!ok(reply)) throw new ServerFailure(`analysing game ${this.id} failed: ${errorText(reply)}`);
    return reply.body;
  }

  async snapshot(): Promise<GameSnapshot> {
    const reply = await request<GameSnapshot>(`${this.base}/api/games/${this.id}`);
    if (!ok(reply)) throw new ServerFailure(`reading game ${this.id} failed: ${errorText(reply)}`);
    return reply.body;
  }

  /** A camera frame; `endTurn` with the game's version, as the End turn button sends it. */
  frame(photo: Uint8Array<ArrayBuffer>, endTurn?: { version: number }): Promise<Reply<FrameResult>> {
    const query = endTurn ? `?endTurn=1&version=${endTurn.version}` : '';
    return request<FrameResult>(`${this.base}/api/games/${this.id}/frames${query}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${this.token}` },
      body: photo,
    });
  }

  /** A scorekeeper's action, sent with the version the page shows, as the pages do. */
  act(
    action: Record<string, unknown>,
    version: number,
  ): Promise<Reply<FrameResult & { snapshot: GameSnapshot }>> {
    return request(`${this.base}/api/games/${this.id}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify({ ...action, version }),
    });
  }
}

async function request<T>(url: string, init?: RequestInit): Promise<Reply<T>> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new ServerFailure(`${init?.method ?? 'GET'} ${url}: no answer (${(err as Error).message})`);
  }
  const text = await response.text();
  if (response.status >= 500)
    throw new ServerFailure(`${init?.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { status: response.status, body: JSON.parse(text) as Reply<T>['body'] };
}

function ok<T>(reply: Reply<T>): reply is { status: number; body: T } {
  return reply.status < 400;
}

function errorText(reply: Reply<unknown>): string {
  const body = reply.body as { error?: { code: string; message: string } };
  return body.error ? `${reply.status} ${body.error.code}: ${body.error.message}` : String(reply.status);
}

// ---------------------------------------------------------------------------------------------------------------
// Boards

/** A square as the sheet and the labels see it: a blank is `?` whatever letter it was named. */
function square(tile: string): string {
  return tile === '.' || tile === '?' || tile === tile.toUpperCase() ? tile : '?';
}

/** The squares where two boards differ, with the tile `b` has there. */
function differences(
  a: readonly string[],
  b: readonly string[],
): { row: number; col: number; tile: string }[] {
  const out: { row: number; col: number; tile: string }[] = [];
  for (let row = 0; row < 15; row++) {
    const ra = [...(a[row] ?? '')];
    const rb = [...(b[row] ?? '')];
    for (let col = 0; col < 15; col++)
      if (square(ra[col] ?? '.') !== square(rb[col] ?? '.')) out.push({ row, col, tile: rb[col] ?? '.' });
  }
  return out;
}

const key = (s: { row: number; col: number }) => s.row * 15 + s.col;
const squareName = (s: { row: number; col: number }) => `${'ABCDEFGHIJKLMNO'[s.col]}${s.row + 1}`;

// ---------------------------------------------------------------------------------------------------------------
// Playing one game

async function play(base: string, game: SheetGame, mode: Mode): Promise<GameResult> {
  const table = await Table.create(base, game, mode);
  const seat: Record<Colour, number> = game.first === 'green' ? { green: 0, red: 1 } : { green: 1, red: 0 };
  const result: GameResult = {
    game: game.name,
    mode,
    moves: game.moves.filter((m) => !m.typed).length,
    typedMoves: game.moves.filter((m) => m.typed).length,
    held: 0,
    heldMoves: [],
    clicks: Object.fromEntries(clickKinds.map((k) => [k, 0])) as Record<Click, number>,
    endTurns: 0,
    totalsWrong: 0,
    final: { service: [0, 0], sheet: [0, 0], right: true },
    wrongSquares: 0,
    frames: 0,
    frameMs: [],
    reasons: {},
    failures: [],
  };
  let snap = await table.snapshot();
  /** Squares the service had wrong after the last move with a photo (so a commit is blamed only for its own). */
  let wrongBefore = new Set<number>();
  /** The photo the last move was seen on (before the first, the last of the empty board's). */
  let lastPhoto = game.setup?.at(-1);

  const fail = (move: SheetMove, what: string) => result.failures.push(`move ${move.number}: ${what}`);

  /** A camera frame, timed; its refusal (a 4xx: no board found…) is a failure of the move, once. */
  const sendFrame = async (
    move: SheetMove,
    photo: Uint8Array<ArrayBuffer>,
    endTurn?: { version: number },
  ) => {
    const t0 = performance.now();
    const reply = await table.frame(photo, endTurn);
    result.frameMs.push(performance.now() - t0);
    result.frames++;
    if (ok(reply)) return reply.body;
    const text = `frame refused: ${errorText(reply)}`;
    if (!result.failures.includes(`move ${move.number}: ${text}`)) fail(move, text);
    return undefined;
  };

  /** A scorekeeper's click: the action, its reply's snapshot kept. */
  const click = async (kind: Click, action: Record<string, unknown>, clicks = 1) => {
    result.clicks[kind] += clicks;
    const reply = await table.act(action, snap.version);
    if (ok(reply)) snap = reply.body.snapshot;
    else snap = await table.snapshot();
    return reply;
  };

  /** The scorekeeper resolves a held reading from the photo's label. */
  const resolveHold = async (move: SheetMove, label: readonly string[]) => {
    const pending = snap.pending!;
    for (const reason of pending.reasons) result.reasons[reason] = (result.reasons[reason] ?? 0) + 1;
    if (options.holds) {
      const doubt = (pending.look?.squares ?? []).map(
        (q) =>
          `${squareName(q)} ${label[q.row]?.[q.col] ?? '?'}: ${q.options.map((o) => `${o.tile} ${o.p.toFixed(2)}`).join(', ')}`,
      );
      const fixed = differences(pending.board, label).map((d) => `${squareName(d)} ${d.tile}`);
      console.error(
        `held: ${game.name} move ${move.number}${move.photo ? ` (${basename(move.photo)})` : ''}: ${pending.reasons.join('; ')}\n  corrected: ${fixed.join(', ') || 'none'}\n  in doubt (label: readings): ${doubt.join(' | ') || 'none'}`,
      );
    }
    for (const d of differences(pending.board, label)) {
      const reply = await click('correct', { type: 'correct', row: d.row, col: d.col, tile: d.tile });
      if (!ok(reply)) fail(move, `correcting ${squareName(d)} to ${d.tile} refused: ${errorText(reply)}`);
    }
    const before = snap.version;
    const reply = await click('confirm', { type: 'confirm' });
    if (ok(reply) && snap.version > before && !snap.pending) return;
    fail(
      move,
      `confirming the label refused: ${ok(reply) ? (reply.body.reasons ?? [reply.body.status]).join('; ') : errorText(reply)}`,
    );
    const last = await click('confirm', { type: 'confirm', board: label });
    if (!(ok(last) && snap.version > before && !snap.pending))
      fail(
        move,
        `confirming the label board itself refused too: ${ok(last) ? (last.body.reasons ?? [last.body.status]).join('; ') : errorText(last)}`,
      );
  };

  // The camera sees the empty board before the first move (as at a table), where the set has a photo of it.
  for (const [k, file] of (game.setup ?? []).entries()) {
    if (k > 0) await pause(FRAME_GAP_MS);
    await sendFrame(game.moves[0]!, new Uint8Array(readFileSync(file)));
  }
  for (const move of game.moves) {
    const before = snap.version;
    if (move.kind === 'challenge') {
      // The scorekeeper records the challenge; the players take the tiles back (the next photo shows it).
      const reply = await click('challenge', {
        type: 'challenge',
        player: seat[move.colour],
        acceptable: !move.withdrawn,
      });
      if (!ok(reply)) fail(move, `challenge refused: ${errorText(reply)}`);
    } else if (move.typed) {
      // A move no photo shows: the scorekeeper types it in (a click per new square, and one to confirm).
      const typed = differences(snap.board, move.label!).length;
      const reply = await click('typed', { type: 'confirm', board: move.label }, typed + 1);
      if (!ok(reply)) fail(move, `typing in a move no photo shows refused: ${errorText(reply)}`);
      wrongBefore = new Set(differences(snap.board, move.label!).map(key));
    } else {
      // A turn that laid no tile seen on the photo of the move before it (a rendered seat game's exchange or pass):
      // the camera's next frame of the still board, the same picture in other bytes (a comment naming the move). A
      // camera's frames of a still board differ in their bytes, and the service takes the same bytes ending a turn
      // again for an End turn pressed twice.
      const again = move.kind === 'pass' && move.photo === lastPhoto;
      lastPhoto = move.photo;
      const bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(move.photo!));
      const photo = again ? withComment(bytes, `tilecam bench:live move ${move.number}`) : bytes;
      const views = (move.views ?? []).map((v) => new Uint8Array(readFileSync(v)));
      const label = move.label!;
      if (mode === 'button') {
        // The camera watches while the tiles are laid (each photo of the new board); then the player presses End
        // turn.
        for (const view of views) {
          await sendFrame(move, view);
          await pause(FRAME_GAP_MS);
        }
        await sendFrame(move, photo);
        await pause(FRAME_GAP_MS);
        snap = await table.snapshot();
        result.endTurns++;
        const ended = await sendFrame(move, photo, { version: snap.version });
        // A hand over the board: the service waits for the camera's next clear frame. This photo is all there
        // is of the move, so no clear frame comes: the reading is held a few seconds later.
        if (ended?.status === 'waiting' && (ended.reasons ?? []).some((r) => r.startsWith('hand in view'))) {
          for (let t = 0; t < 80 && !(await table.snapshot()).pending; t++) await pause(100);
        }
      } else {
        // A still camera: the same picture until the service decides, or the scorekeeper presses End turn (each
        // photo of the new board in turn, the last one's the longest).
        let decided = false;
        for (const [k, picture] of [...views, photo].entries()) {
          const frames = k === views.length ? AUTO_FRAMES : TIMING.frames;
          for (let i = 0; i < frames && !decided; i++) {
            if (i > 0 || k > 0) await pause(FRAME_GAP_MS);
            const answer = await sendFrame(move, picture);
            decided = answer !== undefined && answer.status !== 'waiting' && answer.status !== 'skipped';
          }
        }
        snap = await table.snapshot();
        if (!decided && !snap.pending && snap.version === before) {
          const reply = await click('end-turn', { type: 'end-turn' });
          if (!ok(reply)) fail(move, `End turn refused: ${errorText(reply)}`);
        }
      }
      snap = await table.snapshot();
      const held = snap.pending !== null;
      let byHand = false;
      if (held) {
        result.held++;
        result.heldMoves.push(move.number);
        await resolveHold(move, label);
      } else if (snap.version === before) {
        if (move.kind === 'pass' && mode === 'auto') {
          await click('pass', { type: 'pass' });
        } else if (move.kind === 'pass') {
          fail(move, 'End turn on the unchanged board recorded no pass: the scorekeeper presses Pass');
          await click('pass', { type: 'pass' });
        } else {
          // Nothing recorded and nothing held: the scorekeeper types the move in (a click per new square).
          const typed = differences(snap.board, label).length;
          fail(move, `nothing recorded from the photo: the move typed in (${typed} squares)`);
          byHand = true;
          const reply = await click('typed', { type: 'confirm', board: label }, typed + 1);
          if (!ok(reply)) fail(move, `typing the move in refused: ${errorText(reply)}`);
        }
      }
      // The board now against the photo's label: a commit without a hold is blamed for the squares it put wrong.
      const wrong = new Set(differences(snap.board, label).map(key));
      if (!held && !byHand && snap.version > before)
        result.wrongSquares += [...wrong].filter((k) => !wrongBefore.has(k)).length;
      wrongBefore = wrong;
    }
    // The totals against the sheet's, seat by seat.
    const service = snap.players.map((p) => p.score);
    const sheet = [move.totals[game.first], move.totals[game.first === 'green' ? 'red' : 'green']];
    const right = service[0] === sheet[0] && service[1] === sheet[1];
    if (!right) result.totalsWrong++;
    result.final = { service, sheet, right };
  }
  // The racks the camera kept with its player's plays, against those rendered.
  if (game.name === SEAT.name && seatRacks) {
    // Seat 0 is the sheet's first player (Table.create).
    const second: Colour = game.first === 'green' ? 'red' : 'green';
    const name = game.names[seatRacks.camera_player === 0 ? game.first : second];
    // The blanks named first (the analysis needs their letters; not counted as clicks, as the other games' are not).
    const label = game.moves.findLast((m) => m.label)?.label ?? [];
    for (let row = 0; row < 15; row++)
      for (let col = 0; col < 15; col++) {
        const named = label[row]?.[col] ?? '.';
        if (snap.board[row]?.[col] === '?' && named !== named.toUpperCase())
          await table
            .act({ type: 'name-blank', row, col, letter: named.toUpperCase() }, snap.version)
            .then(async () => {
              snap = await table.snapshot();
            });
      }
    const plays = (await table.analysis()).turns.filter((t) => t.player === name && t.played.position !== '');
    const sorted = (r: string) => [...r].sort().join('');
    result.racks = { plays: plays.length, right: 0, wrong: 0 };
    plays.forEach((t, k) => {
      if (t.rack === null) return;
      if (sorted(t.rack) === sorted(seatRacks.plays[k] ?? '')) result.racks!.right++;
      else result.racks!.wrong++;
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

function sum(results: readonly GameResult[], mode: Mode): GameResult {
  const total: GameResult = {
    game: 'total',
    mode,
    moves: 0,
    typedMoves: 0,
    held: 0,
    heldMoves: [],
    clicks: Object.fromEntries(clickKinds.map((k) => [k, 0])) as Record<Click, number>,
    endTurns: 0,
    totalsWrong: 0,
    final: { service: [], sheet: [], right: results.every((r) => r.final.right) },
    wrongSquares: 0,
    frames: 0,
    frameMs: [],
    reasons: {},
    failures: [],
  };
  for (const r of results) {
    total.moves += r.moves;
    total.typedMoves += r.typedMoves;
    total.held += r.held;
    for (const k of clickKinds) total.clicks[k] += r.clicks[k];
    total.endTurns += r.endTurns;
    total.totalsWrong += r.totalsWrong;
    total.wrongSquares += r.wrongSquares;
    total.frames += r.frames;
    total.frameMs.push(...r.frameMs);
    for (const [reason, n] of Object.entries(r.reasons))
      total.reasons[reason] = (total.reasons[reason] ?? 0) + n;
    total.failures.push(...r.failures.map((f) => `${r.game} ${f}`));
  }
  return total;
}

const clicksOf = (r: GameResult) => clickKinds.reduce((n, k) => n + r.clicks[k], 0);
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const percentile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};
const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)}%` : '–');

function summary(r: GameResult) {
  return {
    game: r.game,
    moves: r.moves,
    ...(r.typedMoves ? { typedMoves: r.typedMoves } : {}),
    held: r.held,
    ...(r.game === 'total' ? {} : { heldMoves: r.heldMoves }),
    heldPercent: r.moves ? Math.round((1000 * r.held) / r.moves) / 10 : 0,
    clicks: clicksOf(r),
    clicksByKind: r.clicks,
    endTurnPresses: r.endTurns,
    totalsWrong: r.totalsWrong,
    finalTotalsRight: r.final.right,
    ...(r.game === 'total' ? {} : { finalTotals: r.final.service, sheetTotals: r.final.sheet }),
    squaresWrongWithoutHold: r.wrongSquares,
    frames: r.frames,
    msPerFrame: Math.round(mean(r.frameMs)),
    msPerFrameP95: Math.round(percentile(r.frameMs, 95)),
    reasons: r.reasons,
    failures: r.failures,
    ...(r.racks ? { racks: r.racks } : {}),
  };
}

function printMode(mode: Mode, results: readonly GameResult[], total: GameResult, seconds: number): void {
  const title =
    mode === 'button'
      ? 'capture "button": the camera sees each photo, then End turn'
      : `capture "auto": each photo as a still camera, every ${FRAME_GAP_MS} ms, settling on ${TIMING.frames} readings over ${TIMING.ms} ms`;
  console.log(`\n${title} (${seconds.toFixed(0)} s)`);
  const head = [
    'game',
    'moves',
    'held',
    'clicks',
    'totals wrong',
    'final totals',
    'wrong squares',
    'ms/frame',
  ];
  const rows = [...results, total].map((r) => [
    r.game,
    r.typedMoves ? `${r.moves} (+${r.typedMoves} typed)` : String(r.moves),
    `${r.held} (${pct(r.held, r.moves)})`,
    String(clicksOf(r)),
    String(r.totalsWrong),
    r.game === 'total'
      ? r.final.right
        ? 'all right'
        : `${results.filter((g) => !g.final.right).length} wrong`
      : r.final.right
        ? `${r.final.service.join(':')} right`
        : `${r.final.service.join(':')} WRONG, sheet ${r.final.sheet.join(':')}`,
    String(r.wrongSquares),
    `${Math.round(mean(r.frameMs))} (p95 ${Math.round(percentile(r.frameMs, 95))})`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  for (const r of results)
    if (r.racks)
      console.log(
        `${r.game}: racks the camera kept with its player's ${r.racks.plays} plays: ${r.racks.right} right, ${r.racks.wrong} wrong, ${r.racks.plays - r.racks.right - r.racks.wrong} none`,
      );
  const by = clickKinds.filter((k) => total.clicks[k] > 0).map((k) => `${total.clicks[k]} ${k}`);
  console.log(
    `clicks: ${by.join(', ') || 'none'}${mode === 'button' ? `; besides, the players pressed End turn ${total.endTurns} times` : ''}; ${total.frames} frames sent`,
  );
  const reasons = Object.entries(total.reasons).sort((a, b) => b[1] - a[1]);
  const where = results.filter((r) => r.held > 0).map((r) => `${r.game} ${r.heldMoves.join(', ')}`);
  console.log(`moves held: ${where.join('; ') || 'none'}`);
  console.log(`reasons given for holds (${total.held} moves held):`);
  for (const [reason, n] of reasons) console.log(`  ${String(n).padStart(4)}  ${reason}`);
  if (reasons.length === 0) console.log('     –');
  console.log(`failures (${total.failures.length}):`);
  for (const f of total.failures) console.log(`  ${f}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The run

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'tilecam-live-'));
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let exitCode = 0;
try {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: join(dir, 'db.sqlite'),
    limits: { ...defaultLimits, framesPerSecond: 100, gamesPerMinute: 10000 },
    timing: TIMING,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const report: Record<string, unknown> = {};
  if (!options.json) {
    const moves = games.reduce((n, g) => n + g.moves.filter((m) => !m.typed).length, 0);
    const de = games.filter((g) => (g.lang ?? 'de') === 'de').length;
    const en = games.length - de;
    console.log(
      `tilecam live bench: ${de} real German games (${dataDir})${en ? `, ${en} real English game (${ENGLISH.photos})` : ''}, ${moves} moves with a photo, played over HTTP`,
    );
    const seats = games.map((g) => `${g.name} ${g.first} (${g.names[g.first]})`);
    console.log(`seat 0, who moved first on the sheet: ${seats.join(', ')}`);
    for (const g of games) for (const note of g.notes) console.log(`  ${g.name} ${note}`);
  }
  for (const mode of modes) {
    const t0 = performance.now();
    const results: GameResult[] = [];
    for (const game of games) {
      results.push(await play(base, game, mode));
      if (!options.json) process.stderr.write(`  ${mode} ${game.name} done\n`);
    }
    const total = sum(results, mode);
    const seconds = (performance.now() - t0) / 1000;
    if (!options.json) printMode(mode, results, total, seconds);
    report[mode] = {
      seconds: Math.round(seconds),
      games: results.map(summary),
      total: summary(total),
    };
  }
  const wall = (performance.now() - started) / 1000;
  if (options.json)
    console.log(
      JSON.stringify(
        {
          data: dataDir,
          timing: { ...TIMING, frameGapMs: FRAME_GAP_MS, autoFrames: AUTO_FRAMES },
          notes: Object.fromEntries(games.filter((g) => g.notes.length).map((g) => [g.name, g.notes])),
          modes: report,
          wallSeconds: Math.round(wall),
        },
        null,
        2,
      ),
    );
  else console.log(`\nwall time ${wall.toFixed(0)} s (${runtimeLine()})`);
} catch (err) {
  console.error(
    `bench:live: ${err instanceof ServerFailure ? 'the server failed' : 'failed'}: ${(err as Error).message}`,
  );
  exitCode = 1;
} finally {
  await server?.close();
  // Its read in flight done (a process exiting while onnxruntime runs one in a thread aborts: worker-queue.ts).
  await rackReader.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
