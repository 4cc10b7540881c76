/** What is kept of a photo: never more than its picture (padding after it is cut), and one pixel limit for all. */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageEnd, KEPT_SIDE, keptImage, MAX_PIXELS } from './decode.ts';

const JPEG = readFileSync(new URL('../fixtures/demo_game/1.jpg', import.meta.url));

describe('keptImage', () => {
  it('finds where a JPEG, a PNG and a WebP end, and keeps the bytes up to there', async () => {
    const small = sharp(JPEG).resize(300);
    const png = await small.clone().png().toBuffer();
    const webp = await small.clone().webp().toBuffer();
    const progressive = await small.clone().jpeg({ progressive: true }).withMetadata().toBuffer();
    const cases = [
      ['image/jpeg', JPEG],
      ['image/jpeg', progressive],
      ['image/png', png],
      ['image/webp', webp],
    ] as const;
    for (const [type, picture] of cases) {
      expect(imageEnd(picture, type)).toBe(picture.length);
      for (const pad of [
        Buffer.alloc(9_000_000),
        Buffer.from('\xff\xd9 trailing text after EOI, IEND or RIFF'),
      ]) {
        const kept = await keptImage(Buffer.concat([picture, pad]));
        expect(kept.type).toBe(type);
        expect(Buffer.from(kept.bytes).equals(picture)).toBe(true);
      }
    }
  });

  it('keeps a picture larger than KEPT_SIDE as a JPEG of that size, and refuses one over the pixel limit', async () => {
    const big = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#083' } })
      .jpeg()
      .toBuffer();
    const kept = await keptImage(big);
    expect(kept.type).toBe('image/jpeg');
    const meta = await sharp(kept.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([KEPT_SIDE, 1500]);
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#083' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(8000 * 6000).toBeGreaterThan(MAX_PIXELS);
    await expect(keptImage(huge)).rejects.toMatchObject({ code: 'image-too-large' });
    await expect(keptImage(Buffer.from('not a picture'))).rejects.toMatchObject({ code: 'not-an-image' });
  });
});
