/**
 * The rack a seat camera sees: a camera at a player's place (the game's `rackCamera`) has that player's rack in its
 * foreground. While that player is to move, a frame that showed the board is looked at for the rack too (vision's
 * readRack, in the background: the frame's answer does not wait for it), and the rack seen is kept for the move the
 * player then makes (classic.ts writes it into the move's event, as the scorekeeper's `rack` action would).
 *
 * When: the rack is looked for as the turn starts, before the player takes tiles off it: from the first frame of the
 * turn, then every LOOK_EVERY_MS until a whole rack is seen, at most LOOKS times a turn, and only while the board
 * shows no new tile (classic.ts: once tiles are laid, the rack may hold those drawn after them). A later look
 * replaces an earlier one only when it sees more tiles. Only a rack read wholly surely counts: a letter the model is unsure of
 * would be a guess in the record, and the scorekeeper can still type the rack.
 *
 * Where: a steady camera's rack stands where it stood. Once a look has found it, the next looks on the same grid
 * read only the rows around it (vision's readRack `near`: less than half the time), until one finds nothing
 * there; the look after that reads every row again.
 */
import type { Corners } from '../../../vision/index.ts';

/** Looks for the rack in one turn, at most. */
export const LOOKS = 3;
/** Between two looks in a turn, at least (a whole look costs about 1.5–3 s of the processor here, a near one 0.5–1.3). */
export const LOOK_EVERY_MS = 4000;
/** A grid is the same when no corner moved more than this share of a square. */
const SAME_GRID = 0.1;

/** What a look saw: the rack, when it is one to keep, and where a rack stood (even one not kept), if one was seen. */
export interface RackLook {
  readonly rack?: string | undefined;
  /** The rack's distance in front of the board (vision's RackReading). */
  readonly distance?: number | undefined;
}

export class RackWatch {
  /** The rack seen for the move at `turn` (the game's turn count when it was seen). */
  private seen: { readonly turn: number; readonly rack: string } | undefined;
  private tries = { turn: -1, count: 0, at: Number.NEGATIVE_INFINITY };
  private looking: { readonly turn: number; readonly done: Promise<void> } | undefined;
  /** Where the last look found a rack, and on which grid. */
  private place: { readonly corners: Corners; readonly distance: number } | undefined;

  constructor(
    /**
     * Reads the rack in a frame on its grid, only around `near` when given: its letters when every one is read
     * surely, and where it stood.
     */
    private readonly read: (
      bytes: Uint8Array,
      corners: Corners,
      near: number | undefined,
    ) => Promise<RackLook>,
    /** A whole rack: no more looks this turn once it is seen. */
    private readonly rackSize: number,
  ) {}

  /**
   * A frame that showed the board on `corners`, while the camera's player is to move and the game has `turn` turns:
   * the rack is looked for in it when a look is due.
   */
  offer(bytes: Uint8Array, corners: Corners, turn: number, now = Date.now()): void {
    if (this.looking) return;
    if (this.seen?.turn === turn && [...this.seen.rack].length >= this.rackSize) return;
    if (this.tries.turn !== turn) this.tries = { turn, count: 0, at: Number.NEGATIVE_INFINITY };
    if (this.tries.count >= LOOKS || now - this.tries.at < LOOK_EVERY_MS) return;
    this.tries = { turn, count: this.tries.count + 1, at: now };
    const near = this.place && sameGrid(this.place.corners, corners) ? this.place.distance : undefined;
    const done = this.read(bytes, corners, near)
      .then(({ rack, distance }) => {
        this.place = distance === undefined ? undefined : { corners, distance };
        if (!rack) return;
        if (this.seen?.turn === turn && [...this.seen.rack].length >= [...rack].length) return;
        this.seen = { turn, rack };
      })
      .catch((err: unknown) => {
        // A frame the board was read from is an image: a failure here is the vision's, not the frame's.
        console.error(`tilecam: the rack could not be looked for: ${(err as Error).message}`);
      })
      .finally(() => {
        this.looking = undefined;
      });
    this.looking = { turn, done };
  }

  /**
   * The rack seen for the move made when the game had `turn` turns, if one was. A look at that turn's rack still
   * running is waited for (a move made within a second or two of the turn's start: the rack was being read).
   */
  async rackFor(turn: number): Promise<string | undefined> {
    if (this.looking?.turn === turn) await this.looking.done;
    return this.seen?.turn === turn ? this.seen.rack : undefined;
  }

  /** Resolves when no look is running (tests, and a game closing). */
  async settled(): Promise<void> {
    while (this.looking) await this.looking.done;
  }
}

/** Whether two grids are one: no corner moved SAME_GRID of a square or more. */
function sameGrid(a: Corners, b: Corners): boolean {
  const square = Math.hypot(a[1][0] - a[0][0], a[1][1] - a[0][1]) / 15;
  return a.every(([x, y], i) => Math.hypot(x - b[i]![0], y - b[i]![1]) < SAME_GRID * square);
}
