/** How `readFrame` passes the vision's failures on: the picture's fault for the camera, the server's as its own. */
import { describe, expect, it, vi } from 'vitest';
import { VisionError, type VisionErrorCode } from '../../vision/index.ts';
import { ServiceError } from './errors.ts';

const failure = vi.hoisted(() => ({ code: 'no-model' as VisionErrorCode }));
vi.mock('../../vision/index.ts', async (original) => {
  const vision = await original<typeof import('../../vision/index.ts')>();
  return {
    ...vision,
    recognize: async () => {
      throw new vision.VisionError(failure.code, `vision failed: ${failure.code}`);
    },
  };
});

const { readFrame } = await import('./frames.ts');

describe('readFrame', () => {
  it('answers a picture without a board as no-board, with a thumbnail without a grid', async () => {
    failure.code = 'no-board';
    const thumbnail = vi.fn(async () => {});
    const err = await readFrame(new Uint8Array(4), 'en', undefined, thumbnail).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: 'no-board' });
    expect(thumbnail).toHaveBeenCalledWith(null);
  });

  it('answers an unreadable picture as bad-image', async () => {
    failure.code = 'corrupt-image';
    const err = await readFrame(new Uint8Array(4), 'en', undefined, async () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: 'bad-image' });
  });

  it("passes a model that cannot be loaded on as the server's own error, not the picture's", async () => {
    failure.code = 'no-model';
    const err = await readFrame(new Uint8Array(4), 'en', undefined, async () => {}).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ServiceError);
    expect(err).toBeInstanceOf(VisionError);
    expect(err).toMatchObject({ code: 'no-model' });
  });
});
