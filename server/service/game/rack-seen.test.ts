import { describe, expect, it } from 'vitest';
import type { Corners } from '../../../vision/index.ts';
import { LOOK_EVERY_MS, LOOKS, RackWatch, rackOf, type SeenTile } from './rack-seen.ts';

const corners: Corners = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
];
const frame = new Uint8Array([1]);

/** Tiles read as `letters`, each surely; a letter after `~` unsure (its other reading second). */
function tiles(letters: string): SeenTile[] {
  return [...letters].map((letter) => ({ sure: true, options: [{ letter, p: 0.99 }] }));
}
const unsure = (a: string, p: number, b: string): SeenTile => ({
  sure: false,
  options: [
    { letter: a, p },
    { letter: b, p: 1 - p - 0.01 },
  ],
});
/** The letters a watch kept for `turn`, read as their likeliest. */
const letters = async (w: RackWatch, turn: number) =>
  (await w.rackFor(turn))?.map((t) => t.options[0]!.letter).join('');

/** A watch whose looks see the racks given (each wholly surely), in turn, counting its looks. */
function watch(...racks: (string | undefined)[]) {
  let looks = 0;
  const w = new RackWatch(async () => {
    const rack = racks[looks++];
    return { rack: rack === undefined ? undefined : tiles(rack) };
  }, 7);
  return { w, looks: () => looks };
}

describe('RackWatch', () => {
  it('looks as a turn starts, again only after a while and a few times a turn, and keeps the fullest rack seen', async () => {
    const { w, looks } = watch('ABC', 'AB', 'ABCDE', 'ABCDEFG');
    w.offer(frame, corners, 4, 0);
    await w.settled();
    expect(await letters(w, 4)).toBe('ABC');
    // Too soon for another look.
    w.offer(frame, corners, 4, LOOK_EVERY_MS - 1);
    await w.settled();
    expect(looks()).toBe(1);
    // Fewer tiles than seen (the player took some off): the first stays.
    w.offer(frame, corners, 4, LOOK_EVERY_MS);
    await w.settled();
    expect(await letters(w, 4)).toBe('ABC');
    w.offer(frame, corners, 4, 2 * LOOK_EVERY_MS);
    await w.settled();
    expect(await letters(w, 4)).toBe('ABCDE');
    // No more looks this turn.
    w.offer(frame, corners, 4, 3 * LOOK_EVERY_MS);
    await w.settled();
    expect(looks()).toBe(LOOKS);
    // Another turn: its own rack, the last turn's gone.
    expect(await w.rackFor(5)).toBeUndefined();
    w.offer(frame, corners, 5, 3 * LOOK_EVERY_MS);
    await w.settled();
    expect(await letters(w, 5)).toBe('ABCDEFG');
    expect(await w.rackFor(4)).toBeUndefined();
  });

  it('waits for a look at the turn’s rack still running when its move is made', async () => {
    const { w } = watch('ABCDEFG');
    w.offer(frame, corners, 3, 0);
    expect(await w.rackFor(2)).toBeUndefined();
    expect(await letters(w, 3)).toBe('ABCDEFG');
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
    /** What the watch's look at the frame says on console.error. */
    const said = async (watching: RackWatch) => {
      const errors: unknown[] = [];
      const original = console.error;
      console.error = (m: unknown) => errors.push(m);
      try {
        watching.offer(frame, corners, 0, 0);
        await watching.settled();
      } finally {
        console.error = original;
      }
      return errors;
    };
    const errors = await said(w);
    expect(calls).toBe(1);
    expect(await w.rackFor(0)).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/rack could not be looked for: no model/);
    // A look cut short as the process stops (the rack reader closing) is no fault: nothing said.
    const closing = new RackWatch(async () => {
      throw Object.assign(new Error('the rack reader is closing'), { name: 'AbortError' });
    }, 7);
    expect(await said(closing)).toEqual([]);
    expect(await closing.rackFor(0)).toBeUndefined();
    const { w: none } = watch(undefined);
    none.offer(frame, corners, 0, 0);
    await none.settled();
    expect(await none.rackFor(0)).toBeUndefined();
  });

  it('reads only around where the rack stood while the grid stays, and every row again once it is not there', async () => {
    const asked: (number | undefined)[] = [];
    const seen = [{ distance: 2 }, { rack: tiles('AB'), distance: 2.25 }, {}, {}, { distance: 3 }, {}];
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
    expect(await letters(w, 1)).toBe('AB');
    await look(moved, 5);
    expect(asked.at(-1)).toBe(3);
  });

  it('keeps where the rack stood on the board camera’s grid through a rack camera’s look, which finds its own', async () => {
    const asked: (number | undefined)[] = [];
    const w = new RackWatch(async (_bytes, _corners, near) => {
      asked.push(near);
      return { distance: 2 };
    }, 7);
    for (const [at, turn] of [
      [corners, 0],
      [undefined, 1],
      [corners, 2],
    ] as const) {
      w.offer(frame, at, turn, 0);
      await w.settled();
    }
    // The rack camera's look (no corners) is a whole one, and leaves the board camera's next look near the rack.
    expect(asked).toEqual([undefined, undefined, 2]);
  });

  it('looks again while a whole rack has unsure tiles, and keeps a look with fewer of them', async () => {
    let looks = 0;
    const seen = [
      [...tiles('ABCDE'), unsure('E', 0.5, 'L'), unsure('N', 0.5, 'H')],
      [...tiles('ABCDEF'), unsure('N', 0.5, 'H')],
      [unsure('A', 0.5, 'R'), ...tiles('BCDEFG')],
      tiles('ABCDEFG'),
    ];
    const w = new RackWatch(async () => ({ rack: seen[looks++] }), 7);
    for (let k = 0; k < 3; k++) {
      w.offer(frame, corners, 0, k * LOOK_EVERY_MS);
      await w.settled();
    }
    expect(looks).toBe(3);
    // The second look (one unsure) is kept; the third (one unsure too) does not replace it.
    expect(await letters(w, 0)).toBe('ABCDEFN');
  });
});

describe('rackOf: the rack a player held, from the tiles seen and the game', () => {
  const all = (letters: string, n = 9) => new Map([...letters].map((l) => [l, n]));
  const available = all('ABCDEFGHIJKLMNOPQRSTUVWXYZ?');

  it('takes a rack read surely as read, and one that does not hold the move’s tiles too', () => {
    expect(rackOf(tiles('RETAINS'), { available, played: ['R', 'A'] })).toBe('RETAINS');
    // Read surely, it is no guess: kept, and the analysis says it does not hold the play.
    expect(rackOf(tiles('RETAINS'), { available, played: ['Q'] })).toBe('RETAINS');
  });

  it('settles an unsure tile by the tiles the move took from the rack', () => {
    const seen = [...tiles('RTAINS'), unsure('L', 0.5, 'E')];
    // L or E as likely: the move played an E, and the rack has no other.
    expect(rackOf(seen, { available, played: ['E', 'T'] })).toBe('RTAINSE');
    // The move does not tell: none is kept.
    expect(rackOf(seen, { available, played: ['T'] })).toBeUndefined();
    // The likelier reading far ahead is kept even so.
    expect(rackOf([...tiles('RTAINS'), unsure('L', 0.9, 'E')], { available, played: ['T'] })).toBe('RTAINSL');
  });

  it('settles an unsure tile by the tiles the board leaves', () => {
    const seen = [...tiles('RTAINS'), unsure('L', 0.5, 'E')];
    const noL = new Map(available);
    noL.set('L', 0);
    expect(rackOf(seen, { available: noL, played: [] })).toBe('RTAINSE');
    // Two Es seen where one is left: none of them is the rack.
    const oneE = new Map(available);
    oneE.set('E', 1);
    expect(rackOf([...tiles('RTAINE'), unsure('E', 0.9, 'L')], { available: oneE, played: [] })).toBe(
      'RTAINEL',
    );
    expect(rackOf(tiles('RTAINEE'), { available: oneE, played: [] })).toBeUndefined();
  });

  it('takes a tile not seen for a blank when the move played one, and keeps no rack short of a tile otherwise', () => {
    // Seen ?AACDER as AACDER (a blank has no letter to read); the move CRAAlED played the blank.
    const seen = tiles('AACDER');
    const played = [...'CRAA?ED'];
    expect(rackOf(seen, { available, played, size: 7 })).toBe('AACDER?');
    // The move played no blank: the tile not seen may be any (hidden, cut off).
    expect(rackOf(seen, { available, played: [...'CRAAED'], size: 7 })).toBeUndefined();
    // Two blanks played, one tile not seen: a tile seen was no letter of the rack.
    expect(rackOf(seen, { available, played: [...'CRAA??'], size: 7 })).toBeUndefined();
    // Both blanks already on the board.
    const noBlank = new Map(available);
    noBlank.set('?', 0);
    expect(rackOf(seen, { available: noBlank, played, size: 7 })).toBeUndefined();
    // More tiles seen than the rack held.
    expect(rackOf(tiles('AACDERST'), { available, played: [], size: 7 })).toBeUndefined();
  });

  it('keeps none when too many tiles are unsure to weigh, or a tile has no reading', () => {
    // Unsure tiles of three readings each, every one an E far likelier than its L or I.
    const e: SeenTile = {
      sure: false,
      options: [
        { letter: 'E', p: 0.99 },
        { letter: 'L', p: 0.005 },
        { letter: 'I', p: 0.005 },
      ],
    };
    // Five are weighed (243 racks): AEEEEE carries 0.95 of the weight.
    expect(rackOf([...tiles('A'), e, e, e, e, e], { available, played: [] })).toBe('AEEEEE');
    // Six (729 racks) are not.
    expect(rackOf([...tiles('A'), e, e, e, e, e, e], { available, played: [] })).toBeUndefined();
    expect(rackOf([{ sure: false, options: [] }], { available, played: [] })).toBeUndefined();
  });
});
