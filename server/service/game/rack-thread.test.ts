/** The rack reader's thread, on a frame of the rendered seat game (fixtures/seat-game, never trained on). */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Corners } from '../../../vision/index.ts';
import { readFrame, readRackIn } from './frames.ts';
import { RackReader } from './rack-thread.ts';

const frame = readFileSync(new URL('../../../fixtures/seat-game/move-08.jpg', import.meta.url));
const readers: RackReader[] = [];
const reader = (options?: ConstructorParameters<typeof RackReader>[0]) => {
  const r = new RackReader(options);
  readers.push(r);
  return r;
};
afterAll(async () => {
  for (const r of readers) await r.close();
});

describe('reading racks in a thread of their own', () => {
  it('reads the rack as the main thread would', async () => {
    const { reading } = await readFrame(frame, 'en');
    const corners = reading.corners as unknown as Corners;
    const here = await readRackIn(frame, corners, 'en');
    const there = await reader().read(frame, corners, 'en');
    expect(here?.tiles.map((t) => t.letter).join('')).toBe('FGIIIOU');
    expect(there).toEqual(here);
  }, 60_000);

  it('refuses a read that takes too long, and reads the next in a fresh thread', async () => {
    const { reading } = await readFrame(frame, 'en');
    const corners = reading.corners as unknown as Corners;
    const one = reader();
    // A read given a millisecond is stopped, its thread ended; the same reader reads the next in a fresh thread.
    await expect(one.read(frame, corners, 'en', undefined, 1)).rejects.toThrow(
      /took over 0.001 s: it was stopped/,
    );
    expect((await one.read(frame, corners, 'en'))?.tiles).toHaveLength(7);
  }, 60_000);

  it('refuses reads beyond its queue at once, and answers a bad request with an error', async () => {
    const { reading } = await readFrame(frame, 'en');
    const corners = reading.corners as unknown as Corners;
    const small = reader({ queue: 1 });
    const first = small.read(frame, corners, 'en');
    const second = small.read(frame, corners, 'en');
    await expect(small.read(frame, corners, 'en')).rejects.toThrow(/1 racks are waiting to be read already/);
    await Promise.all([first, second]);
    await expect(small.read(new Uint8Array([1, 2, 3]), corners, 'en')).rejects.toThrow(
      /the rack could not be read/,
    );
  }, 60_000);
});
