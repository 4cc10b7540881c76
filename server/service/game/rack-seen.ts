/**
 * The rack a seat camera sees: a camera at a player's place (the game's `rackCamera`) has that player's rack in its
 * foreground. While that player is to move, a frame that showed the board is looked at for the rack too (vision's
 * readRack, in a thread of its own, rack-thread.ts: the frame's answer does not wait for it, unless the frame shows
 * the move being made while the look still runs), and the rack seen is kept for the move the player then makes
 * (classic.ts writes it into the move's event, as the scorekeeper's `rack` action would). The rack seen also weighs
 * the readings of that move's tiles (interpret.ts `rack`).
 *
 * When: the rack is looked for before the player takes tiles off it: from their opponents' turns on (they drew after
 * their own move, and the rack stands whole until they play from it), every LOOK_EVERY_MS until a whole rack is seen,
 * at most LOOKS times for a move, and only in frames showing no new tile (classic.ts: once tiles are laid, the rack
 * may hold those drawn after them). A later look
 * replaces an earlier one when it sees more tiles, or as many with fewer unsure.
 *
 * What: the rack is settled when the move is made (`rackOf`), with what the game then knows. A letter the model is
 * unsure of (E or L, blurred in the foreground) is weighed with its other readings: the rack must hold the tiles the
 * move took from it, and no more of a letter than the board leaves. The likeliest rack is kept when it carries
 * RACK_SHARE of the weight of all those that agree; otherwise none is (a guess in the record would be worse than a
 * rack the scorekeeper types). A blank is not read (its face has no letter, and a rack's wood reads much like it):
 * a rack seen a tile short is kept with a blank when the move played one.
 *
 * Where: a steady camera's rack stands where it stood. Once a look has found it, the next looks on the same grid
 * read only the rows around it (vision's readRack `near`: less than half the time), until one finds nothing
 * there; the look after that reads every row again.
 */
import type { Corners } from '../../../vision/index.ts';

/** Looks for the rack of one move, at most. */
export const LOOKS = 3;
/** Between two looks in a turn, at least (a whole look costs about 1.5–3 s of the processor here, a near one 0.5–1.3). */
export const LOOK_EVERY_MS = 4000;
/** A grid is the same when no corner moved more than this share of a square. */
const SAME_GRID = 0.1;

/** A tile seen on the rack: its readings, the likeliest first (vision's RackTile), and whether that one is sure. */
export interface SeenTile {
  readonly sure: boolean;
  readonly options: readonly { readonly letter: string; readonly p: number }[];
}

const BLANK = '?';
/** The likeliest rack is kept when it carries this share of the weight of all the racks that agree with the game. */
export const RACK_SHARE = 0.75;
/** More racks than this are not weighed (five unsure tiles of three readings each): none is kept. */
const MAX_RACKS = 243;

/** What a rack seen must agree with, as the game stood when its player moved. */
export interface RackContext {
  /** The tiles not on the board before the move, letter (`?` for a blank) → how many. */
  readonly available: ReadonlyMap<string, number>;
  /** The tiles the move took from the rack (`?` for a blank): a play's tiles, an exchange's; none for a pass. */
  readonly played: readonly string[];
  /** How many tiles the rack held, when the game knows (a full rack while the bag had tiles to draw). */
  readonly size?: number | undefined;
}

/**
 * The rack a player held, from the tiles the camera saw on it and what the game knows (see above), or undefined.
 * A rack read wholly surely that does not hold the move's tiles is kept as read (the scorekeeper's analysis says it
 * does not hold them): it is no guess of ours.
 */
export function rackOf(tiles: readonly SeenTile[], ctx: RackContext): string | undefined {
  if (tiles.length === 0 || tiles.some((t) => t.options.length === 0)) return undefined;
  // Tiles not seen (fewer than the rack held): a blank, which the camera does not read, or a tile hidden or cut off.
  // They are blanks when the move played as many blanks: those came from this rack, and none of them was seen.
  const missing = (ctx.size ?? tiles.length) - tiles.length;
  if (missing < 0 || (missing > 0 && ctx.played.filter((t) => t === BLANK).length !== missing))
    return undefined;
  const unseen = BLANK.repeat(missing);
  const choices = tiles.map((t) => (t.sure ? t.options.slice(0, 1) : t.options));
  if (choices.reduce((n, c) => n * c.length, 1) > MAX_RACKS) return undefined;
  const counts = (letters: Iterable<string>) => {
    const m = new Map<string, number>();
    for (const l of letters) m.set(l, (m.get(l) ?? 0) + 1);
    return m;
  };
  const played = counts(ctx.played);
  let total = 0;
  let best: { rack: string; weight: number } | undefined;
  let asRead: string | undefined;
  const pick = tiles.map(() => 0);
  for (;;) {
    const letters = [...choices.map((c, k) => c[pick[k]!]!.letter), ...unseen];
    const held = counts(letters);
    if ([...held].every(([l, n]) => n <= (ctx.available.get(l) ?? 0))) {
      if (pick.every((j) => j === 0) && tiles.every((t) => t.sure)) asRead = letters.join('');
      if ([...played].every(([l, n]) => n <= (held.get(l) ?? 0))) {
        const weight = choices.reduce((w, c, k) => w * c[pick[k]!]!.p, 1);
        total += weight;
        if (!best || weight > best.weight) best = { rack: letters.join(''), weight };
      }
    }
    let k = 0;
    while (k < pick.length && ++pick[k]! >= choices[k]!.length) pick[k++] = 0;
    if (k === pick.length) break;
  }
  if (!best) return asRead;
  return best.weight >= RACK_SHARE * total ? best.rack : undefined;
}

/** What a look saw: the rack's tiles, when it is one to weigh, and where a rack stood (even one not kept), if one was
 *  seen. */
export interface RackLook {
  readonly rack?: readonly SeenTile[] | undefined;
  /** The rack's distance in front of the board (vision's RackReading). */
  readonly distance?: number | undefined;
}

export class RackWatch {
  /** The rack seen for the move at `turn` (the game's turn count when it was seen). */
  private seen: { readonly turn: number; readonly rack: readonly SeenTile[] } | undefined;
  private tries = { turn: -1, count: 0, at: Number.NEGATIVE_INFINITY };
  private looking: { readonly turn: number; readonly done: Promise<void> } | undefined;
  /** Where the last look found a rack, and on which grid. */
  private place: { readonly corners: Corners; readonly distance: number } | undefined;

  constructor(
    /**
     * Reads the rack in a frame on its grid, only around `near` when given: its tiles when they may be the player's
     * whole rack, and where it stood.
     */
    private readonly read: (
      bytes: Uint8Array,
      corners: Corners | undefined,
      near: number | undefined,
    ) => Promise<RackLook>,
    /** A whole rack: no more looks this turn once it is seen. */
    private readonly rackSize: number,
  ) {}

  /**
   * A frame that showed the board on `corners` (undefined: a rack camera's frame, whose board the look finds itself),
   * for the move the player makes when the game has `turn` turns: the rack is looked for in it when a look is due.
   * Whether one began.
   */
  offer(bytes: Uint8Array, corners: Corners | undefined, turn: number, now = Date.now()): boolean {
    if (this.looking) return false;
    if (this.seen?.turn === turn && whole(this.seen.rack, this.rackSize)) return false;
    if (this.tries.turn !== turn) this.tries = { turn, count: 0, at: Number.NEGATIVE_INFINITY };
    if (this.tries.count >= LOOKS || now - this.tries.at < LOOK_EVERY_MS) return false;
    this.tries = { turn, count: this.tries.count + 1, at: now };
    const near =
      corners && this.place && sameGrid(this.place.corners, corners) ? this.place.distance : undefined;
    const done = this.read(bytes, corners, near)
      .then(({ rack, distance }) => {
        // A look that found the board itself (a rack camera's) says nothing of the grid the corners' looks are on.
        if (corners) this.place = distance === undefined ? undefined : { corners, distance };
        if (!rack) return;
        if (this.seen?.turn === turn && !better(rack, this.seen.rack)) return;
        this.seen = { turn, rack };
      })
      .catch((err: unknown) => {
        // A look cut short as the process stops (the rack reader closing: an AbortError) is no fault to report.
        if (err instanceof Error && err.name === 'AbortError') return;
        // A frame the board was read from is an image: a failure here is the vision's, not the frame's.
        console.error(`tilecam: the rack could not be looked for: ${(err as Error).message}`);
      })
      .finally(() => {
        this.looking = undefined;
      });
    this.looking = { turn, done };
    return true;
  }

  /**
   * The rack seen for the move made when the game had `turn` turns, if one was. A look at that turn's rack still
   * running is waited for (a move made within a second or two of the turn's start: the rack was being read), `ms` at
   * most when given.
   */
  async rackFor(turn: number, ms?: number): Promise<readonly SeenTile[] | undefined> {
    if (this.looking?.turn === turn) {
      if (ms === undefined) await this.looking.done;
      else await this.lookAt(turn, ms);
    }
    return this.seen?.turn === turn ? this.seen.rack : undefined;
  }

  /** Waits for a look at the rack of the move at `turn` still running, `ms` at most: whether one ended. */
  async lookAt(turn: number, ms: number): Promise<boolean> {
    if (this.looking?.turn !== turn) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([this.looking.done.then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The rack seen so far for the move at `turn`, without waiting for a look still running. */
  seenFor(turn: number): readonly SeenTile[] | undefined {
    return this.seen?.turn === turn ? this.seen.rack : undefined;
  }

  /** Resolves when no look is running (tests, and a game closing). */
  async settled(): Promise<void> {
    while (this.looking) await this.looking.done;
  }
}

/** A rack seen whole and wholly surely: no need to look again in the turn. */
function whole(rack: readonly SeenTile[], rackSize: number): boolean {
  return rack.length >= rackSize && rack.every((t) => t.sure);
}

/** Whether rack `a` was seen better than `b`: more tiles, or as many with fewer unsure. */
function better(a: readonly SeenTile[], b: readonly SeenTile[]): boolean {
  const unsure = (r: readonly SeenTile[]) => r.filter((t) => !t.sure).length;
  return a.length > b.length || (a.length === b.length && unsure(a) < unsure(b));
}

/** Whether two grids are one: no corner moved SAME_GRID of a square or more. */
function sameGrid(a: Corners, b: Corners): boolean {
  const square = Math.hypot(a[1][0] - a[0][0], a[1][1] - a[0][1]) / 15;
  return a.every(([x, y], i) => Math.hypot(x - b[i]![0], y - b[i]![1]) < SAME_GRID * square);
}
