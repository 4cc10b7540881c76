/** The rack reader's thread, on a frame of the rendered seat game (fixtures/seat-game, never trained on). */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

  it('refuses a read that takes too long, and reads the next once the thread is free', async () => {
    const { reading } = await readFrame(frame, 'en');
    const corners = reading.corners as unknown as Corners;
    const one = reader();
    // A read given a millisecond is refused; its thread, never cut off mid-run, reads the next once it is free.
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

  it('refuses the reads it holds when closed as aborted (a game does not report them)', async () => {
    const { reading } = await readFrame(frame, 'en');
    const corners = reading.corners as unknown as Corners;
    const closing = reader();
    const reads = [closing.read(frame, corners, 'en'), closing.read(frame, corners, 'en')];
    const settled = Promise.allSettled(reads);
    await closing.close();
    for (const r of await settled) {
      expect(r.status).toBe('rejected');
      if (r.status === 'rejected') {
        expect((r.reason as Error).name).toBe('AbortError');
        expect((r.reason as Error).message).toBe('the rack reader is closing');
      }
    }
  }, 60_000);

  it('stops reads while the model runs them without ending the process, and closes before it exits', async () => {
    // In a process of its own (rack-stop.child.mjs): a thread ended while onnxruntime runs a read aborted the whole
    // process ("terminate called after throwing an instance of 'Napi::Error'", exit 134) once the run came back.
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./rack-stop.child.mjs', import.meta.url)), '100', '300', '600'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(err).not.toMatch(/terminate called/);
    expect(code, err.slice(-500)).toBe(0);
    const { stopped } = JSON.parse(out.trim()) as { stopped: number; answered: number };
    // The reads given 100 ms at least were stopped mid-run (a warm read takes about a second here), and the last.
    expect(stopped).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
