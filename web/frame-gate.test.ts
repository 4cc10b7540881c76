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
  it('sends a still board once, then the settling frames, then a heartbeat every 5 s', () => {
    const gate = new FrameGate();
    const still = board();
    const sent = sentAt(
      gate,
      Array.from({ length: 60 }, () => still),
    );
    expect(sent.slice(0, 1 + SETTLE)).toEqual([0, 1, 2, 3]);
    const beats = sent.slice(1 + SETTLE);
    expect(beats.length).toBeGreaterThan(0);
    for (const [k, s] of beats.entries()) expect(s - (k === 0 ? 3 : beats[k - 1]!)).toBe(HEARTBEAT_MS / 1000);
    // A minute of a still board: 15 frames instead of 60.
    expect(sent.length).toBe(15);
  });

  it('does not take the camera’s noise for a change', () => {
    const gate = new FrameGate();
    const still = board();
    let seed = 7;
    const noisy = () =>
      still.map((v) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return v + ((seed >> 16) % 7) - 3;
      });
    const sent = sentAt(gate, [still, ...Array.from({ length: 9 }, noisy)]);
    // The first and its settling frames, then nothing until the heartbeat at 8 s (5 s after the last sent).
    expect(sent).toEqual([0, 1, 2, 3, 8]);
  });

  it('sends a tile put down at once, and the settling frames after it', () => {
    const gate = new FrameGate();
    const still = board();
    const tile = withTile(still, 40, 40, 6);
    const glances = [still, still, still, still, still, still, tile, tile, tile, tile, tile, tile];
    expect(sentAt(gate, glances)).toEqual([0, 1, 2, 3, 6, 7, 8, 9]);
  });

  it('leaves a change of fewer pixels than a tile’s, or of a few levels, to the heartbeat', () => {
    const small = withTile(board(), 40, 40, Math.floor(Math.sqrt(CHANGED_PIXELS - 1)));
    const faint = withTile(board(), 40, 40, 8, LEVELS - 1);
    for (const change of [small, faint]) {
      const gate = new FrameGate();
      expect(sentAt(gate, [board(), board(), board(), board(), change, change])).toEqual([0, 1, 2, 3]);
    }
  });

  it('compares with the last frame sent: light that drifts a little each second is sent once it adds up', () => {
    const gate = new FrameGate();
    const glances = Array.from({ length: 12 }, (_, s) => board().map((v) => v + 4 * s));
    // Settled at 3 (the frame then shows 12 levels more than the first); 4 levels a second reach LEVELS at 8.
    expect(sentAt(gate, glances)).toEqual([0, 1, 2, 3, 8, 9, 10, 11]);
  });

  it('always sends End turn, and the settling frames after it; another camera starts afresh', () => {
    const gate = new FrameGate();
    const still = board();
    for (let s = 0; s < 10; s++) gate.next(still, s * 1000);
    expect(gate.next(still, 10_000)).toBe(false);
    expect(gate.next(still, 10_500, true)).toBe(true);
    expect([11, 12, 13, 14].map((s) => gate.next(still, s * 1000))).toEqual([true, true, true, false]);
    gate.reset();
    expect(gate.next(still, 14_200)).toBe(true);
  });

  it('greys a canvas’s RGBA pixels', () => {
    expect([...greyOf([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 0])]).toEqual([
      255, 0, 76, 149,
    ]);
  });
});
