/**
 * How a frame's reading passes the vision's failures on: the picture's fault for the camera, the server's as its
 * own; and the camera picture of a frame with no board still goes out, without a grid.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { type Camera, VisionError, type VisionErrorCode } from '../../../vision/index.ts';
import { ServiceError } from '../errors.ts';

const failure = vi.hoisted(() => ({ code: 'no-model' as VisionErrorCode }));
vi.mock('../../../vision/index.ts', async (original) => {
  const vision = await original<typeof import('../../../vision/index.ts')>();
  const recognize = async () => {
    throw new vision.VisionError(failure.code, `vision failed: ${failure.code}`);
  };
  return {
    ...vision,
    recognize,
    Camera: class {
      read = recognize;
    },
  };
});

const { readFrame } = await import('./frames.ts');
const { FrameIntake } = await import('./live.ts');

/** Cameras whose read of frame `name` notes the name when it starts, then waits until its gate is opened, and reads
 *  an empty board. */
function gatedCameras() {
  const log: string[] = [];
  const gates = new Map<string, () => void>();
  const camera = (name: string) =>
    ({
      read: async () => {
        log.push(name);
        await new Promise<void>((resolve) => gates.set(name, resolve));
        return { board: Array.from({ length: 15 }, () => '.'.repeat(15)) };
      },
    }) as unknown as Camera;
  return { log, gates, camera };
}

describe('readFrame', () => {
  it('answers a picture without a board as no-board, with a thumbnail without a grid', async () => {
    failure.code = 'no-board';
    const intake = new FrameIntake('en', 1);
    const thumbnail = vi.fn();
    intake.onThumbnail(thumbnail);
    const photo = readFileSync(new URL('../../../fixtures/demo_game/0.jpg', import.meta.url));
    const err = await intake.read(photo, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: 'no-board' });
    expect(thumbnail).toHaveBeenCalledTimes(1);
    expect(thumbnail.mock.calls[0]![0]).toMatchObject({ corners: null });
    // A picture with no board is not kept for End turn, which says so.
    expect(() => intake.last(0)).toThrow(/the camera has shown no board yet/);
    expect(() => new FrameIntake('en', 1).last(0)).toThrow(/no frame has arrived from the camera yet/);
  });

  it('makes the picture only for a page that shows it: a page that asked for the grid gets the grid alone', async () => {
    failure.code = 'no-board';
    const photo = readFileSync(new URL('../../../fixtures/demo_game/0.jpg', import.meta.url));
    const intake = new FrameIntake('en', 1);
    // A picture is shrunk from the frame: sharp's resize is how it is made.
    const shrunk = vi.spyOn(sharp.prototype, 'resize');
    onTestFinished(() => shrunk.mockRestore());
    const grid = vi.fn();
    const stopGrid = intake.onThumbnail(grid, { pictures: false });
    await intake.read(photo, 0).catch(() => {});
    // Only the grid is watched: no picture is made, and the frame's size comes from its header.
    expect(grid).toHaveBeenCalledTimes(1);
    expect(grid.mock.calls[0]![0]).toEqual({ width: 1000, height: 1000, corners: null });
    expect(shrunk).not.toHaveBeenCalled();
    // A page that shows the pictures as well: it gets the picture, the camera page still the grid alone.
    const pictures = vi.fn();
    const stopPictures = intake.onThumbnail(pictures);
    await intake.read(photo, 0).catch(() => {});
    expect(shrunk).toHaveBeenCalledTimes(1);
    expect(grid.mock.calls[1]![0]).toEqual({ width: 1000, height: 1000, corners: null });
    const shown = pictures.mock.calls[0]![0] as { jpeg: string };
    expect(Buffer.from(shown.jpeg, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(shown).toMatchObject({ width: 1000, height: 1000, corners: null });
    // A picture from another instance: the grid of it to the camera page.
    intake.showPicture({ jpeg: 'AAAA', width: 10, height: 10, corners: null });
    expect(grid.mock.calls[2]![0]).toEqual({ width: 10, height: 10, corners: null });
    expect(pictures.mock.calls[1]![0]).toEqual({ jpeg: 'AAAA', width: 10, height: 10, corners: null });
    // A grid alone from another instance (it did not know yet of the page here that shows pictures): to the camera
    // page only.
    intake.showPicture({ width: 10, height: 10, corners: null });
    expect(grid).toHaveBeenCalledTimes(4);
    expect(pictures).toHaveBeenCalledTimes(2);
    stopPictures();
    stopGrid();
    await intake.read(photo, 0).catch(() => {});
    expect(grid).toHaveBeenCalledTimes(4);
    expect(pictures).toHaveBeenCalledTimes(2);
  });

  it('answers an unreadable picture as bad-image', async () => {
    failure.code = 'corrupt-image';
    const err = await readFrame(new Uint8Array(4), 'en', undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: 'bad-image' });
  });

  it("passes a model that cannot be loaded on as the server's own error, not the picture's", async () => {
    failure.code = 'no-model';
    const err = await readFrame(new Uint8Array(4), 'en', undefined).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ServiceError);
    expect(err).toBeInstanceOf(VisionError);
    expect(err).toMatchObject({ code: 'no-model' });
  });

  it('reads frames one at a time, first come first served, a failed read holding none up', async () => {
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    /** A camera whose read of frame `name` starts, then waits until let go, and then fails or reads an empty board. */
    const camera = (name: string, fails = false) =>
      ({
        read: async () => {
          log.push(`${name} starts`);
          await new Promise<void>((resolve) => gates.set(name, resolve));
          log.push(`${name} ends`);
          if (fails) throw new VisionError('no-board', 'no board');
          return { board: Array.from({ length: 15 }, () => '.'.repeat(15)) };
        },
      }) as unknown as Camera;
    const frame = new Uint8Array(4);
    const reads = [
      readFrame(frame, 'en', camera('a')),
      readFrame(frame, 'en', camera('b', true)).catch((e: unknown) => e),
      readFrame(frame, 'en', camera('c')),
    ];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    await settle();
    expect(log).toEqual(['a starts']);
    for (const name of ['a', 'b', 'c']) {
      gates.get(name)!();
      await settle();
    }
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
    const [a, b, c] = await Promise.all(reads);
    expect(a).toMatchObject({ board: expect.any(Object) });
    expect(b).toMatchObject({ code: 'no-board' });
    expect(c).toMatchObject({ board: expect.any(Object) });
  });

  it('reads the frames someone waits for (End turns) before those queued earlier that no one waits for', async () => {
    const { log, gates, camera } = gatedCameras();
    const frame = new Uint8Array(4);
    // a is being read; b and c stream between turns; d and e are End turns, pressed after them.
    const reads = [
      readFrame(frame, 'en', camera('a')),
      readFrame(frame, 'en', camera('b')),
      readFrame(frame, 'en', camera('c')),
      readFrame(frame, 'en', camera('d'), true),
      readFrame(frame, 'en', camera('e'), true),
    ];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    try {
      await settle();
      for (const name of ['a', 'd', 'e', 'b', 'c']) {
        expect(log.at(-1)).toBe(name);
        gates.get(name)!();
        await settle();
      }
      expect(log).toEqual(['a', 'd', 'e', 'b', 'c']);
    } finally {
      // Failed midway, the reads left would hold the process's queue up for the tests after this one.
      for (let k = 0; k < 5; k++) {
        for (const open of gates.values()) open();
        await settle();
      }
      await Promise.all(reads);
    }
  });

  it('reads a frame no one waits for before those someone waits for once it has waited 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const { log, gates, camera } = gatedCameras();
    const frame = new Uint8Array(4);
    try {
      // a is read for 2.5 s; b, between turns, waits all that time; c, an End turn, comes just before a ends.
      const reads = [readFrame(frame, 'en', camera('a')), readFrame(frame, 'en', camera('b'))];
      await vi.advanceTimersByTimeAsync(2500);
      reads.push(readFrame(frame, 'en', camera('c'), true));
      await vi.advanceTimersByTimeAsync(1);
      for (const name of ['a', 'b', 'c']) {
        gates.get(name)?.();
        await vi.advanceTimersByTimeAsync(1);
      }
      expect(log).toEqual(['a', 'b', 'c']);
      await Promise.all(reads);
    } finally {
      for (const open of gates.values()) open();
      vi.useRealTimers();
    }
  });

  it('lets the next frame go on once a read has run 10 s, counted from when that read began', async () => {
    vi.useFakeTimers();
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const started: Record<string, number> = {};
      const empty = { board: Array.from({ length: 15 }, () => '.'.repeat(15)) };
      /** A camera whose read starts (noting when) and ends after `ms`, or never. */
      const camera = (name: string, ms?: number) =>
        ({
          read: () => {
            started[name] = Date.now();
            return new Promise((resolve) => {
              if (ms !== undefined) setTimeout(() => resolve(empty), ms);
            });
          },
        }) as unknown as Camera;
      const t0 = Date.now();
      const frame = new Uint8Array(4);
      // a takes 8 s; b never ends; c goes on 10 s after b began (at 18 s), not 10 s after it was queued.
      const a = readFrame(frame, 'en', camera('a', 8000));
      void readFrame(frame, 'en', camera('b'));
      const c = readFrame(frame, 'en', camera('c', 1));
      await vi.advanceTimersByTimeAsync(17_000);
      expect(Object.keys(started)).toEqual(['a', 'b']);
      expect(started.b! - t0).toBe(8000);
      expect(said).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1000);
      expect(started.c! - t0).toBe(18_000);
      expect(said).toHaveBeenCalledWith(expect.stringMatching(/has run 10 s/));
      await vi.advanceTimersByTimeAsync(10);
      await expect(a).resolves.toMatchObject({ board: expect.any(Object) });
      await expect(c).resolves.toMatchObject({ board: expect.any(Object) });
    } finally {
      said.mockRestore();
      vi.useRealTimers();
    }
  });
});
