import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HAND_WAIT_MS, HandWaits } from './hand-wait.ts';

describe('End turns waiting out a hand', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = () => {
    const held: [number, string][] = [];
    const queue: (() => Promise<unknown>)[] = [];
    const waits = new HandWaits<string>(
      (task) => queue.push(task),
      async (camera, last) => {
        held.push([camera, last]);
      },
    );
    const drain = async () => {
      while (queue.length > 0) await queue.shift()!();
    };
    return { waits, held, drain };
  };

  it('holds the last reading it was given once the time is up, in the game’s queue', async () => {
    const { waits, held, drain } = make();
    waits.wait(2, 'first');
    vi.advanceTimersByTime(HAND_WAIT_MS / 2);
    waits.wait(2, 'second'); // a newer frame with the hand still there: the time runs on, not anew
    vi.advanceTimersByTime(HAND_WAIT_MS / 2 - 1);
    await drain();
    expect(held).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(held).toEqual([]); // queued, not run before the frames ahead of it
    await drain();
    expect(held).toEqual([[2, 'second']]);
    expect(waits.size).toBe(0);
  });

  it('holds nothing for a wait that a clear frame ended, even when its timer had already fired', async () => {
    const { waits, held, drain } = make();
    waits.wait(0, 'hand');
    vi.advanceTimersByTime(HAND_WAIT_MS); // the expiry is queued behind a clear frame being read…
    expect(waits.stop(0)).toBe('hand'); // …which ends the turn
    waits.wait(0, 'next turn'); // and a new wait begins before the queue reaches the old expiry
    await drain();
    expect(held).toEqual([]);
    expect(waits.entries()).toEqual([[0, 'next turn']]);
  });

  it('keeps one wait per camera, and stops them all at once', async () => {
    const { waits, held, drain } = make();
    waits.wait(0, 'a');
    waits.wait(1, 'b');
    expect(waits.has(1)).toBe(true);
    expect(waits.stopAll()).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
    vi.advanceTimersByTime(2 * HAND_WAIT_MS);
    await drain();
    expect(held).toEqual([]);
    expect(waits.size).toBe(0);
  });
});
