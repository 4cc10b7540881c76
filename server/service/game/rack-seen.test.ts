import { describe, expect, it } from 'vitest';
import type { Corners } from '../../../vision/index.ts';
import { LOOK_EVERY_MS, LOOKS, RackWatch } from './rack-seen.ts';

const corners: Corners = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
];
const frame = new Uint8Array([1]);

/** A watch whose looks see the racks given, in turn, counting its looks. */
function watch(...racks: (string | undefined)[]) {
  let looks = 0;
  const w = new RackWatch(async () => ({ rack: racks[looks++] }), 7);
  return { w, looks: () => looks };
}

describe('RackWatch', () => {
  it('looks as a turn starts, again only after a while and a few times a turn, and keeps the fullest rack seen', async () => {
    const { w, looks } = watch('ABC', 'AB', 'ABCDE', 'ABCDEFG');
    w.offer(frame, corners, 4, 0);
    await w.settled();
    expect(await w.rackFor(4)).toBe('ABC');
    // Too soon for another look.
    w.offer(frame, corners, 4, LOOK_EVERY_MS - 1);
    await w.settled();
    expect(looks()).toBe(1);
    // Fewer tiles than seen (the player took some off): the first stays.
    w.offer(frame, corners, 4, LOOK_EVERY_MS);
    await w.settled();
    expect(await w.rackFor(4)).toBe('ABC');
    w.offer(frame, corners, 4, 2 * LOOK_EVERY_MS);
    await w.settled();
    expect(await w.rackFor(4)).toBe('ABCDE');
    // No more looks this turn.
    w.offer(frame, corners, 4, 3 * LOOK_EVERY_MS);
    await w.settled();
    expect(looks()).toBe(LOOKS);
    // Another turn: its own rack, the last turn's gone.
    expect(await w.rackFor(5)).toBeUndefined();
    w.offer(frame, corners, 5, 3 * LOOK_EVERY_MS);
    await w.settled();
    expect(await w.rackFor(5)).toBe('ABCDEFG');
    expect(await w.rackFor(4)).toBeUndefined();
  });

  it('waits for a look at the turn’s rack still running when its move is made', async () => {
    const { w } = watch('ABCDEFG');
    w.offer(frame, corners, 3, 0);
    expect(await w.rackFor(2)).toBeUndefined();
    expect(await w.rackFor(3)).toBe('ABCDEFG');
  });

  it('stops looking in a turn once a whole rack is seen, and looks once at a time', async () => {
    const { w, looks } = watch('ABCDEFG', 'ABCDEFG');
    w.offer(frame, corners, 0, 0);
    w.offer(frame, corners, 0, LOOK_EVERY_MS * 10);
    await w.settled();
    expect(looks()).toBe(1);
    w.offer(frame, corners, 0, LOOK_EVERY_MS * 20);
    await w.settled();
    expect(looks()).toBe(1);
  });

  it('keeps nothing when a look fails or sees no rack', async () => {
    let calls = 0;
    const w = new RackWatch(async () => {
      calls++;
      throw new Error('no model');
    }, 7);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (m: unknown) => errors.push(m);
    try {
      w.offer(frame, corners, 0, 0);
      await w.settled();
    } finally {
      console.error = original;
    }
    expect(calls).toBe(1);
    expect(await w.rackFor(0)).toBeUndefined();
    expect(String(errors[0])).toMatch(/rack could not be looked for: no model/);
    const { w: none } = watch(undefined);
    none.offer(frame, corners, 0, 0);
    await none.settled();
    expect(await none.rackFor(0)).toBeUndefined();
  });

  it('reads only around where the rack stood while the grid stays, and every row again once it is not there', async () => {
    const asked: (number | undefined)[] = [];
    const seen = [{ distance: 2 }, { rack: 'AB', distance: 2.25 }, {}, {}, { distance: 3 }];
    const w = new RackWatch(async (_bytes, _corners, near) => {
      asked.push(near);
      return seen[asked.length - 1]!;
    }, 7);
    // A tenth of a square is 0.067 px on this 10-px grid: a grid 0.05 px off is the same; 1 px off is another.
    const nudged = corners.map(([x, y]) => [x + 0.05, y]) as unknown as Corners;
    const moved = corners.map(([x, y]) => [x + 1, y]) as unknown as Corners;
    const look = async (at: Corners, turn: number) => {
      w.offer(frame, at, turn, 0);
      await w.settled();
    };
    await look(corners, 0);
    await look(nudged, 1);
    await look(nudged, 2);
    await look(nudged, 3);
    await look(moved, 4);
    // The first look reads every row; the next on the same grid near the rack (2, then 2.25); a near look that
    // sees none leaves the next to read every row; a moved grid too.
    expect(asked).toEqual([undefined, 2, 2.25, undefined, undefined]);
    expect(await w.rackFor(1)).toBe('AB');
    await look(moved, 5);
    expect(asked.at(-1)).toBe(3);
  });
});
