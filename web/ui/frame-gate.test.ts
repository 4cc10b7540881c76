/**
 * Which frames the camera page sends between turns: a still board once and a few times after, then every 5 s; a
 * change at once (a tile's worth of pixels, or the light drifting), never the camera's noise; End turn always.
 */
import { describe, expect, it } from 'vitest';
import {
  CHANGED_PIXELS,
  FrameGate,
  GLANCE_HEIGHT,
  GLANCE_WIDTH,
  greyOf,
  HEARTBEAT_MS,
  LEVELS,
  SETTLE,
} from './frame-gate.ts';

/** A board-like small picture: squares of two greys. */
function board(): Uint8Array {
  const grey = new Uint8Array(GLANCE_WIDTH * GLANCE_HEIGHT);
  for (let y = 0; y < GLANCE_HEIGHT; y++)
    for (let x = 0; x < GLANCE_WIDTH; x++)
      grey[y * GLANCE_WIDTH + x] = (x >> 3) % 2 === (y >> 3) % 2 ? 90 : 150;
  return grey;
}

/** `grey` with a square of `side` pixels at (x, y) moved by `by` levels (a tile put down). */
function withTile(grey: Uint8Array, x: number, y: number, side: number, by = 60): Uint8Array {
  const out = grey.slice();
  for (let j = y; j < y + side; j++) for (let i = x; i < x + side; i++) out[j * GLANCE_WIDTH + i]! += by;
  return out;
}

/** Sends a glance a second from `from` (ms) on, and says at which seconds the gate let a frame go. */
function sentAt(gate: FrameGate, glances: Uint8Array[], from = 0): number[] {
  return glances.flatMap((g, s) => (gate.next(g, from + s * 1000) ? [s] : []));
}

describe('the camera page’s frame gate', () => {
  /** The seconds a still board is sent at from second 0: then, the settling frames, then one every 5 s. */
  const stillAt = (seconds: number) =>
    Array.from({ length: seconds }, (_, s) => s).filter(
      (s) => s <= SETTLE || (s - SETTLE) % (HEARTBEAT_MS / 1000) === 0,
    );

  it('sends a still board once, then the settling frames, then a heartbeat every 5 s', () => {
    const gate = new FrameGate();
    const still = board();
    const sent = sentAt(
      gate,
      Array.from({ length: 60 }, () => still),
    );
    expect(sent).toEqual(stillAt(60));
    expect(sent.slice(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 10]);
    // A minute of a still board: 16 frames instead of 60.
    expect(sent.length).toBe(16);
  });

  it('does not take the camera’s noise for a change', () => {
    const gate = new FrameGate();
    const still = board();
    let seed = 7;
    // Every pixel off by up to just under half of LEVELS, either way, anew each second: two frames then differ by
    // less than LEVELS.
    const half = Math.floor((LEVELS - 1) / 2);
    const noisy = () =>
      still.map((v) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return v + ((seed >> 16) % (2 * half + 1)) - half;
      });
    expect(sentAt(gate, [still, ...Array.from({ length: 15 }, noisy)])).toEqual(stillAt(16));
  });

  it('sends a tile put down at once, and the settling frames after it', () => {
    const gate = new FrameGate();
    const still = board();
    const tile = withTile(still, 40, 40, 6);
    const glances = [...Array.from({ length: 13 }, () => still), ...Array.from({ length: 7 }, () => tile)];
    expect(sentAt(gate, glances)).toEqual([0, 1, 2, 3, 4, 5, 10, 13, 14, 15, 16, 17, 18]);
  });

  it('takes CHANGED_PIXELS pixels moved by LEVELS for a change, and no fewer of either', () => {
    /** `count` pixels of the board, spread over it, moved by `by`. */
    const moved = (count: number, by: number) => {
      const out = board();
      for (let k = 0; k < count; k++) out[k * 997]! += by;
      return out;
    };
    const at = (change: Uint8Array) =>
      sentAt(new FrameGate(), [...Array.from({ length: 8 }, () => board()), change, change]);
    expect(at(moved(CHANGED_PIXELS, LEVELS))).toEqual([0, 1, 2, 3, 4, 5, 8, 9]);
    expect(at(moved(CHANGED_PIXELS - 1, LEVELS))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(at(moved(CHANGED_PIXELS, LEVELS - 1))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('takes for a change the fewest pixels a tile put down was seen to move (20, by 16 levels or more)', () => {
    // 20 tiles of a real board photo, each copied onto an empty square, the board 400 px wide in a 1280×720 frame:
    // the fewest glance pixels one moved by LEVELS was 20 (docs/measurements.md, session 19).
    const tile = board();
    for (let k = 0; k < 20; k++) tile[k * 997]! += 16;
    expect(sentAt(new FrameGate(), [...Array.from({ length: 8 }, () => board()), tile])).toEqual([
      0, 1, 2, 3, 4, 5, 8,
    ]);
  });

  it('compares with the last frame sent: light that drifts a little each second is sent once it adds up', () => {
    const gate = new FrameGate();
    const glances = Array.from({ length: 12 }, (_, s) => board().map((v) => v + 4 * s));
    // Settled at 5 (the frame then shows 20 levels more than the first); 4 levels a second reach LEVELS at 9.
    expect(sentAt(gate, glances)).toEqual([0, 1, 2, 3, 4, 5, 9, 10, 11]);
  });

  it('always sends End turn, and the settling frames after it; another camera starts afresh', () => {
    const gate = new FrameGate();
    const still = board();
    for (let s = 0; s < 10; s++) gate.next(still, s * 1000);
    expect(gate.next(still, 9_500)).toBe(false);
    expect(gate.next(still, 9_800, true)).toBe(true);
    expect([11, 12, 13, 14, 15, 16].map((s) => gate.next(still, s * 1000))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    gate.reset();
    expect(gate.next(still, 16_200)).toBe(true);
  });

  it('sends the next frame once connected again, whatever it shows; messages on a live connection change nothing', () => {
    const gate = new FrameGate();
    const still = board();
    gate.connection(true);
    for (let s = 0; s <= 5; s++) expect(gate.next(still, s * 1000)).toBe(true);
    // Every message says the connection is live: the gate goes on as it was (the next heartbeat at 10 s).
    gate.connection(true);
    expect(gate.next(still, 6000)).toBe(false);
    // Down, then up again within the 5 s of a still board (no frame was due, none failed to go): the next is sent.
    gate.connection(false);
    expect(gate.next(still, 7000)).toBe(false);
    gate.connection(true);
    expect(gate.next(still, 8000)).toBe(true);
    // And then the settling frames, as after any frame sent afresh (a new server's automatic capture wants a few).
    expect(gate.next(still, 9000)).toBe(true);
  });

  it('greys a canvas’s RGBA pixels', () => {
    expect([...greyOf([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 0])]).toEqual([
      255, 0, 76, 149,
    ]);
  });
});
